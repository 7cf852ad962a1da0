package com.orderconsole.service.maintenance;

import com.orderconsole.service.DaemonScheduler;


import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.ScheduledExecutorService;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * The pass over terminal orders without an expiry tries again soon after one that failed. A hand trial hung MySQL
 * for 20 s (SIGSTOP) while the first pass ran: it failed, and the next try was 6 hours away.
 */
class MaintenancePassRetryTest {
    @Test
    void aFailedPassIsTriedAgainAfterTheRetryDelayAndThenRunsAtItsPeriod() throws Exception {
        List<Long> runs = new CopyOnWriteArrayList<>();
        ScheduledExecutorService on = DaemonScheduler.create("pass-retry-test");
        try {
            long t0 = System.nanoTime();
            Maintenance.schedulePasses(on, () -> {
                runs.add((System.nanoTime() - t0) / 1_000_000);
                if (runs.size() <= 2) {
                    throw new IllegalStateException("MySQL at 127.0.0.1:3306/orders is unreachable: Read timed out");
                }
            }, Duration.ZERO, Duration.ofHours(6), Duration.ofMillis(200));
            await().atMost(Duration.ofSeconds(5)).until(() -> runs.size() == 3);
            Thread.sleep(600);
            assertThat(runs).as("two failures, each retried after 200 ms; then the 6-hour period").hasSize(3);
            assertThat(runs.get(1) - runs.get(0)).isGreaterThanOrEqualTo(200);
            assertThat(runs.get(2) - runs.get(1)).isGreaterThanOrEqualTo(200);
        } finally {
            on.shutdownNow();
        }
    }
}
