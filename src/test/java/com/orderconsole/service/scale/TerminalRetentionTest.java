package com.orderconsole.service.scale;

import com.orderconsole.RawRedis;
import com.orderconsole.RawSql;
import com.orderconsole.TestServers;
import com.orderconsole.app.Engine;
import com.orderconsole.domain.Operator;
import com.orderconsole.domain.OrderStatus;
import com.orderconsole.domain.ResultCode;
import com.orderconsole.domain.Role;
import com.orderconsole.domain.TransitionRequest;
import com.orderconsole.domain.TransitionResult;
import com.orderconsole.redis.RedisKeys;
import com.orderconsole.app.Services;
import com.orderconsole.service.order.OrderDetails;
import com.orderconsole.service.order.OrderQuery;
import com.orderconsole.service.recon.ReconProgress;
import com.orderconsole.service.recon.ReconReport;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.Set;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * Issue 16.3: Redis holds what is live. A terminal order leaves Redis a retention after it became
 * terminal, only once MySQL has it; on access it comes back from MySQL in its terminal status (never as
 * a new WAIT_PAY order); reconciliation does not call it missing; the graph counts it from MySQL.
 */
class TerminalRetentionTest {
    private static final Duration RETENTION = Duration.ofSeconds(2);
    private final Operator support = new Operator("alice", Role.SUPPORT);
    private final Operator ops = new Operator("olga", Role.OPS);
    private final Operator admin = new Operator("root-admin", Role.ADMIN);

    private static Engine engine() {
        TestServers.reset();
        return Engine.start(TestServers.config().withTerminalRetention(RETENTION));
    }

    private void finish(Services s, String id) {
        s.orders().create(support, id, null, Duration.ofMinutes(30));
        for (OrderStatus to : new OrderStatus[]{OrderStatus.PAID, OrderStatus.WAIT_SHIP, OrderStatus.SHIPPED, OrderStatus.FINISHED}) {
            assertThat(s.transitions().transition(support, TransitionRequest.of(id, to, "test", "")).applied()).isTrue();
        }
    }

    @Test
    void aFinishedOrderLeavesRedisAfterItsRetentionAndComesBackFromMySqlOnAccess() {
        try (Engine e = engine(); RawRedis raw = new RawRedis()) {
            Services s = e.services();
            finish(s, "ret-1");
            s.orders().create(support, "ret-live", null, Duration.ofMinutes(30));
            s.transitions().transition(support, TransitionRequest.of("ret-live", OrderStatus.PAID, "test", ""));
            assertThat(raw.cmd().pttl(RedisKeys.order("ret-1"))).as("no expiry before MySQL has the order").isEqualTo(-1);

            s.follower().drainOnce();
            assertThat(raw.cmd().pttl(RedisKeys.order("ret-1"))).as("expires a retention after it finished").isBetween(1L, 2000L);
            assertThat(raw.cmd().pttl(RedisKeys.order("ret-live"))).as("a live order stays").isEqualTo(-1);
            await().atMost(6, TimeUnit.SECONDS).until(() -> raw.cmd().exists(RedisKeys.order("ret-1")) == 0);

            OrderDetails d = s.orders().lookup("ret-1");
            assertThat(d.summary().mysqlStatus()).isEqualTo(OrderStatus.FINISHED);
            assertThat(d.summary().redisStatus()).isNull();
            assertThat(d.summary().retired()).isTrue();
            assertThat(d.summary().disagrees()).as("left Redis on purpose: not a disagreement").isFalse();
            OrderQuery disagreeing = new OrderQuery(null, null, Set.of(), false, null, null, true, false);
            assertThat(s.orders().page(disagreeing, null, 50).rows()).isEmpty();

            ReconReport r = s.reconciliation().run(null, ReconProgress.NONE, () -> false);
            assertThat(r.total()).as("nothing missing, no counter drift: %s", r.counts()).isZero();
            assertThat(s.monitor().stateCounts().live()).as("terminal counts come from MySQL")
                    .containsEntry(OrderStatus.FINISHED, 1L).containsEntry(OrderStatus.PAID, 1L);

            // A late request on the finished order: rebuilt from MySQL, refused as terminal, never a new WAIT_PAY order.
            TransitionResult late = s.transitions().transition(support, TransitionRequest.of("ret-1", OrderStatus.CANCELLED, "test", ""));
            assertThat(late.code()).isEqualTo(ResultCode.TERMINAL);
            assertThat(raw.cmd().hget(RedisKeys.order("ret-1"), "status")).isEqualTo("5");
            assertThat(raw.cmd().hget(RedisKeys.order("ret-1"), "version")).isEqualTo("5");
            assertThat(raw.cmd().pttl(RedisKeys.order("ret-1"))).as("the rebuilt copy leaves again").isBetween(1L, 2000L);
            assertThat(raw.cmd().zscore(RedisKeys.cancelQueue(RedisKeys.bucket("ret-1")), "ret-1")).isNull();
            s.follower().drainOnce();
            assertThat(RawSql.count("SELECT status FROM orders WHERE order_id = 'ret-1'")).isEqualTo(OrderStatus.FINISHED.code());
            assertThat(RawSql.count("SELECT COUNT(*) FROM order_history WHERE order_id = 'ret-1' AND to_status = 1"))
                    .as("one creation line only").isEqualTo(1);

            await().atMost(6, TimeUnit.SECONDS).until(() -> raw.cmd().exists(RedisKeys.order("ret-1")) == 0);
            OrderDetails rebuilt = s.orders().rebuildAndLookup("ret-1");
            assertThat(rebuilt.rebuilt()).isTrue();
            assertThat(rebuilt.summary().redisStatus()).isEqualTo(OrderStatus.FINISHED);
        }
    }

