package com.orderconsole.ui.bulk;

import com.orderconsole.app.Messages;
import com.orderconsole.domain.OrderStatus;
import com.orderconsole.domain.Role;
import com.orderconsole.service.bulk.BulkBatch;
import com.orderconsole.service.bulk.BulkItem;
import com.orderconsole.service.order.OrderSummary;
import com.orderconsole.ui.ConsoleFxTest;
import javafx.scene.control.ComboBox;
import javafx.scene.control.TableView;
import javafx.scene.input.KeyCode;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import java.util.Locale;

import static org.assertj.core.api.Assertions.assertThat;

/** Bulk move by click: several rows selected in the order table (kept across a refresh), preview, reason, confirm, results. */
class BulkViewTest extends ConsoleFxTest {

    @BeforeEach
    void english() {
        Messages.use(Locale.ENGLISH);
    }

    @Test
    void movesTheRowsSelectedInTheOrderTable() throws Exception {
        createOrder("b-1");
        createOrder("b-2");
        createOrder("b-3");
        openConsole("sam", Role.SUPPORT);
        clickOn("#nav-ORDERS");
        waitUntil(() -> rows("#ordersTable").size() == 3);
        interact(() -> {
            TableView<OrderSummary> t = lookup("#ordersTable").query();
            t.getSelectionModel().selectIndices(0, 2);
        });
        waitUntil(() -> "Bulk move 2 selected…".equals(text("#bulkButton")));
        // A refresh (auto-refresh, F5) keeps both rows selected.
        interact(() -> vm.refresh());
        waitUntil(() -> onFx(() -> lookup("#ordersTable").<TableView<OrderSummary>>query().getSelectionModel().getSelectedItems().size()) == 2);
        assertThat(text("#bulkButton")).isEqualTo("Bulk move 2 selected…");

        clickOn("#bulkButton");
        waitUntil(() -> shown("#previewButton"));
        assertThat(text("#scopeText")).isEqualTo("Orders: the 2 selected in the order table");
        interact(() -> lookup("#targetBox").<ComboBox<OrderStatus>>query().setValue(OrderStatus.PAID));
        clickOn("#previewButton");
        waitUntil(() -> text("#previewText").startsWith("2 orders match. To PAID: 2 would move"));
        clickOn("#reasonField").write("paid at the counter");
        clickOn("#applyButton");
        waitUntil(() -> lookup(".dialog-pane").tryQuery().isPresent());
        clickOn("#confirmButton");

        waitUntil(() -> rows("#resultTable").size() == 2);
        assertThat(rows("#resultTable")).extracting(r -> ((BulkItem) r).orderId() + ":" + ((BulkItem) r).outcome())
                .containsExactly("b-1:APPLIED", "b-3:APPLIED");
        assertThat(text("#progressText")).contains("2 applied, 0 rejected");
        interact(() -> lookup("#tabs").<javafx.scene.control.TabPane>query().getSelectionModel().select(1));
        waitUntil(() -> rows("#batchTable").size() == 1);
        assertThat(((BulkBatch) rows("#batchTable").get(0)).reason()).isEqualTo("paid at the counter");
        assertThat(services.orders().lookup("b-2").summary().redisStatus()).isEqualTo(OrderStatus.WAIT_PAY);
        assertThat(services.orders().lookup("b-3").summary().redisStatus()).isEqualTo(OrderStatus.PAID);
    }

    @Test
    void thePagesAreReachedByKeyboard() throws Exception {
        openConsole("sam", Role.SUPPORT);
        clickOn("#nav-RULES");
        type(KeyCode.DOWN);
        waitUntil(() -> shown("#previewButton"));
        type(KeyCode.DOWN);
        waitUntil(() -> shown("#auditTable"));
    }
}
