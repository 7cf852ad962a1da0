package com.orderconsole.ui.recon;

import com.orderconsole.RawRedis;
import com.orderconsole.domain.Operator;
import com.orderconsole.domain.Role;
import com.orderconsole.redis.RedisKeys;
import com.orderconsole.service.order.OrderQuery;
import com.orderconsole.service.recon.ReconCategory;
import com.orderconsole.service.recon.ReconReport;
import com.orderconsole.ui.BothModes;
import com.orderconsole.ui.recon.ReconciliationViewModel.CategoryRow;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedClass;
import org.junit.jupiter.params.provider.EnumSource;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.function.Supplier;

import static org.assertj.core.api.Assertions.assertThat;

@ParameterizedClass(name = "{0}")
@EnumSource(BothModes.Mode.class)
class ReconciliationViewModelTest extends BothModes {

    private ReconciliationViewModel recon(String name, Role role, Supplier<OrderQuery> tableFilter) {
        Operator who = new Operator(name, role);
        return new ReconciliationViewModel(reconciliation(who), who, background, dialogs, tableFilter);
    }

    private static long count(ReconciliationViewModel vm, ReconCategory c) {
        return vm.categories().stream().filter(r -> r.category() == c).mapToLong(CategoryRow::count).findFirst().orElseThrow();
    }

    private void plantMissingInRedis(String id) {
        try (RawRedis r = new RawRedis()) {
            r.cmd().del(RedisKeys.order(id));
        }
    }

    @Test
    void findsRepairsAndExports(@TempDir Path dir) throws Exception {
        createOrder("k-1");
        createOrder("k-2");
        plantMissingInRedis("k-2");
        ReconciliationViewModel vm = recon("olga", Role.OPS, OrderQuery::all);

        vm.run();
        assertThat(count(vm, ReconCategory.MISSING_IN_REDIS)).isEqualTo(1);
        assertThat(count(vm, ReconCategory.QUEUE_ENTRY_NOT_WAIT_PAY)).as("its queue entry now has no order state").isEqualTo(1);
        assertThat(count(vm, ReconCategory.COUNTERS_DRIFT)).as("the deleted order is still counted as WAIT_PAY").isEqualTo(1);
        assertThat(vm.progressTextProperty().get()).startsWith("Checked ").endsWith(": 3 findings.");
        vm.selectedProperty().set(ReconCategory.MISSING_IN_REDIS);
        assertThat(vm.findings()).extracting(f -> f.orderId()).containsExactly("k-2");
        assertThat(vm.preview(ReconCategory.MISSING_IN_REDIS)).isEqualTo(1);

        Path csv = dir.resolve("findings.csv");
        vm.exportCsv(csv);
        List<String> lines = Files.readAllLines(csv);
        assertThat(lines.get(0)).startsWith("category,order_id");
        assertThat(lines).anyMatch(l -> l.startsWith("MISSING_IN_REDIS,k-2"));

        vm.repair(ReconCategory.MISSING_IN_REDIS);
        assertThat(vm.feedback().messageProperty().get()).isEqualTo("Missing in Redis: repaired 1 of 1.");
        assertThat(count(vm, ReconCategory.MISSING_IN_REDIS)).as("the re-run after the repair").isZero();
        assertThat(count(vm, ReconCategory.QUEUE_ENTRY_NOT_WAIT_PAY)).as("the entry belongs to a WAIT_PAY order again").isZero();
        try (RawRedis r = new RawRedis()) {
            assertThat(r.cmd().exists(RedisKeys.order("k-2"))).isEqualTo(1);
        }
    }

    @Test
    void supportMayCompareButNotRepair() {
        createOrder("k-3");
        plantMissingInRedis("k-3");
        ReconciliationViewModel vm = recon("alice", Role.SUPPORT, OrderQuery::all);
        assertThat(vm.canRepair()).isFalse();
        vm.run();
        assertThat(count(vm, ReconCategory.MISSING_IN_REDIS)).isEqualTo(1);
        vm.repair(ReconCategory.MISSING_IN_REDIS);
        assertThat(vm.feedback().errorProperty().get()).isTrue();
        assertThat(vm.feedback().messageProperty().get()).contains("alice (support) may not repair reconciliation findings");
    }

    @Test
    void comparesOnlyTheTableFilterWhenAsked() {
        createOrder("in-1");
        createOrder("out-1");
        plantMissingInRedis("in-1");
        plantMissingInRedis("out-1");
        ReconciliationViewModel vm = recon("olga", Role.OPS,
                () -> new OrderQuery(null, "in-", java.util.Set.of(), false, null, null, false, false));
        vm.useTableFilterProperty().set(true);
        vm.run();
        assertThat(count(vm, ReconCategory.MISSING_IN_REDIS)).isEqualTo(1);
        assertThat(vm.reportProperty().get().filtered()).isTrue();
        assertThat(vm.progressTextProperty().get()).contains("filtered");
    }

