package com.orderconsole.ui.graph;

import com.orderconsole.RawSql;
import com.orderconsole.domain.Operator;
import com.orderconsole.domain.OrderStatus;
import com.orderconsole.domain.Role;
import com.orderconsole.domain.TransitionRequest;
import com.orderconsole.service.order.OrderSummary;
import com.orderconsole.ui.ConsoleFxTest;
import com.orderconsole.ui.main.Page;
import javafx.scene.control.ComboBox;
import javafx.scene.input.KeyCode;
import org.junit.jupiter.api.Test;

import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/** Graph → order table: counts on the nodes, a click on a status or its stuck badge filters the table. */
class StateGraphViewTest extends ConsoleFxTest {

    @Test
    void clickingAStatusOpensTheTableFilteredToIt() throws Exception {
        for (String id : List.of("g-1", "g-2", "g-3", "g-4", "g-5")) {
            createOrder(id);
        }
        Operator support = new Operator("setup", Role.SUPPORT);
        services.transitions().transition(support, TransitionRequest.of("g-2", OrderStatus.PAID, "test", "paid"));
        services.transitions().transition(support, TransitionRequest.of("g-4", OrderStatus.PAID, "test", "paid"));
        services.follower().drainOnce();

        openConsole("olga", Role.OPS);
        waitUntil(() -> "2".equals(text("#count-PAID")));
        assertThat(text("#count-WAIT_PAY")).isEqualTo("3");
        assertThat(text("#count-SHIPPED")).isEqualTo("0");

        clickOn("#node-PAID");
        waitUntil(() -> vm.pageProperty().get() == Page.ORDERS && rows("#ordersTable").size() == 2);
        List<OrderSummary> shown = rows("#ordersTable");
        assertThat(shown).extracting(OrderSummary::orderId).containsExactlyInAnyOrder("g-2", "g-4");
        assertThat(onFx(() -> lookup("#statusBox").<ComboBox<OrderStatus>>query().getValue())).isEqualTo(OrderStatus.PAID);
    }

    @Test
    void clickingTheStuckBadgeListsOnlyStuckOrders() throws Exception {
        createOrder("s-old");
        createOrder("s-new");
        // Plant an order that has been waiting for payment for two hours (threshold: 30 min).
        long twoHoursAgo = System.currentTimeMillis() - 2 * 3600_000L;
        RawSql.update("UPDATE orders SET status_since_ms = " + twoHoursAgo + " WHERE order_id = 's-old'");

        openConsole("olga", Role.OPS);
        waitUntil(() -> "1 stuck".equals(text("#stuck-WAIT_PAY")));
        assertThat(text("#count-WAIT_PAY")).isEqualTo("2");
        assertThat(shown("#stuck-FINISHED")).as("terminal statuses have no stuck badge").isFalse();

        clickOn("#stuck-WAIT_PAY");
        waitUntil(() -> vm.pageProperty().get() == Page.ORDERS && !rows("#ordersTable").isEmpty());
        assertThat(rows("#ordersTable")).extracting(o -> ((OrderSummary) o).orderId()).containsExactly("s-old");
        assertThat(onFx(() -> lookup("#stuckBox").<javafx.scene.control.CheckBox>query().isSelected())).isTrue();
    }

    @Test
    void f5RefreshesTheGraphWhileAutoRefreshIsPaused() throws Exception {
        createOrder("r-1");
        openConsole("olga", Role.OPS);
        waitUntil(() -> "1".equals(text("#count-WAIT_PAY")));
        assertThat(onFx(() -> vm.autoRefreshProperty().get())).as("paused by the test base").isFalse();

        createOrder("r-2");
        push(KeyCode.F5);
        waitUntil(() -> "2".equals(text("#count-WAIT_PAY")));
    }
}
