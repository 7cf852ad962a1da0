package com.orderconsole.ui.main;

import com.orderconsole.domain.OrderStatus;
import com.orderconsole.domain.Role;
import com.orderconsole.service.order.OrderQuery;
import com.orderconsole.ui.ViewModelTestBase;
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
}
