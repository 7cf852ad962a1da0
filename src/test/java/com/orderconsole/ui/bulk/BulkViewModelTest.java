package com.orderconsole.ui.bulk;

import com.orderconsole.app.Messages;
import com.orderconsole.domain.Environment;
import com.orderconsole.domain.Operator;
import com.orderconsole.domain.OrderStatus;
import com.orderconsole.domain.Role;
import com.orderconsole.service.bulk.BulkBatch;
import com.orderconsole.service.bulk.BulkItem;
import com.orderconsole.service.bulk.TargetCount;
import com.orderconsole.service.order.OrderQuery;
import com.orderconsole.ui.BothModes;
import com.orderconsole.ui.main.MainViewModel;
import com.orderconsole.ui.main.Page;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedClass;
import org.junit.jupiter.params.provider.EnumSource;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Locale;
import java.util.Set;

import static org.assertj.core.api.Assertions.assertThat;

/** The Bulk moves page's model on real embedded servers: choose, preview, confirm, move, results, batches, export. */
@ParameterizedClass(name = "{0}")
@EnumSource(BothModes.Mode.class)
class BulkViewModelTest extends BothModes {

    @BeforeEach
    void english() {
        Messages.use(Locale.ENGLISH);
    }

    private BulkViewModel vm(Role role) {
        Operator olga = new Operator("olga", role);
        return new BulkViewModel(bulk(olga), olga, background, dialogs,
                () -> new OrderQuery(null, null, Set.of(OrderStatus.PAID), false, null, null, false, false));
    }

    @Test
    void previewConfirmMoveThenResultsAndBatchesAreShown(@TempDir Path dir) throws Exception {
        for (String id : List.of("m-1", "m-2", "m-3")) {
            createOrder(id);
            move(id, OrderStatus.PAID);
        }
        createOrder("m-4");
        services.follower().catchUp(java.time.Duration.ofSeconds(30)); // the filter reads MySQL's status
        BulkViewModel vm = vm(Role.SUPPORT);
        assertThat(vm.previewCommand().executableProperty().get()).isFalse();
        vm.useTableFilter();
        assertThat(vm.scopeTextProperty().get()).isEqualTo("Orders: all matching the order table's filter (status PAID)");
        vm.targetProperty().set(OrderStatus.WAIT_SHIP);
        vm.preview();
        assertThat(vm.previewTextProperty().get()).startsWith("3 orders match. To WAIT_SHIP: 3 would move, 0 would be rejected");
        assertThat(vm.perTarget()).contains(new TargetCount(OrderStatus.WAIT_SHIP, 3, 0), new TargetCount(OrderStatus.CANCELLED, 0, 3));

        // Without a reason "Move…" is not offered (issue 34: it was enabled and did nothing); nothing is asked or moved.
        assertThat(vm.applyCommand().executableProperty().get()).isFalse();
        vm.reasonProperty().set("   ");
        assertThat(vm.applyCommand().executableProperty().get()).as("blank is no reason").isFalse();
        vm.apply();
        assertThat(vm.feedback().messageProperty().get()).contains("needs a reason");
        assertThat(dialogs.asked()).isEmpty();

        vm.reasonProperty().set("carrier back");
        assertThat(vm.applyCommand().executableProperty().get()).isTrue();
        dialogs.no();
        vm.apply();
        assertThat(dialogs.asked().get(0).statement()).isEqualTo("Move 3 orders to WAIT_SHIP?");
        assertThat(dialogs.asked().get(0).confirmLabel()).isEqualTo("Move 3 orders");
        assertThat(services.bulk().batches(null, 10)).as("declined: nothing recorded").isEmpty();

        dialogs.yes();
        vm.apply();
        BulkBatch b = vm.record().shownBatchProperty().get();
        assertThat(b.state()).isEqualTo(BulkBatch.State.DONE);
        assertThat(vm.progressTextProperty().get()).isEqualTo("Batch #" + b.id() + " done: 3 applied, 0 rejected, 0 conflicts "
                + "(moved since the preview, left as they were), 0 failed, 0 not run.");
        assertThat(vm.record().results()).extracting(BulkItem::orderId).containsExactly("m-1", "m-2", "m-3");
        assertThat(vm.record().batches()).extracting(BulkBatch::id).containsExactly(b.id());
        assertThat(vm.previewProperty().get()).as("the seen versions are spent").isNull();
        assertThat(services.orders().lookup("m-2").summary().redisStatus()).isEqualTo(OrderStatus.WAIT_SHIP);

        // Selection survives a refresh of the batch list.
        vm.record().selectedBatchProperty().set(vm.record().batches().get(0));
        vm.refresh();
        assertThat(vm.record().selectedBatchProperty().get()).isNotNull();

        vm.record().outcomeFilterProperty().set(BulkItem.Outcome.CONFLICT);
        assertThat(vm.record().results()).isEmpty();
        vm.record().outcomeFilterProperty().set(null);

        Path csv = dir.resolve("b.csv");
        dialogs.file(csv);
        vm.record().exportCsv();
        assertThat(Files.readAllLines(csv)).hasSize(4).anyMatch(l -> l.contains("m-3,APPLIED"));
        assertThat(vm.feedback().messageProperty().get()).isEqualTo("Exported 3 results to " + csv + ".");
    }

