package com.orderconsole.ui.order;

import com.orderconsole.domain.Operator;
import com.orderconsole.domain.OrderStatus;
import com.orderconsole.domain.Role;
import com.orderconsole.service.order.OrderDetails;
import com.orderconsole.service.order.OrderSummary;
import com.orderconsole.ui.HeldBackground;
import com.orderconsole.ui.ScriptedDialogs;
import com.orderconsole.ui.ViewModelTestBase;
import com.orderconsole.TestServers;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

class OrderDetailViewModelTest extends ViewModelTestBase {

    private OrderDetailViewModel detail(String name, Role role) {
        return new OrderDetailViewModel(pages(role).orders(), pages(role).transitions(), new Operator(name, role), background, dialogs);
    }

    @Test
    void loadsTheOrderWithItsLegalMoves() {
        createOrder("m-1");
        OrderDetailViewModel vm = detail("alice", Role.SUPPORT);
        vm.load("m-1");
        assertThat(vm.summary().orderId()).isEqualTo("m-1");
        assertThat(vm.legalTargets()).containsExactly(OrderStatus.PAID, OrderStatus.CANCELLED);
        assertThat(vm.overrideTargets()).doesNotContain(OrderStatus.WAIT_PAY);
        assertThat(vm.history()).hasSize(1);
        assertThat(vm.canMove()).isTrue();
        assertThat(vm.canOverride()).isFalse();
    }

    @Test
    void moveAppliesAndReloads() {
        createOrder("m-2");
        OrderDetailViewModel vm = detail("alice", Role.SUPPORT);
        vm.load("m-2");
        vm.move(OrderStatus.PAID, "paid at the counter");
        assertThat(vm.feedback().messageProperty().get()).isEqualTo("Applied: WAIT_PAY → PAID, now version 2.");
        assertThat(vm.feedback().errorProperty().get()).isFalse();
        assertThat(vm.summary().redisStatus()).isEqualTo(OrderStatus.PAID);
        assertThat(vm.summary().mysqlStatus()).as("MySQL brought up to date after the move").isEqualTo(OrderStatus.PAID);
        assertThat(vm.history()).hasSize(2);
        assertThat(vm.legalTargets()).containsExactly(OrderStatus.WAIT_SHIP);
    }

    @Test
    void overrideIsRefusedForSupportByTheServiceInWords() {
        createOrder("m-3");
        OrderDetailViewModel vm = detail("alice", Role.SUPPORT);
        vm.load("m-3");
        vm.override(OrderStatus.SHIPPED, "skip ahead");
        assertThat(vm.feedback().errorProperty().get()).isTrue();
        assertThat(vm.feedback().messageProperty().get())
                .isEqualTo("Could not override the order status: " + actorOf("alice", Role.SUPPORT)
                        + " (support) may not override the transition rules: needs role admin");
        assertThat(services.orders().lookup("m-3").summary().redisStatus()).isEqualTo(OrderStatus.WAIT_PAY);
    }

    @Test
    void overrideIsAcceptedForAdmin() {
        createOrder("m-4");
        OrderDetailViewModel vm = detail("ada", Role.ADMIN);
        vm.load("m-4");
        assertThat(vm.canOverride()).isTrue();
        vm.override(OrderStatus.SHIPPED, "shipped before payment was recorded");
        assertThat(vm.feedback().messageProperty().get()).isEqualTo("Applied: WAIT_PAY → SHIPPED, now version 2.");
        assertThat(services.orders().lookup("m-4").summary().redisStatus()).isEqualTo(OrderStatus.SHIPPED);
    }

    @Test
    void readOnlyMayNotMoveAndABlankReasonIsRefused() {
        createOrder("m-5");
        OrderDetailViewModel ro = detail("rita", Role.READ_ONLY);
        ro.load("m-5");
        assertThat(ro.canMove()).isFalse();
        ro.move(OrderStatus.PAID, "trying");
        assertThat(ro.feedback().messageProperty().get()).contains(actorOf("rita", Role.READ_ONLY) + " (read_only) may not change order status");

        OrderDetailViewModel support = detail("alice", Role.SUPPORT);
        support.load("m-5");
        support.move(OrderStatus.PAID, "  ");
        assertThat(support.feedback().messageProperty().get()).isEqualTo("A reason is required.");
        assertThat(services.orders().lookup("m-5").summary().redisStatus()).isEqualTo(OrderStatus.WAIT_PAY);
    }

