package com.orderconsole.service.follower;

import com.orderconsole.Slow;
import com.orderconsole.RawRedis;
import com.orderconsole.RawSql;
import com.orderconsole.TestServers;
import com.orderconsole.app.Engine;
import com.orderconsole.domain.Operator;
import com.orderconsole.domain.OrderStatus;
import com.orderconsole.domain.ResultCode;
import com.orderconsole.domain.Role;
import com.orderconsole.domain.TransitionRequest;
import com.orderconsole.redis.RedisKeys;
import com.orderconsole.redis.RedisUnavailableException;
import com.orderconsole.app.Services;
import com.orderconsole.service.order.OrderDetails;
import com.orderconsole.service.recon.ReconProgress;
import com.orderconsole.service.recon.ReconReport;
import com.orderconsole.store.DatabaseUnavailableException;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.concurrent.CompletableFuture;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** MySQL must never lose a transition Redis accepted: process death, MySQL outage, concurrent followers. */
@Slow
class DurabilityTest {
    private final Operator support = new Operator("alice", Role.SUPPORT);

    private static void pay(Services s, Operator op, String id) {
        assertThat(s.transitions().transition(op, TransitionRequest.of(id, OrderStatus.PAID, "test", "")).applied()).isTrue();
    }

    @Test
    void transitionsAppliedBeforeTheProcessDiesReachMySqlAfterRestart() {
        Engine first = TestServers.freshEngine();
        for (int i = 0; i < 50; i++) {
            first.services().orders().create(support, "crash-" + i, null, Duration.ofMinutes(30));
            pay(first.services(), support, "crash-" + i);
        }
        // The process dies after the Redis writes and before its follower ran: no drain, just gone.
        first.close();
        assertThat(RawSql.count("SELECT COUNT(*) FROM orders WHERE status = 2")).isZero();

        try (Engine second = Engine.start(TestServers.config())) {
            assertThat(second.services().follower().awaitCaughtUp(Duration.ofSeconds(20))).isTrue();
        }
        assertThat(RawSql.count("SELECT COUNT(*) FROM orders WHERE status = 2 AND version = 2")).isEqualTo(50);
        assertThat(RawSql.count("SELECT COUNT(*) FROM order_history WHERE to_status = 2 AND result_code = 1")).isEqualTo(50);
    }

    /**
     * Issue 15: an upgrade with a backlog. Entries the earlier script wrote (one field per value, the time
     * in ts) wait in the outbox when the compact form takes over; the follower applies both, in order, once.
     */
    @Test
    void aBacklogInTheEarlierOutboxFormIsAppliedAfterAnUpgrade() {
        long paidAt;
        long refusedAt;
        try (Engine e = TestServers.freshEngine()) {
            Services s = e.services();
            s.orders().create(support, "old-1", null, Duration.ofMinutes(30));
            s.follower().drainOnce();
            int bucket = RedisKeys.bucket("old-1");
            // Dated after the order's creation, as a real backlog is (an entry dated before its order is set aside).
            long created = RawSql.count("SELECT created_at_ms FROM orders WHERE order_id = 'old-1'");
            paidAt = created + 1;
            refusedAt = created + 2;
            try (RawRedis raw = new RawRedis()) {
                // As the earlier transition.lua left a PAY and a rejected CANCEL: state, sequence and entries.
                String stats = RedisKeys.stats(bucket);
                long seq = raw.cmd().hincrby(stats, "seq", 1);
                raw.cmd().hset(RedisKeys.order("old-1"), java.util.Map.of("status", "2", "version", "2", "updateTime", Long.toString(paidAt)));
                raw.cmd().xadd(RedisKeys.outbox(bucket), java.util.Map.of("o", "old-1", "f", "1", "t", "2", "v", "2", "c", "1",
                        "a", "bob", "s", "api", "r", "paid before the upgrade", "ts", Long.toString(paidAt), "n", Long.toString(seq)));
                seq = raw.cmd().hincrby(stats, "seq", 1);
                raw.cmd().xadd(RedisKeys.outbox(bucket), java.util.Map.of("o", "old-1", "f", "2", "t", "6", "v", "2", "c", "0",
                        "a", "sweeper", "s", "sweeper", "r", "", "ts", Long.toString(refusedAt), "n", Long.toString(seq)));
            }
        }
        // The upgraded version starts on that backlog: its follower has not read the outbox before (one that had read
        // the bucket to its end would set aside entries added after that read yet dated before it: ServerClockTest).
        try (Engine e = Engine.start(TestServers.config())) {
            Services s = e.services();
            assertThat(s.transitions().transition(support, TransitionRequest.of("old-1", OrderStatus.WAIT_SHIP, "test", "after"))
                    .applied()).isTrue();
            assertThat(s.follower().drainOnce()).isEqualTo(3);
            assertThat(s.follower().drainOnce()).isZero();
            assertThat(s.follower().status().pending()).isZero();
            assertThat(s.deadLetters().countOpen()).isZero();
        }
        assertThat(RawSql.count("SELECT COUNT(*) FROM orders WHERE order_id = 'old-1' AND status = 3 AND version = 3")).isEqualTo(1);
        assertThat(RawSql.count("SELECT COUNT(*) FROM order_history WHERE order_id = 'old-1' AND to_status = 2 AND result_code = 1"
                + " AND actor = 'bob' AND reason = 'paid before the upgrade' AND at_ms = " + paidAt)).isEqualTo(1);
        assertThat(RawSql.count("SELECT COUNT(*) FROM order_history WHERE order_id = 'old-1' AND to_status = 6 AND result_code = 0"
                + " AND at_ms = " + refusedAt)).isEqualTo(1);
        assertThat(RawSql.count("SELECT COUNT(*) FROM order_history WHERE order_id = 'old-1' AND to_status = 3 AND version = 3"
                + " AND result_code = 1 AND actor = 'alice' AND reason = 'after' AND at_ms > " + refusedAt)).isEqualTo(1);
    }

