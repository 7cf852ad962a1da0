package com.orderconsole.service.transition;

import com.orderconsole.RawRedis;
import com.orderconsole.RawSql;
import com.orderconsole.TestServers;
import com.orderconsole.app.Engine;
import com.orderconsole.app.Services;
import com.orderconsole.domain.Operator;
import com.orderconsole.domain.OrderStatus;
import com.orderconsole.domain.ResultCode;
import com.orderconsole.domain.Role;
import com.orderconsole.domain.TransitionRequest;
import com.orderconsole.redis.RedisKeys;
import com.orderconsole.service.order.OrderSummary;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * "I paid but my order was cancelled": an admin overrides a cancelled order whose Redis state left after its retention.
 * The version a move names is MySQL's record when Redis holds none ({@link OrderSummary#expectedVersion()}); the
 * transition puts the state back from that record and compares against it, so a stale version is still refused.
 */
class OverrideWithoutRedisStateTest {
    private static final Duration RETENTION = Duration.ofSeconds(1);
    private final Operator support = new Operator("alice", Role.SUPPORT);
    private final Operator admin = new Operator("root-admin", Role.ADMIN);

    private static Engine engine() {
        TestServers.reset();
        return Engine.start(TestServers.config().withTerminalRetention(RETENTION));
    }

    /** A cancelled order (v2) that MySQL has and Redis no longer holds. */
    private static void cancelledAndRetired(Services s, RawRedis raw, String id, Operator by) {
        s.orders().create(by, id, null, Duration.ofMinutes(30));
        assertThat(s.transitions().transition(by, TransitionRequest.of(id, OrderStatus.CANCELLED, "test", "timed out")).applied()).isTrue();
        s.follower().drainOnce();
        await().atMost(6, TimeUnit.SECONDS).until(() -> raw.cmd().exists(RedisKeys.order(id)) == 0);
    }

    @Test
    void theVersionOfAnOrderWithoutRedisStateIsMySqlsAndAnOverrideWithItIsApplied() {
        try (Engine e = engine(); RawRedis raw = new RawRedis()) {
            Services s = e.services();
            cancelledAndRetired(s, raw, "paid-late-1", support);
            OrderSummary seen = s.orders().lookup("paid-late-1").summary();
            assertThat(seen.redisStatus()).isNull();
            assertThat(seen.retired()).isTrue();
            assertThat(seen.expectedVersion()).as("MySQL's record, not Redis' 0").isEqualTo(2);

            TransitionOutcome o = s.transitions().transitionAndWait(admin, new TransitionRequest("paid-late-1", OrderStatus.PAID,
                    seen.expectedVersion(), "console", "customer paid by bank transfer", true), Duration.ofSeconds(5));
            assertThat(o.result().code()).isEqualTo(ResultCode.APPLIED);
            assertThat(o.result().version()).isEqualTo(3);
            assertThat(o.mysqlSynced()).isTrue();
            assertThat(RawSql.count("SELECT version FROM orders WHERE order_id = 'paid-late-1' AND status = "
                    + OrderStatus.PAID.code())).isEqualTo(3);
            assertThat(RawSql.count("SELECT COUNT(*) FROM audit_log WHERE order_id = 'paid-late-1' AND action = 'OVERRIDE'")).isEqualTo(1);
            assertThat(s.orders().lookup("paid-late-1").summary().expectedVersion()).isEqualTo(3);
        }
    }

    @Test
    void anOverrideNamingAnOlderVersionThanMySqlsRecordIsRefusedAndChangesNothing() {
        try (Engine e = engine(); RawRedis raw = new RawRedis()) {
            Services s = e.services();
            cancelledAndRetired(s, raw, "paid-late-2", support);
            TransitionOutcome o = s.transitions().transitionAndWait(admin, new TransitionRequest("paid-late-2", OrderStatus.PAID,
                    1L, "console", "customer paid by bank transfer", true), Duration.ofSeconds(5));
            assertThat(o.result().code()).isEqualTo(ResultCode.VERSION_CONFLICT);
            s.follower().drainOnce();
            assertThat(RawSql.count("SELECT status FROM orders WHERE order_id = 'paid-late-2'")).isEqualTo(OrderStatus.CANCELLED.code());
            assertThat(RawSql.count("SELECT COUNT(*) FROM order_history WHERE order_id = 'paid-late-2' AND result_code = 1"))
                    .as("no applied move beyond creation and cancel").isEqualTo(2);
        }
    }
}
