package com.orderconsole.service.recon;

import com.orderconsole.PlantedDrift;
import com.orderconsole.RawRedis;
import com.orderconsole.TestServers;
import com.orderconsole.app.Engine;
import com.orderconsole.domain.Operator;
import com.orderconsole.domain.OrderStatus;
import com.orderconsole.domain.PermissionDeniedException;
import com.orderconsole.domain.Role;
import com.orderconsole.service.Services;
import com.orderconsole.service.queue.QueueItem;
import org.junit.jupiter.api.Test;

import java.io.StringWriter;
import java.time.Duration;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class ReconciliationTest {
    private final Operator support = new Operator("alice", Role.SUPPORT);
    private final Operator ops = new Operator("olga", Role.OPS);

    @Test
    void findsEachPlantedDisagreementAndRepairsIt() {
        try (Engine e = TestServers.freshEngine(); RawRedis raw = new RawRedis()) {
            Services s = e.services();
            for (int i = 0; i < 40; i++) {
                s.orders().create(support, "ok-" + i, null, Duration.ofMinutes(30));
            }
            PlantedDrift.plant(s, raw, support);

            ReconReport r = s.reconciliation().run(null, ReconProgress.NONE, () -> false);
            assertThat(r.counts()).containsEntry(ReconCategory.MISSING_IN_REDIS, 1L)
                    .containsEntry(ReconCategory.MISSING_IN_MYSQL, 1L)
                    .containsEntry(ReconCategory.WAIT_PAY_WITHOUT_QUEUE, 1L)
                    .containsEntry(ReconCategory.QUEUE_ENTRY_NOT_WAIT_PAY, 2L)
                    .containsEntry(ReconCategory.SYNC_PENDING, 1L)
                    .containsEntry(ReconCategory.STATE_MISMATCH, 2L);
            // p-redis lost its hash but kept its queue entry: that entry is reported too, and repairing
            // MISSING_IN_REDIS first makes it valid again, so the queue repair leaves it alone.
            assertThat(r.findings(ReconCategory.QUEUE_ENTRY_NOT_WAIT_PAY)).extracting(ReconFinding::orderId)
                    .containsExactlyInAnyOrder("p-redis", "p-stale");
            // p-pending only waits in the outbox: lag, not a disagreement (issue 10.5); SYNC_PENDING counts it.
            assertThat(r.findings(ReconCategory.STATE_MISMATCH)).extracting(ReconFinding::orderId)
                    .containsExactlyInAnyOrder("p-ahead", "p-mysql-ahead");
            assertThat(r.findings(ReconCategory.STATE_MISMATCH)).filteredOn(f -> f.orderId().equals("p-mysql-ahead"))
                    .extracting(ReconFinding::detail).containsExactly("MySQL ahead by 1 version");
            assertThat(s.reconciliation().preview(r, ReconCategory.MISSING_IN_REDIS)).isEqualTo(1);
            assertThat(r.ordersCompared()).as("46 MySQL rows plus one order only Redis has").isEqualTo(47);

            StringWriter csv = new StringWriter();
            s.reconciliation().exportCsv(r, csv);
            assertThat(csv.toString()).startsWith("category,order_id,mysql_status").contains("MISSING_IN_MYSQL,x-redis-only")
                    .as("a side without the order leaves status and version empty").contains("MISSING_IN_MYSQL,x-redis-only,,,PAID,2,");

            assertThatThrownBy(() -> s.reconciliation().repair(support, r, ReconCategory.MISSING_IN_REDIS, ReconProgress.NONE, () -> false))
                    .isInstanceOf(PermissionDeniedException.class);
            for (ReconCategory c : ReconCategory.values()) {
                // A Redis-only order has no recorded transition: copying it into MySQL is an admin override (issue 10.4).
                Operator who = c == ReconCategory.MISSING_IN_MYSQL ? new Operator("root-admin", Role.ADMIN) : ops;
                RepairResult rr = s.reconciliation().repair(who, r, c, "planted by the test", ReconProgress.NONE, () -> false);
                assertThat(rr.failed()).as("%s: %s", c, rr.errors()).isZero();
            }
            ReconReport after = s.reconciliation().run(null, ReconProgress.NONE, () -> false);
            assertThat(after.total()).as("%s", after.counts()).isZero();
            assertThat(s.orders().lookup("p-mysql-ahead").summary().redisStatus()).isEqualTo(OrderStatus.CANCELLED);
            assertThat(s.orders().lookup("p-ahead").summary().mysqlStatus()).isEqualTo(OrderStatus.PAID);
            assertThat(s.monitor().stateCounts().live().get(OrderStatus.CANCELLED)).isEqualTo(1);
            assertThat(s.queue().page(null, 100).items()).extracting(QueueItem::orderId).contains("p-redis", "p-noqueue")
                    .doesNotContain("p-stale");
        }
    }

    @Test
    void cancelStopsEarlyAndSaysSo() {
        try (Engine e = TestServers.freshEngine()) {
            for (int i = 0; i < 30; i++) {
                e.services().orders().create(support, "c-" + i, null, Duration.ofMinutes(30));
            }
            ReconReport r = e.services().reconciliation().run(null, ReconProgress.NONE, () -> true);
            assertThat(r.cancelled()).isTrue();
        }
    }
}
