package com.orderconsole.service.recon;

import com.orderconsole.RawRedis;
import com.orderconsole.RawSql;
import com.orderconsole.TestServers;
import com.orderconsole.app.Engine;
import com.orderconsole.app.Services;
import com.orderconsole.domain.Operator;
import com.orderconsole.domain.Role;
import com.orderconsole.redis.RedisKeys;
import com.orderconsole.service.order.OrderDetails;
import org.junit.jupiter.api.Test;

import java.time.Duration;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * An operator removes an unpaid order's cancel-queue entry on purpose ("customer paid by bank transfer"): not drift.
 * Reconciliation lists it as removed on purpose, naming its audit row, never as an entry to put back; its repair
 * changes nothing; this holds after a restart (the record is MySQL's); the order's details say it will not be cancelled
 * for non-payment; an extension queues it again on purpose. An entry lost without a record is still drift.
 */
class DeliberateQueueRemovalTest {
    private final Operator support = new Operator("alice", Role.SUPPORT);
    private final Operator ops = new Operator("olga", Role.OPS);

    @Test
    void aDeliberateRemovalIsNoFindingToRequeueAndIsNeverPutBack() {
        TestServers.reset();
        try (RawRedis raw = new RawRedis()) {
            try (Engine e = Engine.start(TestServers.config())) {
                Services s = e.services();
                s.orders().create(support, "bank-1", null, Duration.ofMinutes(30));
                s.orders().create(support, "lost-1", null, Duration.ofMinutes(30));
                assertThat(s.queue().remove(ops, "bank-1", "console", "customer paid by bank transfer")).isTrue();
                raw.cmd().zrem(RedisKeys.cancelQueue(RedisKeys.bucket("lost-1")), "lost-1"); // drift: no record

                ReconReport r = s.reconciliation().run(null, ReconProgress.NONE, () -> false);
                assertThat(r.findings(ReconCategory.WAIT_PAY_WITHOUT_QUEUE)).extracting(ReconFinding::orderId).containsExactly("lost-1");
                long auditId = RawSql.count("SELECT id FROM audit_log WHERE order_id = 'bank-1' AND action = 'QUEUE_REMOVE'");
                assertThat(r.findings(ReconCategory.QUEUE_REMOVED_ON_PURPOSE)).singleElement().satisfies(f -> {
                    assertThat(f.orderId()).isEqualTo("bank-1");
                    assertThat(f.detail()).startsWith("removed from the cancel queue on purpose by olga at ")
                            .endsWith("(audit row " + auditId + "): customer paid by bank transfer");
                });
                assertThat(r.total()).as("what was done on purpose is no disagreement: %s", r.counts()).isEqualTo(1);
                assertThat(s.reconciliation().preview(r, ReconCategory.QUEUE_REMOVED_ON_PURPOSE)).isZero();

                for (ReconCategory c : ReconCategory.values()) {
                    if (c != ReconCategory.MISSING_IN_MYSQL) {
                        s.reconciliation().repair(ops, r, c, "", ReconProgress.NONE, () -> false);
                    }
                }
                assertThat(s.queue().find("lost-1")).as("drift is repaired").isPresent();
                assertThat(s.queue().find("bank-1")).as("a deliberate removal is never put back").isEmpty();

                OrderDetails d = s.orders().lookup("bank-1");
                assertThat(d.queueExpiryMs()).isNull();
                assertThat(d.queueRemoval()).isNotNull();
                assertThat(d.queueRemoval().actor()).isEqualTo("olga");
                assertThat(d.queueRemoval().reason()).isEqualTo("customer paid by bank transfer");
                assertThat(d.queueRemoval().auditId()).isEqualTo(auditId);
                assertThat(s.orders().lookup("lost-1").queueRemoval()).isNull();

                // Redis loses the order's state: rebuilt from MySQL, still without an entry.
                s.follower().drainOnce();
                raw.cmd().del(RedisKeys.order("bank-1"));
                assertThat(s.orders().rebuildAndLookup("bank-1").rebuilt()).isTrue();
                assertThat(s.queue().find("bank-1")).as("a rebuild does not queue it either").isEmpty();
            }
            try (Engine again = Engine.start(TestServers.config())) { // a restart: the record is MySQL's, not this process'
                Services s = again.services();
                ReconReport r = s.reconciliation().run(null, ReconProgress.NONE, () -> false);
                assertThat(r.counts()).containsEntry(ReconCategory.WAIT_PAY_WITHOUT_QUEUE, 0L)
                        .containsEntry(ReconCategory.QUEUE_REMOVED_ON_PURPOSE, 1L);

                s.queue().extend(ops, "bank-1", Duration.ofHours(1), "console", "customer asked to pay by card after all");
                ReconReport after = s.reconciliation().run(null, ReconProgress.NONE, () -> false);
                assertThat(after.counts()).as("queued again on purpose: nothing to say")
                        .containsEntry(ReconCategory.QUEUE_REMOVED_ON_PURPOSE, 0L).containsEntry(ReconCategory.WAIT_PAY_WITHOUT_QUEUE, 0L);
                assertThat(s.orders().lookup("bank-1").queueRemoval()).isNull();
            }
        }
    }

    @Test
    void aReportTakenBeforeTheRemovalDoesNotPutTheEntryBack() {
        try (Engine e = TestServers.freshEngine(); RawRedis raw = new RawRedis()) {
            Services s = e.services();
            s.orders().create(support, "late-1", null, Duration.ofMinutes(30));
            // Drift found first; then an operator puts the entry back by hand and removes it on purpose.
            raw.cmd().zrem(RedisKeys.cancelQueue(RedisKeys.bucket("late-1")), "late-1");
            ReconReport r = s.reconciliation().run(null, ReconProgress.NONE, () -> false);
            assertThat(r.findings(ReconCategory.WAIT_PAY_WITHOUT_QUEUE)).extracting(ReconFinding::orderId).containsExactly("late-1");
            s.queue().extend(ops, "late-1", Duration.ofMinutes(5), "console", "queued again");
            s.queue().remove(ops, "late-1", "console", "customer paid by bank transfer");

            s.reconciliation().repair(ops, r, ReconCategory.WAIT_PAY_WITHOUT_QUEUE, "", ReconProgress.NONE, () -> false);
            assertThat(s.queue().find("late-1")).as("the repair re-reads the record first").isEmpty();
        }
    }
}