    @Test
    void mysqlOutageDelaysButDoesNotLoseTransitions() {
        try (Engine e = TestServers.freshEngine()) {
            Services s = e.services();
            for (int i = 0; i < 20; i++) {
                s.orders().create(support, "down-" + i, null, Duration.ofMinutes(30));
            }
            s.follower().drainOnce();
            TestServers.mariaDb().stop();
            try {
                for (int i = 0; i < 20; i++) {
                    pay(s, support, "down-" + i);
                }
                assertThatThrownBy(() -> s.follower().drainOnce()).isInstanceOf(DatabaseUnavailableException.class)
                        .hasMessageContaining("127.0.0.1").hasMessageNotContaining("password");
                assertThat(s.health().check().mysqlUp()).isFalse();
            } finally {
                TestServers.mariaDb().start();
            }
            assertThat(s.follower().awaitCaughtUp(Duration.ofSeconds(30))).as("MySQL caught up within 30 s of MariaDB being ready "
                    + "again: %s", s.follower().status().lastError()).isTrue();
            assertThat(s.follower().status().pending()).isZero();
        }
        assertThat(RawSql.count("SELECT COUNT(*) FROM orders WHERE status = 2 AND version = 2")).isEqualTo(20);
        assertThat(RawSql.count("SELECT COUNT(*) FROM order_history WHERE to_status = 2")).as("nothing applied twice").isEqualTo(20);
    }

    @Test
    void sixtySecondsOfMySqlOutageUnderTrafficAreCaughtUpWithNothingAppliedTwice() throws Exception {
        int n = 300;
        try (Engine e = Engine.start(freshConfigWithFollower())) {
            Services s = e.services();
            for (int i = 0; i < n; i++) {
                s.orders().create(support, "out-" + i, null, Duration.ofMinutes(30));
            }
            OrderStatus[] path = {OrderStatus.PAID, OrderStatus.WAIT_SHIP, OrderStatus.SHIPPED, OrderStatus.FINISHED};
            java.util.concurrent.atomic.AtomicBoolean stop = new java.util.concurrent.atomic.AtomicBoolean();
            java.util.concurrent.atomic.AtomicLong applied = new java.util.concurrent.atomic.AtomicLong();
            CompletableFuture<Void> traffic = CompletableFuture.runAsync(() -> {
                java.util.Random rnd = new java.util.Random(7);
                while (!stop.get()) {
                    String id = "out-" + rnd.nextInt(n);
                    if (s.transitions().transition(support, TransitionRequest.of(id, path[rnd.nextInt(path.length)], "traffic", ""))
                            .applied()) {
                        applied.incrementAndGet();
                    }
                    try {
                        Thread.sleep(5);
                    } catch (InterruptedException ex) {
                        return;
                    }
                }
            });
            Thread.sleep(2000);
            TestServers.mariaDb().stop();
            long appliedAtStop = applied.get();
            try {
                Thread.sleep(60_000);
                assertThat(applied.get()).as("Redis kept accepting transitions while MySQL was down").isGreaterThan(appliedAtStop + 100);
                assertThat(s.health().check().mysqlUp()).isFalse();
            } finally {
                TestServers.mariaDb().start();
            }
            Thread.sleep(2000);
            stop.set(true);
            traffic.get();
            assertThat(s.follower().awaitCaughtUp(Duration.ofSeconds(60))).isTrue();
            ReconReport r = s.reconciliation().run(null, ReconProgress.NONE, () -> false);
            assertThat(r.total()).as("%s", r.counts()).isZero();
            assertThat(RawSql.count("SELECT COUNT(*) FROM order_history WHERE result_code = 1 AND source = 'traffic'"))
                    .as("each applied transition written once").isEqualTo(applied.get());
        }
    }

