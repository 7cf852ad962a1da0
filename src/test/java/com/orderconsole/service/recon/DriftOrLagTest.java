package com.orderconsole.service.recon;

import com.orderconsole.RawRedis;
import com.orderconsole.TestServers;
import com.orderconsole.app.Engine;
import com.orderconsole.domain.Operator;
import com.orderconsole.domain.OrderStatus;
import com.orderconsole.domain.Role;
import com.orderconsole.domain.TransitionRequest;
import com.orderconsole.redis.RedisKeys;
import com.orderconsole.app.Services;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import java.util.stream.Collectors;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Issue 10.5: a compare while traffic flows tells lag (the follower is behind) from drift (a state no
 * recorded transition explains): nothing planted, nothing reported; ten planted, exactly those ten.
 */
class DriftOrLagTest {
    private final Operator support = new Operator("alice", Role.SUPPORT);

    @Test
    void aCompareUnderTrafficReportsOnlyWhatWasPlanted() throws Exception {
        TestServers.reset();
        // The follower runs in the background, as in the console.
        try (Engine e = Engine.start(TestServers.config().withBackgroundJobs(null, Duration.ofMillis(200)))) {
            Services s = e.services();
            List<String> planted = new ArrayList<>();
            for (int i = 0; i < 10; i++) {
                String id = "plant-" + i;
                s.orders().create(support, id, null, Duration.ofMinutes(30));
                s.transitions().transition(support, TransitionRequest.of(id, OrderStatus.PAID, "t", ""));
                planted.add(id);
            }
            AtomicBoolean stop = new AtomicBoolean();
            AtomicLong moves = new AtomicLong();
            CompletableFuture<Void> traffic = CompletableFuture.runAsync(() -> {
                int n = 0;
                long end = System.nanoTime() + Duration.ofSeconds(60).toNanos(); // bound, whatever happens
                while (!stop.get() && System.nanoTime() < end) {
                    String id = "live-" + n++;
                    s.orders().create(support, id, null, Duration.ofMinutes(30));
                    for (OrderStatus to : List.of(OrderStatus.PAID, OrderStatus.WAIT_SHIP, OrderStatus.SHIPPED)) {
                        s.transitions().transition(support, TransitionRequest.of(id, to, "traffic", ""));
                        moves.incrementAndGet();
                    }
                }
            });
            Thread.sleep(1500);
            ReconReport clean = s.reconciliation().run(null, ReconProgress.NONE, () -> false);
            long seenBefore = moves.get();
            try (RawRedis raw = new RawRedis()) {
                for (String id : planted) {
                    raw.cmd().hset(RedisKeys.order(id), "version", "7"); // ahead with no record; status unchanged
                }
            }
            ReconReport dirty = s.reconciliation().run(null, ReconProgress.NONE, () -> false);
            stop.set(true);
            traffic.get();
            assertThat(seenBefore).as("traffic was flowing").isGreaterThan(100);
            EnumSet<ReconCategory> lag = EnumSet.of(ReconCategory.SYNC_PENDING);
            assertThat(disagreements(clean, lag)).as("nothing planted: %s", clean.counts()).isZero();
            assertThat(disagreements(dirty, lag)).as("ten planted: %s", dirty.counts()).isEqualTo(10);
            assertThat(dirty.findings(ReconCategory.REDIS_UNEXPLAINED).stream().map(ReconFinding::orderId)
                    .collect(Collectors.toSet())).containsExactlyInAnyOrderElementsOf(planted);
        }
    }

    /** @return findings other than the categories that only say MySQL is catching up */
    private static long disagreements(ReconReport r, EnumSet<ReconCategory> lag) {
        return r.counts().entrySet().stream().filter(en -> !lag.contains(en.getKey())).mapToLong(en -> en.getValue()).sum();
    }
}
