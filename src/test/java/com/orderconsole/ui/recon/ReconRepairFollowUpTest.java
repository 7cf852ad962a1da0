package com.orderconsole.ui.recon;

import com.orderconsole.RawRedis;
import com.orderconsole.domain.Operator;
import com.orderconsole.domain.Role;
import com.orderconsole.redis.RedisKeys;
import com.orderconsole.service.audit.AuditEvent;
import com.orderconsole.service.audit.AuditFilter;
import com.orderconsole.service.order.OrderQuery;
import com.orderconsole.service.recon.ReconCategory;
import com.orderconsole.ui.ViewModelTestBase;
import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * What follows a comparison and a repair on the reconciliation page, on real stores: the findings are listed as the
 * run ends, a repair's audit rows carry the reason typed, and restoring a Redis state no transition explains leaves
 * the live counters right.
 */
class ReconRepairFollowUpTest extends ViewModelTestBase {

    private ReconciliationViewModel recon() {
        return new ReconciliationViewModel(services.reconciliation(), new Operator("olga", Role.ADMIN), background, dialogs, OrderQuery::all);
    }

    /** Planted as PlantedDrift does: behind the scripts' back, Redis holds PAID v3 that MySQL's history never had. */
    private void plantUnexplained(String id) {
        createOrder(id);
        services.follower().drainOnce();
        try (RawRedis raw = new RawRedis()) {
            raw.cmd().hset(RedisKeys.order(id), Map.of("status", "2", "version", "3"));
        }
    }

    @Test
    void theFindingsAreListedWhenTheRunEndsWithoutAClick() {
        plantUnexplained("ff-1");
        ReconciliationViewModel vm = recon();
        assertThat(vm.selectedProperty().get()).isNull();
        vm.run();
        assertThat(vm.reportProperty().get().total()).isPositive();
        assertThat(vm.selectedProperty().get()).as("a category with findings is chosen").isNotNull();
        assertThat(vm.findings()).as("the list beside \"N findings\" is not blank").isNotEmpty();
    }

    @Test
    void aRedisStateWithNoRecordRepairLeavesNoCounterFindingOfItsOwn() {
        plantUnexplained("ff-3");
        ReconciliationViewModel vm = recon();
        vm.run();
        assertThat(vm.reportProperty().get().findings(ReconCategory.REDIS_UNEXPLAINED)).extracting(f -> f.orderId()).containsExactly("ff-3");
        vm.repair(ReconCategory.REDIS_UNEXPLAINED, "restore from MySQL");
        assertThat(vm.reportProperty().get().counts()).as("the run after the repair").allSatisfy((c, n) -> assertThat(n).as(c.name()).isZero());
    }

    @Test
    void aRedisStateWithNoRecordRepairLeavesNothingBehindAndItsAuditRowsCarryTheReason() {
        plantUnexplained("ff-2");
        ReconciliationViewModel vm = recon();
        vm.run();
        assertThat(vm.reportProperty().get().findings(ReconCategory.REDIS_UNEXPLAINED)).extracting(f -> f.orderId()).containsExactly("ff-2");

        vm.selectedProperty().set(ReconCategory.REDIS_UNEXPLAINED);
        dialogs.reason("raw HSET by a test script, ticket 77");
        vm.repairSelected();
        assertThat(dialogs.asked()).last().satisfies(q -> assertThat(q.kind()).isEqualTo("reason"));
        assertThat(vm.feedback().messageProperty().get()).startsWith("Redis state with no record: repaired 1 of 1.");

        assertThat(vm.reportProperty().get().counts()).as("the run after the repair").allSatisfy((c, n) -> assertThat(n).as(c.name()).isZero());
        assertThat(vm.reportProperty().get().total()).isZero();

        List<AuditEvent> repairs = services.audit().page(new AuditFilter(null, "reconciliation", null, null, null, null, null), null, 50)
                .rows();
        assertThat(repairs).isNotEmpty().allSatisfy(e -> assertThat(e.reason()).isEqualTo("raw HSET by a test script, ticket 77"));
        assertThat(repairs).anySatisfy(e -> assertThat(e.orderId()).isEqualTo("ff-2"));
    }
}
