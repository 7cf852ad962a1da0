package com.orderconsole.ui.queue;

import com.orderconsole.domain.HistoryEntry;
import com.orderconsole.domain.Operator;
import com.orderconsole.domain.OrderStatus;
import com.orderconsole.domain.Role;
import com.orderconsole.service.order.OrderSummary;
import com.orderconsole.service.queue.QueueItem;
import com.orderconsole.service.queue.SweeperStatus;
import com.orderconsole.ui.ScriptedDialogs;
import com.orderconsole.ui.ViewModelTestBase;
import org.junit.jupiter.api.Test;

import java.time.Duration;

import static org.assertj.core.api.Assertions.assertThat;

class CancelQueueViewModelTest extends ViewModelTestBase {

    private CancelQueueViewModel queue(String name, Role role) {
        return new CancelQueueViewModel(services.queue(), services.sweeper(), new Operator(name, role), background, dialogs);
    }

    @Test
    void readsSummaryEntriesAndDepthHistory() {
        createOrder("e-1");
        createOrder("e-2");
        CancelQueueViewModel vm = queue("olga", Role.OPS);
        vm.refresh();
        vm.refresh();
        assertThat(vm.summaryProperty().get().depth()).isEqualTo(2);
        assertThat(vm.entries()).extracting(QueueItem::orderId).containsExactlyInAnyOrder("e-1", "e-2");
        assertThat(vm.entries()).noneMatch(QueueItem::stale);
        assertThat(vm.depthHistory()).hasSize(2).allMatch(s -> s.depth() == 2);
    }

    @Test
    void sweeperStateInWords() {
        long now = 1_000_000;
        assertThat(CancelQueueViewModel.sweeperText(new SweeperStatus(false, false, null, null, 0, 0), now))
                .startsWith("No sweeper has run yet");
        assertThat(CancelQueueViewModel.sweeperText(new SweeperStatus(true, false, now - 1000, "p", 0, 0), now))
                .isEqualTo("Sweeper running (this console)");
        assertThat(CancelQueueViewModel.sweeperText(new SweeperStatus(false, false, now - 120_000, "42@cli-host", 0, 0), now))
                .isEqualTo("Sweeper silent for 2 min (last: 42@cli-host)");
        assertThat(CancelQueueViewModel.sweeperText(new SweeperStatus(false, true, now - 1000, "p", 0, 0), now))
                .isEqualTo("Sweeper PAUSED");
    }

    @Test
    void extendAndRemoveChangeTheQueue() {
        createOrder("e-3");
        CancelQueueViewModel vm = queue("olga", Role.OPS);
        vm.refresh();
        long before = vm.entries().get(0).expireAtMs();

        vm.extend("e-3", Duration.ofHours(1));
        assertThat(vm.feedback().messageProperty().get()).startsWith("Order e-3 now expires at");
        assertThat(vm.entries().get(0).expireAtMs()).isEqualTo(before + 3_600_000L);

        vm.remove("e-3");
        assertThat(vm.feedback().messageProperty().get()).isEqualTo("Removed the queue entry of order e-3.");
        assertThat(vm.entries()).isEmpty();
        assertThat(services.orders().lookup("e-3").summary().redisStatus()).as("the order itself is untouched")
                .isEqualTo(OrderStatus.WAIT_PAY);
    }

    @Test
    void supportIsRefusedByTheServiceInWords() {
        createOrder("e-4");
        CancelQueueViewModel vm = queue("alice", Role.SUPPORT);
        assertThat(vm.canAct()).isFalse();
        vm.cancelNow("e-4", "no");
        assertThat(vm.feedback().errorProperty().get()).isTrue();
        assertThat(vm.feedback().messageProperty().get())
                .isEqualTo("Could not cancel order e-4: alice (support) may not cancel orders from the queue: needs role ops");
        assertThat(services.orders().lookup("e-4").summary().redisStatus()).isEqualTo(OrderStatus.WAIT_PAY);
    }

    @Test
    void cancellingAnOrderThatWasPaidIsRefusedAndItsEntryIsGone() {
        createOrder("e-5");
        CancelQueueViewModel vm = queue("olga", Role.OPS);
        vm.refresh();
        move("e-5", OrderStatus.PAID);
        vm.cancelNow("e-5", "too late");
        assertThat(vm.feedback().errorProperty().get()).isTrue();
        assertThat(vm.feedback().messageProperty().get()).startsWith("Order e-5: Not applied: not a legal move from the current status.");
        assertThat(vm.entries()).isEmpty();
    }

    @Test
    void cancellingTheSelectedEntryAsksForAReasonFirst() {
        createOrder("e-6");
        createOrder("e-7");
        CancelQueueViewModel vm = queue("olga", Role.OPS);
        vm.refresh();
        select(vm, "e-6");
        dialogs.reason("fraud check failed");
        vm.cancelSelected();

        assertThat(dialogs.asked()).singleElement().extracting(ScriptedDialogs.Question::confirmLabel).isEqualTo("Cancel order");
        assertThat(vm.feedback().messageProperty().get()).isEqualTo("Order e-6 cancelled (version 2).");
        assertThat(services.orders().lookup("e-6").summary().redisStatus()).isEqualTo(OrderStatus.CANCELLED);
        services.follower().drainOnce();
        assertThat(services.orders().lookup("e-6").history()).last().extracting(HistoryEntry::reason)
                .isEqualTo("fraud check failed");
        assertThat(vm.entries()).extracting(QueueItem::orderId).containsExactly("e-7");
    }

    @Test
    void declinedCancelAndRemoveLeaveTheOrderAndItsEntryAlone() {
        createOrder("e-8");
        CancelQueueViewModel vm = queue("olga", Role.OPS);
        vm.refresh();
        select(vm, "e-8");
        dialogs.cancel().no();
        vm.cancelSelected();
        vm.removeSelected();

        assertThat(dialogs.asked()).extracting(ScriptedDialogs.Question::kind).containsExactly("reason", "confirm");
        OrderSummary s = services.orders().lookup("e-8").summary();
        assertThat(s.redisStatus()).isEqualTo(OrderStatus.WAIT_PAY);
        assertThat(s.redisVersion()).isEqualTo(1);
        assertThat(s.mysqlStatus()).isEqualTo(OrderStatus.WAIT_PAY);
        assertThat(s.mysqlVersion()).isEqualTo(1);
        assertThat(services.queue().entries(0, 10)).extracting(QueueItem::orderId).containsExactly("e-8");
        assertThat(vm.feedback().messageProperty().get()).isEmpty();
    }

    @Test
    void aConfirmedRemoveTakesTheEntryOutAndLeavesTheOrder() {
        createOrder("e-9");
        CancelQueueViewModel vm = queue("olga", Role.OPS);
        vm.refresh();
        select(vm, "e-9");
        dialogs.yes();
        vm.removeSelected();

        assertThat(vm.feedback().messageProperty().get()).isEqualTo("Removed the queue entry of order e-9.");
        assertThat(services.queue().entries(0, 10)).isEmpty();
        assertThat(services.orders().lookup("e-9").summary().redisStatus()).isEqualTo(OrderStatus.WAIT_PAY);
    }

    private static void select(CancelQueueViewModel vm, String orderId) {
        vm.selectedProperty().set(vm.entries().stream().filter(i -> i.orderId().equals(orderId)).findFirst().orElseThrow());
    }
}
