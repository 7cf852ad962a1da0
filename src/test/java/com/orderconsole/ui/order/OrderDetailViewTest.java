package com.orderconsole.ui.order;

import com.orderconsole.domain.HistoryEntry;
import com.orderconsole.domain.Operator;
import com.orderconsole.domain.OrderStatus;
import com.orderconsole.domain.Role;
import com.orderconsole.domain.TransitionRequest;
import com.orderconsole.service.order.OrderDetails;
import com.orderconsole.ui.ConsoleFxTest;
import javafx.scene.control.ComboBox;
import javafx.scene.control.TextArea;
import javafx.scene.input.KeyCode;
import org.junit.jupiter.api.Test;

import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/** Lookup and moves in the order detail: rule-checked moves for support, overrides for admins only. */
class OrderDetailViewTest extends ConsoleFxTest {

    @Test
    void lookUpAnOrderAndApplyAMove() throws Exception {
        createOrder("d-100");
        createOrder("d-200");
        openConsole("alice", Role.SUPPORT);

        press(KeyCode.CONTROL, KeyCode.F).release(KeyCode.F, KeyCode.CONTROL);
        write("d-200").type(KeyCode.ENTER);
        waitUntil(() -> "Order d-200".equals(text("#title")) && shown("#move-PAID"));
        assertThat(text("#redisState")).isEqualTo("WAIT_PAY · version 1");
        assertThat(shown("#move-CANCELLED")).isTrue();
        assertThat(shown("#overridePane")).as("no override for support").isFalse();

        clickOn("#move-PAID");
        waitUntil(() -> shown("#reasonField"));
        assertThat(onFx(() -> lookup("#confirmButton").query().isDisabled())).as("a reason is required").isTrue();
        clickOn("#reasonField").write("customer paid by bank transfer");
        clickOn("#confirmButton");

        waitUntil(() -> text("#detailMessage").startsWith("Applied"));
        assertThat(text("#detailMessage")).isEqualTo("Applied: WAIT_PAY → PAID, now version 2.");
        waitUntil(() -> "PAID · version 2".equals(text("#redisState")));
        assertThat(shown("#move-WAIT_SHIP")).isTrue();

        OrderDetails d = services.orders().lookup("d-200");
        assertThat(d.summary().redisStatus()).isEqualTo(OrderStatus.PAID);
        HistoryEntry last = d.history().get(d.history().size() - 1);
        assertThat(last.actor()).isEqualTo("alice");
        assertThat(last.source()).isEqualTo("console");
        assertThat(last.reason()).isEqualTo("customer paid by bank transfer");
        List<HistoryEntry> shownHistory = rows("#historyList");
        assertThat(shownHistory).extracting(HistoryEntry::actor).contains("alice");
        assertThat(services.orders().lookup("d-100").summary().redisStatus()).as("other orders untouched").isEqualTo(OrderStatus.WAIT_PAY);
    }

    @Test
    void aMoveOnAnOrderThatChangedMeanwhileIsRefusedInWords() throws Exception {
        createOrder("d-300");
        openConsole("alice", Role.SUPPORT);
        interact(() -> vm.showOrder("d-300"));
        waitUntil(() -> shown("#move-PAID"));
        // Someone else pays the order after alice opened it.
        services.transitions().transition(new Operator("bob", Role.SUPPORT),
                TransitionRequest.of("d-300", OrderStatus.PAID, "test", "paid elsewhere"));

        clickOn("#move-CANCELLED");
        waitUntil(() -> shown("#reasonField"));
        clickOn("#reasonField").write("customer asked to cancel");
        clickOn("#confirmButton");

        waitUntil(() -> text("#detailMessage").startsWith("Not applied"));
        assertThat(text("#detailMessage")).contains("version conflict").doesNotContain("Exception");
        assertThat(services.orders().lookup("d-300").summary().redisStatus()).isEqualTo(OrderStatus.PAID);
    }

    @Test
    void adminOverridesOutsideTheRules() throws Exception {
        createOrder("d-400");
        services.transitions().transition(new Operator("setup", Role.SUPPORT),
                TransitionRequest.of("d-400", OrderStatus.PAID, "test", "paid"));
        openConsole("root-admin", Role.ADMIN);
        interact(() -> vm.showOrder("d-400"));
        waitUntil(() -> shown("#move-WAIT_SHIP"));
        assertThat(shown("#move-FINISHED")).as("FINISHED is not a legal move from PAID").isFalse();

        clickOn("#overridePane");
        waitUntil(() -> shown("#overrideTarget"));
        interact(() -> lookup("#overrideTarget").<ComboBox<OrderStatus>>query().setValue(OrderStatus.FINISHED));
        clickOn("#overrideButton");
        waitUntil(() -> shown("#reasonField"));
        clickOn("#reasonField").write("delivered, courier scan missing");
        clickOn("#confirmButton");

        waitUntil(() -> text("#detailMessage").startsWith("Applied"));
        assertThat(text("#detailMessage")).isEqualTo("Applied: PAID → FINISHED, now version 3.");
        OrderDetails d = services.orders().lookup("d-400");
        assertThat(d.summary().redisStatus()).isEqualTo(OrderStatus.FINISHED);
        assertThat(d.history().get(d.history().size() - 1).actor()).isEqualTo("root-admin");
    }

    @Test
    void adminOverrideIsRefusedWhenTheOrderChangedSinceItWasShown() throws Exception {
        createOrder("d-500");
        openConsole("root-admin", Role.ADMIN);
        interact(() -> vm.showOrder("d-500"));
        waitUntil(() -> "WAIT_PAY · version 1".equals(text("#redisState")));
        services.transitions().transition(new Operator("bob", Role.SUPPORT),
                TransitionRequest.of("d-500", OrderStatus.PAID, "test", "paid meanwhile"));

        clickOn("#overridePane");
        waitUntil(() -> shown("#overrideTarget"));
        interact(() -> lookup("#overrideTarget").<ComboBox<OrderStatus>>query().setValue(OrderStatus.SHIPPED));
        clickOn("#overrideButton");
        waitUntil(() -> shown("#reasonField"));
        interact(() -> lookup("#reasonField").<TextArea>query().setText("force ship"));
        clickOn("#confirmButton");

        waitUntil(() -> text("#detailMessage").startsWith("Not applied"));
        assertThat(text("#detailMessage")).contains("version conflict");
        assertThat(services.orders().lookup("d-500").summary().redisStatus()).isEqualTo(OrderStatus.PAID);
    }
}
