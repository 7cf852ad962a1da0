package com.orderconsole.ui.main;

import com.orderconsole.domain.OrderStatus;
import com.orderconsole.domain.Role;
import com.orderconsole.service.order.OrderQuery;
import com.orderconsole.ui.ConsoleContext;
import com.orderconsole.ui.ViewModelTestBase;
import com.orderconsole.ui.WithoutLocalFeatures;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

class MainViewModelTest extends ViewModelTestBase {

    @Test
    void startLoadsTheGraphAndTheStatusBar() {
        createOrder("n-1");
        MainViewModel vm = new MainViewModel(as("olga", Role.OPS));
        vm.start();
        assertThat(vm.pageProperty().get()).isEqualTo(Page.GRAPH);
        assertThat(vm.graph().snapshotProperty().get().liveCount(OrderStatus.WAIT_PAY)).isEqualTo(1);
        assertThat(vm.statusBar().healthProperty().get().redisUp()).isTrue();
        assertThat(vm.statusBar().healthProperty().get().mysqlUp()).isTrue();
        assertThat(vm.statusBar().healthProperty().get().rulesVersion()).isEqualTo(1L);
        assertThat(vm.operatorText()).isEqualTo("olga · ops");
        assertThat(MainViewModel.operatorText(new com.orderconsole.domain.Operator("root", com.orderconsole.domain.Role.ADMIN, true)))
                .as("the embedded servers' admin is the local machine's user, and the header says so").isEqualTo("root · admin (local)");
    }

    @Test
    void navigationFiltersTheTableAndOpensOrders() {
        createOrder("n-2");
        createOrder("n-3");
        move("n-3", OrderStatus.PAID);
        services.follower().drainOnce();
        MainViewModel vm = new MainViewModel(as("olga", Role.OPS));

        vm.showOrders(OrderQuery.inStatus(OrderStatus.PAID, false));
        assertThat(vm.pageProperty().get()).isEqualTo(Page.ORDERS);
        assertThat(vm.orders().rows()).extracting(o -> o.orderId()).containsExactly("n-3");

        vm.showOrder("n-2");
        assertThat(vm.detail().summary().orderId()).isEqualTo("n-2");
    }

    @Test
    void withoutTheLocalOnlyFeaturesEveryPageWorksAndTheirPanelsSayWhy() {
        createOrder("n-4");
        MainViewModel vm = new MainViewModel(new ConsoleContext(new WithoutLocalFeatures(services),
                new com.orderconsole.domain.Operator("olga", Role.OPS), background, dialogs));
        vm.start();
        assertThat(vm.graph().snapshotProperty().get().liveCount(OrderStatus.WAIT_PAY)).isEqualTo(1);

        assertThat(vm.traffic().available()).isFalse();
        assertThat(vm.traffic().feedback().messageProperty().get())
                .isEqualTo("Live traffic runs only in a console on its own stores: this console works through serve and opens no store.");
        vm.traffic().start();
        assertThat(vm.traffic().startCommand().executableProperty().get()).isFalse();
        assertThat(services.simulator().status().running()).as("nothing started").isFalse();

        assertThat(vm.metricsEndpoint().available()).isFalse();
        assertThat(vm.metricsEndpoint().statusProperty().get())
                .isEqualTo("Not served here: this console works through serve, which serves its own /metrics.");
        vm.metricsEndpoint().setServing(true);
        assertThat(vm.metricsEndpoint().servingProperty().get()).isFalse();
        assertThat(services.metrics().endpointPort()).as("no port opened").isEmpty();
    }

    @Test
    void theStatusBarWarnsWhenNoSweeperRuns() {
        MainViewModel vm = new MainViewModel(as("olga", Role.OPS));
        vm.statusBar().check();
        assertThat(vm.statusBar().warnings()).anyMatch(w -> w.contains("no cancel sweeper has ever run"));
    }

    @Test
    void pausedAutoRefreshLeavesThePageAlone() {
        MainViewModel vm = new MainViewModel(as("olga", Role.OPS));
        vm.autoRefreshProperty().set(false);
        vm.tick();
        assertThat(vm.graph().snapshotProperty().get()).as("no reload while paused").isNull();
        vm.autoRefreshProperty().set(true);
        vm.tick();
        assertThat(vm.graph().snapshotProperty().get()).isNotNull();
    }

    /**
     * Issue 34: a refused order id cleared the detail, but its error went with the next auto-refresh and the row of the
     * order shown before stayed selected.
     */
    @Test
    void aRefusedIdKeepsItsErrorThroughRefreshesAndLeavesNoRowSelected() {
        createOrder("r-1");
        createOrder("r-2");
        MainViewModel vm = new MainViewModel(as("olga", Role.OPS));
        vm.pageProperty().set(Page.ORDERS);
        vm.orders().search();
        vm.orders().selectedProperty().set(vm.orders().rows().get(0));
        vm.showOrder("r-1");
        vm.orders().idTextProperty().set("订单一二三");
        vm.orders().search();
        assertThat(vm.detail().detailsProperty().get()).isNull();
        assertThat(vm.orders().selectedProperty().get()).as("no row selected beside an empty detail").isNull();
        String error = vm.orders().feedback().messageProperty().get();
        assertThat(error).contains("订单一二三");
        vm.tick();
        vm.refresh();
        assertThat(vm.orders().feedback().messageProperty().get()).as("kept through refreshes").isEqualTo(error);
        vm.orders().idTextProperty().set("");
        vm.orders().search();
        assertThat(vm.orders().feedback().messageProperty().get()).as("a good search takes it back").isEmpty();
    }