    private static com.orderconsole.app.EngineConfig freshConfigWithFollower() {
        TestServers.reset();
        return TestServers.config().withBackgroundJobs(null, Duration.ofMillis(200));
    }

    @Test
    void twoFollowersDrainingAtOnceWriteEachEventOnce() throws Exception {
        try (Engine a = TestServers.freshEngine(); Engine b = Engine.start(TestServers.config())) {
            for (int i = 0; i < 300; i++) {
                a.services().orders().create(support, "two-" + i, null, Duration.ofMinutes(30));
                pay(a.services(), support, "two-" + i);
            }
            CompletableFuture<Integer> fa = CompletableFuture.supplyAsync(() -> a.services().follower().drainOnce());
            CompletableFuture<Integer> fb = CompletableFuture.supplyAsync(() -> b.services().follower().drainOnce());
            assertThat(fa.get() + fb.get()).isEqualTo(300);
        }
        assertThat(RawSql.count("SELECT COUNT(*) FROM order_history WHERE to_status = 2")).isEqualTo(300);
        assertThat(RawSql.count("SELECT COUNT(*) FROM orders WHERE version = 2")).isEqualTo(300);
    }

    @Test
    void versionGuardIgnoresAnOlderEventReplayedAfterANewerOne() {
        try (Engine e = TestServers.freshEngine()) {
            Services s = e.services();
            s.orders().create(support, "g-1", null, Duration.ofMinutes(30));
            pay(s, support, "g-1");
            s.follower().drainOnce();
            // Simulate MySQL already holding a newer state than the replayed event carries.
            RawSql.update("UPDATE orders SET status = 3, version = 3 WHERE order_id = 'g-1'");
            RawSql.update("UPDATE sync_cursor SET last_id = '0-0'");
            try (RawRedis raw = new RawRedis()) {
                raw.cmd().xadd(RedisKeys.outbox(RedisKeys.bucket("g-1")), java.util.Map.of("o", "g-1", "f", "1", "t", "2",
                        "v", "2", "c", "1", "a", "alice", "s", "test", "r", "", "ts", "1"));
            }
            s.follower().drainOnce();
            assertThat(RawSql.count("SELECT version FROM orders WHERE order_id = 'g-1'")).isEqualTo(3);
            assertThat(RawSql.count("SELECT status FROM orders WHERE order_id = 'g-1'")).isEqualTo(3);
        }
    }

    @Test
    void creationInterruptedAfterTheMySqlStepIsCompletedLater() {
        try (Engine e = TestServers.freshEngine()) {
            Services s = e.services();
            s.orders().create(support, "half-1", null, Duration.ofMinutes(30));
            // As if the process died between the MySQL insert and the Redis step.
            try (RawRedis raw = new RawRedis()) {
                raw.cmd().del(RedisKeys.order("half-1"));
                raw.cmd().zrem(RedisKeys.cancelQueue(RedisKeys.bucket("half-1")), "half-1");
            }
            RawSql.update("UPDATE orders SET redis_ready = 0, created_at_ms = created_at_ms - 60000 WHERE order_id = 'half-1'");
            assertThat(s.rebuilder().finishPendingCreations()).isEqualTo(1);
            OrderDetails d = s.orders().lookup("half-1");
            assertThat(d.rebuilt()).isFalse();
            assertThat(d.summary().redisStatus()).isEqualTo(OrderStatus.WAIT_PAY);
            assertThat(d.queueExpiryMs()).isNotNull();
            assertThat(RawSql.count("SELECT redis_ready FROM orders WHERE order_id = 'half-1'")).isEqualTo(1);
        }
    }

    @Test
    void creationWithRedisDownStoresNothingAndSaysWhy() {
        try (Engine e = TestServers.freshEngine()) {
            TestServers.redis().stop();
            try {
                assertThatThrownBy(() -> e.services().orders().create(support, "nr-1", null, Duration.ofMinutes(30)))
                        .isInstanceOf(RedisUnavailableException.class).hasMessageContaining("Redis at 127.0.0.1");
                assertThat(e.services().health().check().redisUp()).isFalse();
            } finally {
                TestServers.redis().start();
            }
            assertThat(RawSql.count("SELECT COUNT(*) FROM orders")).isZero();
            // Lettuce reconnects by itself; the next call works without operator action.
            org.awaitility.Awaitility.await().atMost(Duration.ofSeconds(15)).ignoreExceptions().until(() -> {
                e.services().orders().create(support, "nr-2", null, Duration.ofMinutes(30));
                return true;
            });
            assertThat(e.services().transitions().transition(support,
                    TransitionRequest.of("nr-2", OrderStatus.PAID, "t", "")).code()).isEqualTo(ResultCode.APPLIED);
        }
    }
}