    @Test
    void progressLineShowsRateAndTimeLeft() {
        assertThat(ReconciliationViewModel.progressLine("MySQL vs Redis", 2_000, 10_000, 1_000))
                .isEqualTo("MySQL vs Redis: 2,000 of 10,000 records · 2,000/s · about 4 s left");
        assertThat(ReconciliationViewModel.progressLine("cancel queues", 10, 10, 500)).doesNotContain("left");
    }

    @Test
    void aRepairRunsOnlyAfterItsDryRunIsConfirmed(@TempDir Path dir) throws Exception {
        createOrder("k-4");
        plantMissingInRedis("k-4");
        ReconciliationViewModel vm = recon("olga", Role.OPS, OrderQuery::all);
        vm.run();
        vm.selectedProperty().set(ReconCategory.MISSING_IN_REDIS);

        dialogs.cancel();
        vm.repairSelected();
        assertThat(dialogs.asked()).singleElement().satisfies(q -> {
            assertThat(q.kind()).as("every repair asks why, for its audit rows").isEqualTo("reason");
            assertThat(q.statement()).startsWith("Repair: Missing in Redis" + System.lineSeparator()
                    + "Dry run: the repair would act on 1 finding.");
        });
        try (RawRedis r = new RawRedis()) {
            assertThat(r.cmd().exists(RedisKeys.order("k-4"))).as("declined: Redis untouched").isZero();
        }
        assertThat(count(vm, ReconCategory.MISSING_IN_REDIS)).isEqualTo(1);

        dialogs.reason("restore after a Redis flush");
        vm.repairSelected();
        assertThat(vm.feedback().messageProperty().get()).isEqualTo("Missing in Redis: repaired 1 of 1.");
        try (RawRedis r = new RawRedis()) {
            assertThat(r.cmd().exists(RedisKeys.order("k-4"))).isEqualTo(1);
        }

        vm.selectedProperty().set(ReconCategory.MISSING_IN_REDIS);
        vm.repairSelected();
        assertThat(dialogs.asked()).last().satisfies(q -> {
            assertThat(q.kind()).as("nothing left: only told, not asked").isEqualTo("inform");
            assertThat(q.details()).isEqualTo("Dry run: nothing to repair in \"Missing in Redis\".");
        });

        Path csv = dir.resolve("chosen.csv");
        dialogs.file(csv);
        vm.exportFindings();
        assertThat(Files.readAllLines(csv).get(0)).startsWith("category,order_id");
    }

    /** Issue 12, minor: a cancelled compare says how far it got and never that the stores agree. */
    @Test
    void aCancelledCompareEndsHonestly() {
        ReconReport cancelled = new ReconReport(zero(), java.util.Map.of(), 1200, 2000, true, false);
        assertThat(ReconciliationViewModel.summary(cancelled))
                .isEqualTo("Cancelled after checking 1,200 orders in 2 s: 0 findings so far; the rest was not compared.")
                .doesNotContain("agree");
        ReconReport done = new ReconReport(zero(), java.util.Map.of(), 3, 20, false, false);
        assertThat(ReconciliationViewModel.summary(done)).isEqualTo("Checked 3 orders in 20 ms: Redis and MySQL agree.");
    }

    /** Issue 12, minors: the repair confirmation lists the dry run per order; copying into MySQL asks for a reason. */
    @Test
    void repairConfirmationListsThePlanAndMissingInMysqlAsksForAReason() {
        createOrder("pl-1");
        createOrder("pl-2");
        plantMissingInRedis("pl-2");
        ReconciliationViewModel vm = recon("olga", Role.OPS, OrderQuery::all);
        vm.run();
        vm.selectedProperty().set(ReconCategory.MISSING_IN_REDIS);
        dialogs.cancel();
        vm.repairSelected();
        assertThat(dialogs.asked()).singleElement().satisfies(q -> {
            assertThat(q.statement()).contains("pl-2: MySQL → Redis, resulting WAIT_PAY v1");
            assertThat(q.confirmLabel()).isEqualTo("Repair 1 finding");
        });
    }

    private static java.util.Map<ReconCategory, Long> zero() {
        java.util.Map<ReconCategory, Long> m = new java.util.EnumMap<>(ReconCategory.class);
        for (ReconCategory c : ReconCategory.values()) {
            m.put(c, 0L);
        }
        return m;
    }
}
