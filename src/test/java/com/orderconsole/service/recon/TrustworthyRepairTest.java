package com.orderconsole.service.recon;

import com.orderconsole.FreshEngine;
import com.orderconsole.RawRedis;
import com.orderconsole.RawSql;
import com.orderconsole.domain.HistoryEntry;
import com.orderconsole.domain.Operator;
import com.orderconsole.domain.OrderStatus;
import com.orderconsole.domain.Role;
import com.orderconsole.domain.TransitionRequest;
import com.orderconsole.redis.RedisKeys;
import com.orderconsole.app.Services;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import java.time.Duration;
import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** Issue 10.3 and 10.4: every change is recorded with who and why, and a repair never invents a state. */
class TrustworthyRepairTest {
    @RegisterExtension
    final FreshEngine engine = new FreshEngine();
    private final Operator support = new Operator("alice", Role.SUPPORT);
    private final Operator ops = new Operator("olga", Role.OPS);
    private final Operator admin = new Operator("root-admin", Role.ADMIN);

    private void finish(Services s, String id) {
        s.orders().create(support, id, null, Duration.ofMinutes(30));
        for (OrderStatus to : List.of(OrderStatus.PAID, OrderStatus.WAIT_SHIP, OrderStatus.SHIPPED, OrderStatus.FINISHED)) {
            assertThat(s.transitions().transition(support, TransitionRequest.of(id, to, "t", "")).applied()).isTrue();
        }
    }

    private ReconReport compare(Services s) {
        return s.reconciliation().run(null, ReconProgress.NONE, () -> false);
    }

    /**
     * What the first repairs leave (counters a hand-planted state never moved; a copied WAIT_PAY order
     * without its queue entry) is found and repaired by the next compare, as an operator would do it.
     */
    private void recountAndExpectAgreement(Services s) {
        ReconReport r = compare(s);
        for (ReconCategory c : ReconCategory.values()) {
            if (c != ReconCategory.MISSING_IN_MYSQL) {
                s.reconciliation().repair(ops, r, c, ReconProgress.NONE, () -> false);
            }
        }
        assertThat(compare(s).total()).isZero();
    }

    @Test
    void aRedisStateNoTransitionExplainsIsRestoredFromMySqlNeverCopiedIntoIt() {
        Services s = engine.services();
        finish(s, "fin-1");
        s.follower().drainOnce();
        long historyRows = RawSql.count("SELECT COUNT(*) FROM order_history WHERE order_id = 'fin-1'");
        try (RawRedis raw = new RawRedis()) {
            raw.cmd().hset(RedisKeys.order("fin-1"), Map.of("status", "2", "version", "9"));
        }
        ReconReport r = compare(s);
        assertThat(r.findings(ReconCategory.STATE_MISMATCH)).isEmpty();
        assertThat(r.findings(ReconCategory.REDIS_UNEXPLAINED)).singleElement().satisfies(f -> {
            assertThat(f.orderId()).isEqualTo("fin-1");
            assertThat(f.detail()).contains("Redis ahead by 4 versions that no recorded transition explains");
        });
        assertThat(s.reconciliation().plan(r, ReconCategory.REDIS_UNEXPLAINED)).singleElement().satisfies(p -> {
            assertThat(p.direction()).isEqualTo("MySQL → Redis");
            assertThat(p.resulting()).isEqualTo("FINISHED v5");
        });
        s.reconciliation().repair(ops, r, ReconCategory.REDIS_UNEXPLAINED, "customer's order shows PAID again", ReconProgress.NONE, () -> false);
        assertThat(s.orders().lookup("fin-1").summary().redisStatus()).isEqualTo(OrderStatus.FINISHED);
        assertThat(s.orders().lookup("fin-1").legalTargets()).isEmpty();
        assertThat(RawSql.count("SELECT status FROM orders WHERE order_id = 'fin-1'")).as("MySQL untouched").isEqualTo(5);
        assertThat(RawSql.count("SELECT version FROM orders WHERE order_id = 'fin-1'")).isEqualTo(5);
        assertThat(RawSql.count("SELECT COUNT(*) FROM order_history WHERE order_id = 'fin-1'")).isEqualTo(historyRows);
        assertThat(RawSql.count("SELECT COUNT(*) FROM audit_log WHERE order_id = 'fin-1' AND action = 'REPAIR' AND actor = 'olga' "
                + "AND reason = 'customer''s order shows PAID again' AND detail LIKE '%was PAID v%, now FINISHED v5%'")).isEqualTo(1);
        recountAndExpectAgreement(s);
    }

