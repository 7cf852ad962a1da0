package com.orderconsole.service.metrics;

import com.orderconsole.Slow;
import com.orderconsole.StallingProxy;
import com.orderconsole.TestServers;
import com.orderconsole.app.Engine;
import com.orderconsole.app.Services;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Issue 34: {@code serve} raised no alert when Redis went down (the figure alerts judge nothing without Redis). Each store
 * that stops answering is now one incident, reported once when it begins and once when it ends. A Redis outage of several
 * seconds: {@link Slow}, as the other outage tests.
 */
@Slow
class StoreAlertsTest {
    @Test
    void redisGoingDownIsReportedOnceAndItsReturnOnce() throws Exception {
        TestServers.reset();
        try (StallingProxy proxy = new StallingProxy(TestServers.redis().port());
             Engine e = Engine.start(TestServers.config().withServers("redis://127.0.0.1:" + proxy.port(), TestServers.config().jdbcUrl(),
                     "root", "").withCommandTimeout(Duration.ofSeconds(2)))) {
            Services s = e.services();
            assertThat(s.metrics().checkStores()).as("both answer: nothing to say").isEmpty();

            proxy.down(true);
            List<MetricsService.StoreChange> seen = new ArrayList<>();
            Awaitility.await().atMost(Duration.ofSeconds(30)).until(() -> {
                seen.addAll(s.metrics().checkStores());
                return !seen.isEmpty();
            });
            assertThat(seen).singleElement().satisfies(c -> {
                assertThat(c.store()).isEqualTo("redis");
                assertThat(c.up()).isFalse();
                assertThat(c.reason()).startsWith("Redis ");
            });
            assertThat(s.metrics().checkStores()).as("still the same incident").isEmpty();

            proxy.down(false);
            List<MetricsService.StoreChange> back = new ArrayList<>();
            Awaitility.await().atMost(Duration.ofSeconds(60)).until(() -> {
                back.addAll(s.metrics().checkStores());
                return !back.isEmpty();
            });
            assertThat(back).singleElement().satisfies(c -> assertThat(c.up()).isTrue());
        }
    }
}
