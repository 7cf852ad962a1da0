package com.orderconsole.ui.rules;

import com.orderconsole.domain.OrderStatus;
import com.orderconsole.domain.Role;
import com.orderconsole.ui.ConsoleFxTest;
import javafx.scene.control.TextArea;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/** The rules page: a fault shown and nothing changed; a valid change applied after confirmation and drawn; read-only below ops. */
class RulesViewTest extends ConsoleFxTest {

    @Test
    void anInvalidDocumentShowsItsFaultAndChangesNothing() throws Exception {
        openConsole("olga", Role.OPS);
        clickOn("#nav-RULES");
        waitUntil(() -> "version 1 in force".equals(text("#rulesVersion")));
        interact(() -> lookup("#rulesText").<TextArea>query().setText(RulesViewModelTest.INVALID));
        clickOn("#applyButton");
        waitUntil(() -> !rows("#faultsList").isEmpty());
        assertThat(rows("#faultsList")).containsExactly("Line 3, column 71: terminal status FINISHED has outgoing edges to [PAID]");
        assertThat(text("#rulesMessage")).isEqualTo("1 fault: nothing was changed.");
        assertThat(services.rules().current().version()).isEqualTo(1);
        assertThat(text("#rulesVersion")).isEqualTo("version 1 in force");
    }

    @Test
    void aValidChangeIsConfirmedAppliedAndDrawnOnTheGraph() throws Exception {
        openConsole("olga", Role.OPS);
        waitUntil(() -> lookup("#node-PAID").tryQuery().isPresent());
        assertThat(lookup("#edge-PAID-CANCELLED").tryQuery()).isEmpty();

        clickOn("#nav-RULES");
        waitUntil(() -> "version 1 in force".equals(text("#rulesVersion")));
        interact(() -> lookup("#rulesText").<TextArea>query().setText(RulesViewModelTest.WITH_REFUND));
        assertThat(shown("#editedLabel")).isTrue();
        clickOn("#applyButton");
        waitUntil(() -> shown("#confirmButton"));
        assertThat(text("#confirmButton")).isEqualTo("Apply as version 2");
        assertThat(onFx(() -> lookup(".dialog-pane .content").<javafx.scene.control.Label>query().getText()))
                .startsWith("adds PAID → CANCELLED");
        clickOn("#confirmButton");

        waitUntil(() -> "version 2 in force".equals(text("#rulesVersion")));
        assertThat(services.rules().current().allows(OrderStatus.PAID, OrderStatus.CANCELLED)).isTrue();
        waitUntil(() -> "Rules v2".equals(text("#rulesStatus")));

        clickOn("#nav-GRAPH");
        waitUntil(() -> lookup("#edge-PAID-CANCELLED").tryQuery().isPresent());
        assertThat(text("#rulesLabel")).isEqualTo("rules version 2");
    }

    @Test
    void supportReadsTheRulesButCannotEditThem() throws Exception {
        openConsole("alice", Role.SUPPORT);
        clickOn("#nav-RULES");
        waitUntil(() -> "version 1 in force".equals(text("#rulesVersion")));
        assertThat(onFx(() -> lookup("#rulesText").<TextArea>query().isEditable())).isFalse();
        assertThat(onFx(() -> lookup("#rulesText").<TextArea>query().getText())).contains("\"WAIT_PAY\"");
        assertThat(shown("#applyButton")).isFalse();
        assertThat(shown("#validateButton")).isFalse();
        assertThat(shown("#rulesRoleHint")).isTrue();
    }
}
