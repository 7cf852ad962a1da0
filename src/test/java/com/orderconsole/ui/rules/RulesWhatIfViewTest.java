package com.orderconsole.ui.rules;

import com.orderconsole.domain.OrderStatus;
import com.orderconsole.domain.Role;
import com.orderconsole.service.rules.RulesWhatIfTest;
import com.orderconsole.ui.ConsoleFxTest;
import javafx.scene.control.Label;
import javafx.scene.control.TextArea;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/** Issue 13.3 in the console: Apply shows what the change would do to live orders before anything is stored. */
class RulesWhatIfViewTest extends ConsoleFxTest {
    @Test
    void applyingRulesThatStrandOrdersSaysSoFirstAndDecliningStoresNothing() throws Exception {
        createOrder("wv-1");
        services.transitions().transition(new com.orderconsole.domain.Operator("setup", Role.SUPPORT),
                com.orderconsole.domain.TransitionRequest.of("wv-1", OrderStatus.PAID, "test", ""));
        services.transitions().transition(new com.orderconsole.domain.Operator("setup", Role.SUPPORT),
                com.orderconsole.domain.TransitionRequest.of("wv-1", OrderStatus.WAIT_SHIP, "test", ""));
        services.follower().drainOnce();
        openConsole("olga", Role.OPS);
        clickOn("#nav-RULES");
        waitUntil(() -> "version 1 in force".equals(text("#rulesVersion")));
        interact(() -> lookup("#rulesText").<TextArea>query().setText(RulesWhatIfTest.STRANDS_WAIT_SHIP));
        clickOn("#applyButton");
        waitUntil(() -> shown("#confirmButton"));
        String details = onFx(() -> lookup(".dialog-pane .content").<Label>query().getText());
        assertThat(details).contains("makes WAIT_SHIP terminal")
                .contains("WAIT_SHIP loses every exit: its 1 live order (0 of them stuck) would stay there for good (e.g. wv-1)")
                .contains("WAIT_PAY → CANCELLED stays");
        assertThat(onFx(() -> lookup(".dialog-pane .header-panel .label").<Label>query().getText()))
                .isEqualTo("Apply these rules as version 2?");
        press(javafx.scene.input.KeyCode.ESCAPE).release(javafx.scene.input.KeyCode.ESCAPE);
        waitUntil(() -> !shown("#confirmButton"));
        assertThat(services.rules().current().version()).as("declined: nothing stored").isEqualTo(1);
    }
}