    @Test
    void anOverrideOutOfATerminalStatusKeepsTheOrderInRedis() {
        try (Engine e = engine(); RawRedis raw = new RawRedis()) {
            Services s = e.services();
            finish(s, "ret-2");
            s.follower().drainOnce();
            assertThat(raw.cmd().pttl(RedisKeys.order("ret-2"))).isPositive();
            TransitionResult back = s.transitions().transition(admin,
                    new TransitionRequest("ret-2", OrderStatus.SHIPPED, 5L, "console", "customer disputes delivery", true));
            assertThat(back.applied()).isTrue();
            s.follower().drainOnce();
            assertThat(raw.cmd().pttl(RedisKeys.order("ret-2"))).as("live again: no expiry").isEqualTo(-1);
            Thread.sleep(RETENTION.toMillis() + 300);
            assertThat(s.orders().lookup("ret-2").summary().redisStatus()).isEqualTo(OrderStatus.SHIPPED);
        } catch (InterruptedException ex) {
            Thread.currentThread().interrupt();
        }
    }

    @Test
    void anOrderThatBecameTerminalAgainAfterTheFollowerReadItIsNotExpiredEarly() {
        try (Engine e = engine(); RawRedis raw = new RawRedis()) {
            Services s = e.services();
            s.orders().create(support, "ret-3", null, Duration.ofMinutes(30));
            s.transitions().transition(ops, TransitionRequest.of("ret-3", OrderStatus.CANCELLED, "test", "cancelled by the customer"));
            // An override moves it on before the follower applies the cancel: the hash is at version 3, MySQL gets 2 first.
            s.transitions().transition(admin, new TransitionRequest("ret-3", OrderStatus.PAID, 2L, "console", "paid after all", true));
            s.follower().drainOnce();
            assertThat(raw.cmd().pttl(RedisKeys.order("ret-3"))).as("version 3 is PAID: no expiry").isEqualTo(-1);
            assertThat(raw.cmd().hget(RedisKeys.order("ret-3"), "status")).isEqualTo("2");
        }
    }

    @Test
    void terminalOrdersStoredBeforeTheRetentionGetTheirsOnlyOnceMySqlHasThem() {
        try (Engine e = engine(); RawRedis raw = new RawRedis()) {
            Services s = e.services();
            finish(s, "old-1");
            s.orders().create(support, "old-live", null, Duration.ofMinutes(30));
            s.follower().drainOnce();
            raw.cmd().persist(RedisKeys.order("old-1")); // as stored before the retention existed
            finish(s, "old-2"); // finished in Redis, not yet in MySQL: the hash is its only copy
            assertThat(raw.cmd().pttl(RedisKeys.order("old-1"))).isEqualTo(-1);

            assertThat(s.retention().retireUntracked(() -> false)).isEqualTo(1);
            assertThat(raw.cmd().pttl(RedisKeys.order("old-1"))).as("MySQL has it: it may leave").isBetween(1L, 2000L);
            assertThat(raw.cmd().pttl(RedisKeys.order("old-2"))).as("MySQL does not have it yet: it stays").isEqualTo(-1);
            assertThat(raw.cmd().pttl(RedisKeys.order("old-live"))).isEqualTo(-1);
            s.follower().drainOnce();
            assertThat(raw.cmd().pttl(RedisKeys.order("old-2"))).as("the follower retires it after its commit").isPositive();
        }
    }

    @Test
    void aTerminalOrderLostWithinItsRetentionIsMissingNotRetired() {
        TestServers.reset();
        try (Engine e = Engine.start(TestServers.config().withTerminalRetention(Duration.ofHours(1))); RawRedis raw = new RawRedis()) {
            Services s = e.services();
            finish(s, "lost-fin");
            s.follower().drainOnce();
            raw.cmd().del(RedisKeys.order("lost-fin")); // a Redis wipe, not the retention
            ReconReport r = s.reconciliation().run(null, ReconProgress.NONE, () -> false);
            assertThat(r.findings(com.orderconsole.service.recon.ReconCategory.MISSING_IN_REDIS))
                    .extracting(com.orderconsole.service.recon.ReconFinding::orderId).containsExactly("lost-fin");
            assertThat(s.orders().lookup("lost-fin").summary().retired()).isFalse();
        }
    }
}
