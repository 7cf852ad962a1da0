package com.orderconsole.service.monitor;

/** Both stores' health for the status bar and {@code stats}. Implemented in-process by {@link HealthService} and over serve's HTTP API. */
public interface HealthCheck {
    /** @return the current health; never throws for a server being down (that is what it reports) */
    Health check();
}
