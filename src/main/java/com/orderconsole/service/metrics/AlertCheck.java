package com.orderconsole.service.metrics;

import java.util.List;

/**
 * The alert notices of the console: incidents judged against the alert thresholds. Implemented in-process by
 * {@link MetricsService} and over serve's HTTP API.
 */
public interface AlertCheck {
    /**
     * Judges the latest reading against the alert thresholds; never waits on a server.
     *
     * @return incidents that began or cleared since the last call (each once)
     */
    List<Alert> checkAlerts();
}
