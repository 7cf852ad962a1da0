package com.orderconsole.ui.main;

import com.orderconsole.domain.HistoryEntry;
import com.orderconsole.domain.OrderStatus;
import com.orderconsole.domain.Role;
import com.orderconsole.ui.ConsoleFxTest;
import javafx.scene.control.TextArea;
import javafx.scene.input.KeyCode;
import org.junit.jupiter.api.Test;


import static org.assertj.core.api.Assertions.assertThat;

/** Issue 12, minor: every action is reachable by keyboard, with visible focus. */
class KeyboardTest extends ConsoleFxTest {

    @Test
    void arrowKeysInTheNavigationSwitchThePage() throws Exception {
        openConsole("alice", Role.SUPPORT);
        clickOn("#nav-GRAPH");
        type(KeyCode.DOWN);
        waitUntil(() -> vm.pageProperty().get() == Page.ORDERS);
        assertThat(onFx(() -> lookup("#nav-ORDERS").query().isFocused())).isTrue();
        type(KeyCode.DOWN);
        waitUntil(() -> vm.pageProperty().get() == Page.QUEUE);
        type(KeyCode.UP);
        waitUntil(() -> vm.pageProperty().get() == Page.ORDERS);
    }

    @Test
    void tabLeavesTheReasonBoxAndEnterConfirms() throws Exception {
        createOrder("kb-1");
        openConsole("alice", Role.SUPPORT);
        interact(() -> vm.showOrder("kb-1"));
        waitUntil(() -> shown("#move-PAID"));
        clickOn("#move-PAID");
        waitUntil(() -> shown("#reasonField"));
        clickOn("#reasonField").write("paid at the counter");
        type(KeyCode.TAB);
        waitUntil(() -> lookup("#confirmButton").query().isFocused());
        assertThat(onFx(() -> lookup("#reasonField").<TextArea>query().getText())).as("no tab typed").isEqualTo("paid at the counter");
        clickOn("#reasonField");
        type(KeyCode.ENTER);
        waitUntil(() -> text("#detailMessage").startsWith("Applied"));
        services.follower().drainOnce();
        assertThat(services.orders().lookup("kb-1").summary().redisStatus()).isEqualTo(OrderStatus.PAID);
        assertThat(services.orders().lookup("kb-1").history()).last().extracting(HistoryEntry::reason)
                .as("no tab or newline typed into the reason").isEqualTo("paid at the counter");
    }

    @Test
    void graphStatusesAndStuckBadgesTakeFocusAndOpenWithEnter() throws Exception {
        createOrder("kb-2");
        openConsole("alice", Role.SUPPORT);
        waitUntil(() -> vm.graph().snapshotProperty().get() != null && shown("#node-WAIT_PAY"));
        assertThat(onFx(() -> lookup("#node-WAIT_PAY").query().isFocusTraversable())).isTrue();
        assertThat(onFx(() -> lookup("#stuck-WAIT_PAY").query().isFocusTraversable())).isTrue();
        interact(() -> lookup("#node-WAIT_PAY").query().requestFocus());
        type(KeyCode.ENTER);
        waitUntil(() -> vm.pageProperty().get() == Page.ORDERS);
        assertThat(onFx(() -> vm.orders().statusProperty().get())).isEqualTo(OrderStatus.WAIT_PAY);
    }

    /** Issue 34: the order table's focused row and a focused check box showed no focus at all. */
    @Test
    void theTablesFocusedRowAndAFocusedCheckBoxAreOutlined() throws Exception {
        createOrder("kb-5");
        createOrder("kb-6");
        openConsole("alice", Role.SUPPORT);
        clickOn("#nav-ORDERS");
        waitUntil(() -> rows("#ordersTable").size() == 2);
        interact(() -> {
            javafx.scene.control.TableView<?> t = lookup("#ordersTable").queryAs(javafx.scene.control.TableView.class);
            t.requestFocus();
            t.getFocusModel().focus(1);
        });
        waitUntil(() -> lookup("#ordersTable .table-row-cell").queryAll().stream()
                .filter(n -> n.getPseudoClassStates().contains(javafx.css.PseudoClass.getPseudoClass("focused")))
                .anyMatch(n -> outlined((javafx.scene.layout.Region) n)));
        interact(() -> lookup("#stuckBox").query().requestFocus());
        waitUntil(() -> outlined(lookup("#stuckBox .box").queryAs(javafx.scene.layout.Region.class)));
    }

    /** Issue 34: after Next the focus jumped on to "Bulk move (filter)…"; it stays on the pager. */
    @Test
    void theFocusStaysOnTheButtonsAfterNext() throws Exception {
        for (int i = 0; i < 105; i++) {
            createOrder(String.format("kn-%03d", i));
        }
        openConsole("alice", Role.SUPPORT);
        clickOn("#nav-ORDERS");
        waitUntil(() -> rows("#ordersTable").size() == 100 && !lookup("#nextButton").query().isDisabled());
        interact(() -> lookup("#nextButton").query().requestFocus());
        type(KeyCode.SPACE);
        waitUntil(() -> rows("#ordersTable").size() == 5);
        waitUntil(() -> lookup("#prevButton").query().isFocused());
        assertThat(onFx(() -> lookup("#bulkButton").query().isFocused())).isFalse();
    }

    private static boolean outlined(javafx.scene.layout.Region r) {
        javafx.scene.layout.Border b = r.getBorder();
        return b != null && b.getStrokes().stream().anyMatch(s -> s.getWidths().getTop() >= 2 || s.getWidths().getLeft() >= 2);
    }
}