    @Test
    void anUnknownOrderIsReportedInWords() {
        OrderDetailViewModel vm = detail("alice", Role.SUPPORT);
        vm.load("nope-1");
        assertThat(vm.detailsProperty().get()).isNull();
        assertThat(vm.feedback().messageProperty().get()).isEqualTo("No order has the id nope-1 (neither MySQL nor Redis knows it).");
    }

    @Test
    void aConfirmedMoveIsAppliedWithTheReasonTyped() {
        createOrder("m-6");
        OrderDetailViewModel vm = detail("alice", Role.SUPPORT);
        vm.load("m-6");
        dialogs.reason("paid at the counter");
        vm.askAndMove(OrderStatus.PAID);

        assertThat(dialogs.asked()).singleElement().satisfies(q -> {
            assertThat(q.statement()).startsWith("Move order m-6 from WAIT_PAY to PAID?");
            assertThat(q.confirmLabel()).isEqualTo("Move to PAID");
        });
        assertThat(vm.feedback().messageProperty().get()).isEqualTo("Applied: WAIT_PAY → PAID, now version 2.");
        OrderSummary s = services.orders().lookup("m-6").summary();
        assertThat(s.redisStatus()).isEqualTo(OrderStatus.PAID);
        assertThat(s.mysqlStatus()).isEqualTo(OrderStatus.PAID);
        assertThat(vm.history().get(vm.history().size() - 1).reason()).isEqualTo("paid at the counter");
    }

    @Test
    void aDeclinedMoveOrOverrideChangesNothingInRedisOrMySql() {
        createOrder("m-7");
        OrderDetailViewModel vm = detail("ada", Role.ADMIN);
        vm.load("m-7");
        dialogs.cancel().cancel();
        vm.askAndMove(OrderStatus.CANCELLED);
        vm.overrideTargetProperty().set(OrderStatus.SHIPPED);
        vm.askAndOverride();

        assertThat(dialogs.asked()).extracting(ScriptedDialogs.Question::confirmLabel)
                .containsExactly("Move to CANCELLED", "Override to SHIPPED");
        OrderDetails d = services.orders().lookup("m-7");
        assertThat(d.summary().redisStatus()).isEqualTo(OrderStatus.WAIT_PAY);
        assertThat(d.summary().redisVersion()).isEqualTo(1);
        assertThat(d.summary().mysqlStatus()).isEqualTo(OrderStatus.WAIT_PAY);
        assertThat(d.summary().mysqlVersion()).isEqualTo(1);
        assertThat(d.history()).hasSize(1);
        assertThat(vm.feedback().messageProperty().get()).isEmpty();
    }

    @Test
    void aSlowLookupOfAnEarlierOrderDoesNotReplaceTheLaterOne() {
        createOrder("m-8");
        createOrder("m-9");
        HeldBackground held = new HeldBackground();
        OrderDetailViewModel vm = new OrderDetailViewModel(pages(Role.SUPPORT).orders(), pages(Role.SUPPORT).transitions(),
                new Operator("alice", Role.SUPPORT), held, dialogs);
        vm.load("m-8");
        vm.load("m-9");
        held.release(1);
        held.release(0);
        assertThat(vm.summary().orderId()).isEqualTo("m-9");
        assertThat(vm.moveCommand().executableProperty().get()).as("idle again").isTrue();
    }

    /** Issue 12, major 4: an unknown id clears the previous order and its moves and names the id. */
    @Test
    void anUnknownIdClearsThePreviousOrderAndSaysWhichIdWasNotFound() {
        createOrder("nf-1");
        OrderDetailViewModel vm = detail("alice", Role.SUPPORT);
        vm.load("nf-1");
        assertThat(vm.legalTargets()).isNotEmpty();

        vm.load("NOPE");
        assertThat(vm.detailsProperty().get()).isNull();
        assertThat(vm.legalTargets()).isEmpty();
        assertThat(vm.history()).isEmpty();
        assertThat(vm.feedback().errorProperty().get()).isTrue();
        assertThat(vm.feedback().messageProperty().get()).isEqualTo("No order has the id NOPE (neither MySQL nor Redis knows it).");
    }

