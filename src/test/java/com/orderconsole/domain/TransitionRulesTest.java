package com.orderconsole.domain;

import com.orderconsole.service.rules.RulesJson;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class TransitionRulesTest {
    @Test
    void defaultsAreTheDocumentedGraph() {
        TransitionRules r = TransitionRules.defaults();
        assertThat(r.allows(OrderStatus.WAIT_PAY, OrderStatus.PAID)).isTrue();
        assertThat(r.allows(OrderStatus.WAIT_PAY, OrderStatus.CANCELLED)).isTrue();
        assertThat(r.allows(OrderStatus.PAID, OrderStatus.CANCELLED)).isFalse();
        assertThat(r.isTerminal(OrderStatus.FINISHED)).isTrue();
        assertThat(r.targets(OrderStatus.CANCELLED)).isEmpty();
    }

    @Test
    void jsonRoundTripKeepsTheGraph() {
        TransitionRules r = TransitionRules.defaults();
        assertThat(RulesJson.parse(RulesJson.write(r), 9).sameGraph(r)).isTrue();
        assertThat(RulesJson.parse(RulesJson.write(r), 9).version()).isEqualTo(1);
    }

    @Test
    void statusesByCodeAreAccepted() {
        TransitionRules r = RulesJson.parse("{\"terminal\":[5,6],\"transitions\":{\"1\":[2,6],\"2\":[3],\"3\":[4],\"4\":[5]}}", 3);
        assertThat(r.sameGraph(TransitionRules.defaults())).isTrue();
        assertThat(r.version()).isEqualTo(3);
    }

    @Test
    void malformedJsonNamesLineAndColumn() {
        assertThatThrownBy(() -> RulesJson.parse("{\"terminal\": [5,6", 1))
                .isInstanceOf(InvalidRulesException.class).hasMessageContaining("malformed JSON at line 1");
    }

    @Test
    void unknownStatusIsNamed() {
        assertThatThrownBy(() -> RulesJson.parse("{\"terminal\":[\"FINISHED\",\"CANCELLED\"],\"transitions\":{\"WAIT_PAY\":[\"PAID\",\"REFUNDED\"],"
                + "\"PAID\":[\"WAIT_SHIP\"],\"WAIT_SHIP\":[\"SHIPPED\"],\"SHIPPED\":[\"FINISHED\"]}}", 1))
                .isInstanceOf(InvalidRulesException.class).hasMessageContaining("REFUNDED");
    }

    @Test
    void edgeOutOfTerminalIsRejected() {
        assertThatThrownBy(() -> RulesJson.parse("{\"terminal\":[\"FINISHED\",\"CANCELLED\"],\"transitions\":{\"WAIT_PAY\":[\"PAID\",\"CANCELLED\"],"
                + "\"PAID\":[\"WAIT_SHIP\"],\"WAIT_SHIP\":[\"SHIPPED\"],\"SHIPPED\":[\"FINISHED\"],\"CANCELLED\":[\"PAID\"]}}", 1))
                .isInstanceOf(InvalidRulesException.class).hasMessageContaining("terminal status CANCELLED has outgoing edges");
    }

    @Test
    void unreachableStatusIsRejected() {
        assertThatThrownBy(() -> RulesJson.parse("{\"terminal\":[\"FINISHED\",\"CANCELLED\"],\"transitions\":{\"WAIT_PAY\":[\"CANCELLED\"],"
                + "\"PAID\":[\"WAIT_SHIP\"],\"WAIT_SHIP\":[\"SHIPPED\"],\"SHIPPED\":[\"FINISHED\"]}}", 1))
                .isInstanceOf(InvalidRulesException.class).hasMessageContaining("PAID is unreachable from WAIT_PAY");
    }

    @Test
    void cycleIntoWaitPayIsRejected() {
        assertThatThrownBy(() -> RulesJson.parse("{\"terminal\":[\"FINISHED\",\"CANCELLED\"],\"transitions\":{\"WAIT_PAY\":[\"PAID\",\"CANCELLED\"],"
                + "\"PAID\":[\"WAIT_SHIP\",\"WAIT_PAY\"],\"WAIT_SHIP\":[\"SHIPPED\"],\"SHIPPED\":[\"FINISHED\"]}}", 1))
                .isInstanceOf(InvalidRulesException.class).hasMessageContaining("cycle into WAIT_PAY");
    }

    @Test
    void aLoopWithoutExitToATerminalStatusIsRejected() {
        assertThatThrownBy(() -> RulesJson.parse("{\"terminal\":[\"FINISHED\",\"CANCELLED\"],\"transitions\":{"
                + "\"WAIT_PAY\":[\"PAID\",\"SHIPPED\",\"CANCELLED\"],\"PAID\":[\"WAIT_SHIP\"],\"WAIT_SHIP\":[\"PAID\"],"
                + "\"SHIPPED\":[\"FINISHED\"]}}", 1))
                .isInstanceOf(InvalidRulesException.class).hasMessageContaining("PAID cannot reach a terminal status");
    }

    @Test
    void rulesWithoutThePaymentTimeoutCancelAreRejected() {
        assertThatThrownBy(() -> RulesJson.parse("{\"terminal\":[\"FINISHED\",\"CANCELLED\"],\"transitions\":{"
                + "\"WAIT_PAY\":[\"PAID\"],\"PAID\":[\"WAIT_SHIP\",\"CANCELLED\"],\"WAIT_SHIP\":[\"SHIPPED\"],"
                + "\"SHIPPED\":[\"FINISHED\"]}}", 1))
                .isInstanceOf(InvalidRulesException.class).hasMessageContaining("WAIT_PAY -> CANCELLED is missing");
    }

    @Test
    void duplicateKeysTrailingTextAndHugeCodesAreRejected() {
        String edges = "\"WAIT_PAY\":[\"PAID\",\"CANCELLED\"],\"PAID\":[\"WAIT_SHIP\",\"CANCELLED\"],\"PAID\":[\"WAIT_SHIP\"],"
                + "\"WAIT_SHIP\":[\"SHIPPED\"],\"SHIPPED\":[\"FINISHED\"]";
        assertThatThrownBy(() -> RulesJson.parse("{\"terminal\":[5,6],\"transitions\":{" + edges + "}}", 1))
                .isInstanceOf(InvalidRulesException.class).hasMessageContaining("Duplicate field 'PAID'");
        String ok = RulesJson.write(TransitionRules.defaults());
        assertThatThrownBy(() -> RulesJson.parse(ok + " trailing", 1)).isInstanceOf(InvalidRulesException.class)
                .hasMessageContaining("malformed JSON");
        String validEdges = "\"WAIT_PAY\":[\"PAID\",\"CANCELLED\"],\"PAID\":[\"WAIT_SHIP\"],\"WAIT_SHIP\":[\"SHIPPED\"],"
                + "\"SHIPPED\":[\"FINISHED\"]";
        assertThatThrownBy(() -> RulesJson.parse("{\"terminal\":[4294967301, 6],\"transitions\":{" + validEdges + "}}", 1))
                .isInstanceOf(InvalidRulesException.class).hasMessageContaining("4294967301");
    }

    @Test
    void statusParsingAcceptsCodesAndNamesAndRejectsTheRest() {
        assertThat(OrderStatus.parse("2")).isEqualTo(OrderStatus.PAID);
        assertThat(OrderStatus.parse("wait-ship")).isEqualTo(OrderStatus.WAIT_SHIP);
        assertThatThrownBy(() -> OrderStatus.parse("7")).hasMessageContaining("unknown status code 7");
        assertThatThrownBy(() -> OrderStatus.parse("0")).hasMessageContaining("unknown status code 0");
        assertThatThrownBy(() -> OrderStatus.parse("REFUNDED")).hasMessageContaining("unknown status 'REFUNDED'");
        assertThatThrownBy(() -> OrderStatus.parse("\u0662")).as("Arabic-Indic two is not a code").hasMessageContaining("unknown status");
    }
}