    @Test
    void aSelectionFromTheOrderTableOpensThePageAndAProductionProfileAsksToTypeTheCount() {
        createOrder("s-1");
        createOrder("s-2");
        MainViewModel main = new MainViewModel(as("ada", Role.ADMIN));
        main.orders().selectedIds().setAll("s-1", "s-2");
        main.orders().bulkMove();
        assertThat(main.pageProperty().get()).isEqualTo(Page.BULK);
        BulkViewModel vm = main.bulk();
        assertThat(vm.scopeTextProperty().get()).isEqualTo("Orders: the 2 selected in the order table");

        dialogs.on(Environment.external("prod-eu"));
        vm.targetProperty().set(OrderStatus.CANCELLED);
        vm.preview();
        vm.reasonProperty().set("duplicate orders");
        dialogs.yes();
        vm.apply();
        assertThat(dialogs.asked().get(0).kind()).isEqualTo("typed");
        assertThat(dialogs.asked().get(0).details()).as("the phrase to type is the count").isEqualTo("2");
        assertThat(services.orders().lookup("s-1").summary().redisStatus()).isEqualTo(OrderStatus.CANCELLED);
    }

    @Test
    void overTheCapTheUserIsToldAndNothingIsPreviewed() {
        org.junit.jupiter.api.Assumptions.assumeFalse(viaServe(), "the cap is serve's own (its engine's), not this console's");
        createOrder("c-1");
        createOrder("c-2");
        BulkViewModel vm = new BulkViewModel(services.bulk().withMaxOrders(1), new Operator("olga", Role.SUPPORT), background, dialogs,
                OrderQuery::all);
        vm.useTableFilter();
        vm.targetProperty().set(OrderStatus.PAID);
        vm.preview();
        assertThat(vm.previewProperty().get()).isNull();
        assertThat(vm.feedback().errorProperty().get()).isTrue();
        assertThat(vm.feedback().messageProperty().get()).contains("more than 1, the most one batch may move");
    }

    @Test
    void aReadOnlyUserMayPreviewButNotMove() {
        createOrder("r-1");
        BulkViewModel vm = vm(Role.READ_ONLY);
        assertThat(vm.canApply()).isFalse();
        assertThat(vm.canOverride()).isFalse();
        vm.useSelection(List.of("r-1"));
        vm.targetProperty().set(OrderStatus.PAID);
        vm.preview();
        assertThat(vm.previewProperty().get().wouldApply()).isEqualTo(1);
        vm.reasonProperty().set("try");
        vm.apply();
        assertThat(vm.feedback().messageProperty().get()).contains("run a bulk transition");
        assertThat(dialogs.asked()).isEmpty();
    }

    @Test
    void anOpsUserClosesAnAbandonedBatchFromTheResultsAfterConfirming() {
        createOrder("a-1");
        createOrder("a-2");
        BulkViewModel support = vm(Role.SUPPORT);
        support.useSelection(List.of("a-1", "a-2"));
        support.targetProperty().set(OrderStatus.PAID);
        support.preview();
        support.reasonProperty().set("paid offline");
        dialogs.yes();
        support.apply();
        long id = support.record().shownBatchProperty().get().id();
        // Its process died before the second order was recorded.
        com.orderconsole.RawSql.update("DELETE FROM bulk_item WHERE order_id = 'a-2'");
        com.orderconsole.RawSql.update("UPDATE bulk_batch SET state = 'RUNNING', finished_at_ms = NULL, applied = 1, heartbeat_ms = 1");

        support.record().selectedBatchProperty().set(services.bulk().batch(id));
        assertThat(BulkViewModel.stateText(support.record().shownBatchProperty().get().state())).isEqualTo("abandoned (its process stopped)");
        assertThat(support.record().closeCommand().executableProperty().get()).as("closing needs ops").isFalse();

        BulkViewModel ops = vm(Role.OPS);
        ops.record().selectedBatchProperty().set(services.bulk().batch(id));
        assertThat(ops.record().closeCommand().executableProperty().get()).isTrue();
        dialogs.yes();
        ops.record().closeAbandoned();
        assertThat(dialogs.asked().get(dialogs.asked().size() - 1).statement()).isEqualTo("Close abandoned batch #" + id + "?");
        BulkBatch closed = ops.record().shownBatchProperty().get();
        assertThat(closed.state()).isEqualTo(BulkBatch.State.ABANDONED);
        assertThat(closed.finishedAtMs()).isNotNull();
        assertThat(closed.counts().applied()).as("a-2's move is in its history").isEqualTo(2);
        assertThat(ops.record().closeCommand().executableProperty().get()).isFalse();
        assertThat(ops.feedback().messageProperty().get()).isEqualTo("Batch #" + id + " closed; every order it set out to move now has a result.");
    }
}