    /** Issue 34: the "no order has the id" of a prefix lookup survived Clear and page changes. */
    @Test
    void anUnknownIdErrorGoesWithClearAndPageChanges() {
        createOrder("05b2aa-1");
        MainViewModel vm = new MainViewModel(as("olga", Role.OPS));
        vm.orders().idTextProperty().set("05b2");
        vm.orders().search();
        assertThat(vm.detail().feedback().messageProperty().get()).contains("05b2");
        vm.orders().clearFilters();
        assertThat(vm.detail().feedback().messageProperty().get()).isEmpty();
        assertThat(vm.detail().orderId()).isNull();

        vm.orders().idTextProperty().set("05b2");
        vm.orders().search();
        vm.orders().nextPage();
        assertThat(vm.detail().feedback().messageProperty().get()).isEmpty();
        // An order shown stays shown when the page changes.
        vm.showOrder("05b2aa-1");
        vm.orders().clearFilters();
        assertThat(vm.detail().summary().orderId()).isEqualTo("05b2aa-1");
    }

    /**
     * Issue 34: the status box showed SHIPPED but was not searched, and "Bulk move (filter)…" proposed every order (with
     * "override the rules", every order in the store). It takes what the box shows now, and the table shows it too.
     */
    @Test
    void bulkMoveByFilterTakesWhatTheBoxesShow() {
        createOrder("b-1");
        createOrder("b-2");
        move("b-2", OrderStatus.PAID);
        services.follower().drainOnce();
        MainViewModel vm = new MainViewModel(as("olga", Role.OPS));
        vm.orders().search();
        assertThat(vm.orders().rows()).hasSize(2);
        vm.orders().statusProperty().set(OrderStatus.PAID);
        vm.orders().bulkMove();
        assertThat(vm.pageProperty().get()).isEqualTo(Page.BULK);
        assertThat(vm.bulk().scopeProperty().get().filter().statuses()).containsExactly(OrderStatus.PAID);
        assertThat(vm.bulk().scopeTextProperty().get()).contains("PAID");
        assertThat(vm.orders().rows()).as("the table applies the same filter").extracting(o -> o.orderId()).containsExactly("b-2");
        vm.bulk().useTableFilter();
        assertThat(vm.bulk().scopeProperty().get().filter().statuses()).containsExactly(OrderStatus.PAID);
    }

    /** Issue 34: a stuck badge left the first row shaded (selected) while the detail said "Select an order". */
    @Test
    void openingTheTableFromTheGraphLeavesNoRowSelected() {
        createOrder("s-1");
        MainViewModel vm = new MainViewModel(as("olga", Role.OPS));
        vm.orders().search();
        vm.orders().selectedProperty().set(vm.orders().rows().get(0));
        vm.showOrder("s-1");
        vm.showOrders(OrderQuery.inStatus(OrderStatus.WAIT_PAY, false));
        assertThat(vm.detail().orderId()).isNull();
        assertThat(vm.orders().selectedProperty().get()).isNull();
    }

    /** Issue 34: a row moved out of the status filtered on stayed on the page (page 2 showed it after a move). */
    @Test
    void aRowMovedOutOfTheFilteredStatusLeavesThePage() {
        createOrder("f-1");
        createOrder("f-2");
        services.follower().drainOnce();
        MainViewModel vm = new MainViewModel(as("olga", Role.OPS));
        vm.showOrders(OrderQuery.inStatus(OrderStatus.WAIT_PAY, false));
        assertThat(vm.orders().rows()).hasSize(2);
        vm.showOrder("f-1");
        vm.detail().move(OrderStatus.PAID, "paid by bank transfer");
        assertThat(vm.detail().summary().status()).isEqualTo(OrderStatus.PAID);
        assertThat(vm.orders().rows()).extracting(o -> o.orderId()).containsExactly("f-2");
    }

    /** Issue 34: the Audit page did not auto-refresh; an action recorded meanwhile shows on the next tick. */
    @Test
    void theAuditPageRefreshesOnTheTick() {
        MainViewModel vm = new MainViewModel(as("olga", Role.OPS));
        vm.pageProperty().set(Page.AUDIT);
        int before = vm.audit().rows().size();
        createOrder("au-1");
        services.follower().drainOnce();
        vm.tick();
        assertThat(vm.audit().rows()).hasSize(before + 1);
    }
}