    @Test
    void eachKindOfDisagreementIsRepairedTowardsTheDurableRecordAndAudited() {
        Services s = engine.services();
        finish(s, "behind-1");
        s.orders().create(support, "gone-1", null, Duration.ofMinutes(30));
        s.orders().create(support, "unq-1", null, Duration.ofMinutes(30));
        s.orders().create(support, "paid-1", null, Duration.ofMinutes(30));
        s.transitions().transition(support, TransitionRequest.of("paid-1", OrderStatus.PAID, "t", ""));
        s.follower().drainOnce();
        try (RawRedis raw = new RawRedis()) {
            raw.cmd().hset(RedisKeys.order("behind-1"), Map.of("status", "2", "version", "2")); // an older copy
            raw.cmd().del(RedisKeys.order("gone-1"));
            raw.cmd().zrem(RedisKeys.cancelQueue(RedisKeys.bucket("unq-1")), "unq-1");
            raw.cmd().zadd(RedisKeys.cancelQueue(RedisKeys.bucket("paid-1")), 1, "paid-1");
            raw.cmd().hset(RedisKeys.order("ghost-1"), Map.of("status", "1", "version", "1", "updateTime", "1", "createTime", "1"));
        }
        ReconReport r = compare(s);
        assertThat(r.findings(ReconCategory.STATE_MISMATCH)).extracting(ReconFinding::orderId).containsExactly("behind-1");
        assertThat(r.findings(ReconCategory.MISSING_IN_REDIS)).extracting(ReconFinding::orderId).containsExactly("gone-1");
        assertThat(r.findings(ReconCategory.WAIT_PAY_WITHOUT_QUEUE)).extracting(ReconFinding::orderId).containsExactly("unq-1");
        assertThat(r.findings(ReconCategory.QUEUE_ENTRY_NOT_WAIT_PAY)).extracting(ReconFinding::orderId)
                .as("the deleted order left its queue entry behind").containsExactlyInAnyOrder("gone-1", "paid-1");
        assertThat(r.findings(ReconCategory.MISSING_IN_MYSQL)).extracting(ReconFinding::orderId).containsExactly("ghost-1");

        for (ReconCategory c : List.of(ReconCategory.STATE_MISMATCH, ReconCategory.MISSING_IN_REDIS,
                ReconCategory.WAIT_PAY_WITHOUT_QUEUE, ReconCategory.QUEUE_ENTRY_NOT_WAIT_PAY)) {
            assertThat(s.reconciliation().repair(ops, r, c, ReconProgress.NONE, () -> false).failed()).isZero();
        }
        assertThat(s.orders().lookup("behind-1").summary().redisStatus()).isEqualTo(OrderStatus.FINISHED);
        // A Redis-only order has no recorded transition: copying it into MySQL is an admin override with a reason.
        assertThatThrownBy(() -> s.reconciliation().repair(ops, r, ReconCategory.MISSING_IN_MYSQL, "x", ReconProgress.NONE, () -> false))
                .hasMessageContaining("needs role admin");
        assertThatThrownBy(() -> s.reconciliation().repair(admin, r, ReconCategory.MISSING_IN_MYSQL, " ", ReconProgress.NONE, () -> false))
                .hasMessageContaining("needs a reason");
        s.reconciliation().repair(admin, r, ReconCategory.MISSING_IN_MYSQL, "order placed during the MySQL outage",
                ReconProgress.NONE, () -> false);
        List<HistoryEntry> ghost = s.orders().lookup("ghost-1").history();
        assertThat(ghost).singleElement().satisfies(h -> {
            assertThat(h.source()).isEqualTo("repair");
            assertThat(h.actor()).isEqualTo("root-admin");
            assertThat(h.reason()).contains("order placed during the MySQL outage");
        });
        assertThat(RawSql.column("SELECT CONCAT(order_id, ': ', detail) FROM audit_log WHERE action = 'REPAIR'")).hasSize(5);
        recountAndExpectAgreement(s);
    }

    @Test
    void namesAndReasonsKeepEveryCharacter() {
        Services s = engine.services();
        List<String> names = List.of("José", "Zoë Ålund", "张伟", "Ana 🚀");
        int i = 0;
        for (String name : names) {
            String id = "u-" + i++;
            Operator op = new Operator(name, Role.OPS);
            s.orders().create(op, id, null, Duration.ofMinutes(30));
            s.queue().extend(op, id, Duration.ofMinutes(5), "cli", "Kunde bat um Aufschub — 顾客要求");
            s.transitions().transition(op, TransitionRequest.of(id, OrderStatus.PAID, "t", "paid ✓ by " + name));
        }
        s.follower().drainOnce();
        i = 0;
        for (String name : names) {
            String id = "u-" + i++;
            List<HistoryEntry> h = s.orders().lookup(id).history();
            assertThat(h).extracting(HistoryEntry::actor).containsOnly(name);
            assertThat(h.get(1).reason()).isEqualTo("paid ✓ by " + name);
        }
        assertThat(RawSql.count("SELECT COUNT(*) FROM audit_log WHERE action = 'QUEUE_EXTEND' AND actor = '张伟' "
                + "AND reason = 'Kunde bat um Aufschub — 顾客要求'")).isEqualTo(1);
    }
}
