package com.orderconsole.service.recon;

import com.orderconsole.RawRedis;
import com.orderconsole.RawSql;
import com.orderconsole.TestServers;
import com.orderconsole.app.Engine;
import com.orderconsole.app.Services;
import com.orderconsole.domain.Operator;
import com.orderconsole.domain.OrderStatus;
import com.orderconsole.domain.Role;
import com.orderconsole.domain.TransitionRequest;
import com.orderconsole.redis.RedisKeys;
import org.junit.jupiter.api.Test;

import java.time.Duration;

import static org.assertj.core.api.Assertions.assertThat;

/** A repair's audit row says in words what it replaced: the state, not the Redis hash with its epoch milliseconds. */
class RepairAuditWordsTest {
    private final Operator support = new Operator("alice", Role.SUPPORT);
    private final Operator ops = new Operator("olga", Role.OPS);

    @Test
    void aRestoreOfAStateWithNoRecordNamesTheStateItReplaced() {
        try (Engine e = TestServers.freshEngine(); RawRedis raw = new RawRedis()) {
            Services s = e.services();
            s.orders().create(support, "unx-1", null, Duration.ofMinutes(30));
            s.transitions().transition(support, TransitionRequest.of("unx-1", OrderStatus.PAID, "test", ""));
            s.follower().drainOnce();
            raw.cmd().hset(RedisKeys.order("unx-1"), "status", String.valueOf(OrderStatus.FINISHED.code())); // same version, no record
            ReconReport r = s.reconciliation().run(null, ReconProgress.NONE, () -> false);
            assertThat(r.findings(ReconCategory.REDIS_UNEXPLAINED)).extracting(ReconFinding::orderId).containsExactly("unx-1");
            s.reconciliation().repair(ops, r, ReconCategory.REDIS_UNEXPLAINED, "", ReconProgress.NONE, () -> false);
            assertThat(RawSql.column("SELECT detail FROM audit_log WHERE order_id = 'unx-1' AND action = 'REPAIR'")).singleElement()
                    .satisfies(d -> assertThat(d).isEqualTo("Redis state with no record: Redis restored from MySQL: was FINISHED v2, now PAID v2")
                            .doesNotContain("updateTime="));
        }
    }
}
