package com.orderconsole.service;

import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;

/** Single-thread schedulers for background jobs, on daemon threads so they never keep the JVM alive. */
public final class DaemonScheduler {
    private DaemonScheduler() {
    }

    /** @param name thread name, shown in thread dumps */
    public static ScheduledExecutorService create(String name) {
        return Executors.newSingleThreadScheduledExecutor(r -> {
            Thread t = new Thread(r, name);
            t.setDaemon(true);
            return t;
        });
    }
}