    /** Issue 12, major 3: a read while Redis is down shows the error, not the previous order, and recovers. */
    @Test
    void aReadWhileRedisIsDownShowsTheErrorAndRecoversWhenItIsBack() {
        createOrder("rd-1");
        createOrder("rd-2");
        services.follower().drainOnce();
        OrderDetailViewModel vm = detail("alice", Role.SUPPORT);
        vm.load("rd-1");
        assertThat(vm.summary().orderId()).isEqualTo("rd-1");
        TestServers.redis().stop();
        try {
            vm.load("rd-2");
            assertThat(vm.detailsProperty().get()).as("no order shown as read from Redis").isNull();
            assertThat(vm.legalTargets()).isEmpty();
            assertThat(vm.feedback().errorProperty().get()).isTrue();
            assertThat(vm.feedback().messageProperty().get()).startsWith("Could not load order rd-2: ");
        } finally {
            TestServers.redis().start();
        }
        await().atMost(Duration.ofSeconds(20)).untilAsserted(() -> {
            vm.refresh();
            assertThat(vm.detailsProperty().get()).isNotNull();
        });
        assertThat(vm.summary().orderId()).isEqualTo("rd-2");
        assertThat(vm.feedback().messageProperty().get()).as("the error goes once the order reads again").isEmpty();
    }

    /** Issue 12, major 5: every read says when it was made and updates the table's row. */
    @Test
    void everyReadIsTimedAndReportedToTheTable() {
        createOrder("rt-1");
        OrderDetailViewModel vm = detail("alice", Role.SUPPORT);
        List<OrderSummary> reads = new ArrayList<>();
        vm.setOnRead(reads::add);
        long before = System.currentTimeMillis();
        vm.load("rt-1");
        assertThat(vm.readAtMsProperty().get()).isBetween(before, System.currentTimeMillis());
        move("rt-1", OrderStatus.CANCELLED);
        vm.refresh();
        assertThat(vm.summary().redisStatus()).as("a refresh reads the order again").isEqualTo(OrderStatus.CANCELLED);
        assertThat(vm.legalTargets()).as("no move offered from a terminal status").isEmpty();
        assertThat(reads).extracting(OrderSummary::redisStatus).containsExactly(OrderStatus.WAIT_PAY, OrderStatus.CANCELLED);
    }

    @Test
    void anOverrideOfAnOrderRedisNoLongerHoldsNamesMySqlsVersionAndIsApplied() {
        createOrder("m-late");
        move("m-late", OrderStatus.CANCELLED);
        services.follower().drainOnce();
        try (com.orderconsole.RawRedis raw = new com.orderconsole.RawRedis()) {
            raw.cmd().del(com.orderconsole.redis.RedisKeys.order("m-late")); // as after the terminal retention
        }
        OrderDetailViewModel vm = detail("ada", Role.ADMIN);
        vm.load("m-late");
        assertThat(vm.summary().redisStatus()).isNull();
        vm.overrideTargetProperty().set(OrderStatus.PAID);
        dialogs.reason("customer paid by bank transfer");
        vm.askAndOverride();

        assertThat(dialogs.asked()).singleElement().satisfies(q -> assertThat(q.statement())
                .contains("It is applied only if the order is still at version 2.")
                .contains("it is put back from MySQL's record first"));
        assertThat(vm.feedback().errorProperty().get()).as(vm.feedback().messageProperty().get()).isFalse();
        assertThat(vm.feedback().messageProperty().get()).isEqualTo("Applied: CANCELLED → PAID, now version 3.");
        OrderSummary s = services.orders().lookup("m-late").summary();
        assertThat(s.redisStatus()).isEqualTo(OrderStatus.PAID);
        assertThat(s.mysqlStatus()).isEqualTo(OrderStatus.PAID);
        assertThat(s.mysqlVersion()).isEqualTo(3);
    }
}
