package com.orderconsole.cli;

import com.orderconsole.domain.OrderStatus;
import com.orderconsole.service.rules.RulesJson;
import com.orderconsole.ui.common.Formats;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import java.time.Duration;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** A duration valid in one place is valid in every place: CLI option, console field, rules document (issue 28). */
class DurationGrammarTest {
    private static Duration inRules(String text) {
        String doc = "{\"terminal\": [\"FINISHED\", \"CANCELLED\"],"
                + " \"transitions\": {\"WAIT_PAY\": [\"PAID\", \"CANCELLED\"], \"PAID\": [\"WAIT_SHIP\"], \"WAIT_SHIP\": [\"SHIPPED\"], \"SHIPPED\": [\"FINISHED\"]},"
                + " \"stuck\": {\"PAID\": \"" + text + "\"}}";
        return RulesJson.parse(doc, 1).stuck().get(OrderStatus.PAID);
    }

    @ParameterizedTest
    @ValueSource(strings = {"90s", "1h30m", "1h 30min", "500ms", "PT30M", "2 小时", "14d"})
    void theCliTheConsoleAndTheRulesDocumentAgree(String text) {
        Duration d = Cli.parseDuration(text);
        assertThat(Formats.parseDuration(text)).isEqualTo(d);
        assertThat(inRules(text)).isEqualTo(d);
    }

    @ParameterizedTest
    @ValueSource(strings = {"30", "1.5h", "-5m", "thirty minutes"})
    void whatOneRefusesEveryOneRefuses(String text) {
        assertThatThrownBy(() -> Cli.parseDuration(text)).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> Formats.parseDuration(text)).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> inRules(text)).isInstanceOf(RuntimeException.class);
    }
}
