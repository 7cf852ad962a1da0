package com.orderconsole.bench;

import com.orderconsole.service.monitor.MonitorService;

import java.time.Duration;
import java.util.List;

/** The reads {@code GET /v1/stats} makes of {@link MonitorService}, one at a time by name, to time each. */
final class MonitorParts {
    static final List<String> NAMES = List.of("stateCounts", "appliedByEdge", "rejectionsByEdge", "transitionsLastHour",
            "resultCounts", "perMinute");
    private final MonitorService m;

    MonitorParts(MonitorService m) {
        this.m = m;
    }

    void run(String name) {
        switch (name) {
            case "stateCounts" -> m.stateCounts();
            case "appliedByEdge" -> m.appliedByEdge();
            case "rejectionsByEdge" -> m.rejectionsByEdge();
            case "transitionsLastHour" -> m.transitionsLastHour();
            case "resultCounts" -> m.resultCounts();
            case "perMinute" -> m.perMinute(Duration.ofHours(1));
            default -> throw new IllegalArgumentException(name);
        }
    }
}
