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
                .isInstanceOf(InvalidRulesException.class).hasMessageContaining("line 1, column 18: malformed JSON");
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
                .isInstanceOf(InvalidRulesException.class).hasMessageContaining("duplicate field 'PAID'");
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
        assertThat(OrderStatus.parse("paid")).isEqualTo(OrderStatus.PAID);
        assertThatThrownBy(() -> OrderStatus.parse(" PAID")).hasMessageContaining("status ' PAID' has");
        assertThatThrownBy(() -> OrderStatus.parse("PAID\u0000")).hasMessageContaining("'PAID\\u0000'");
        assertThatThrownBy(() -> OrderStatus.parse("2\n")).hasMessageContaining("expected 1..6");
        assertThatThrownBy(() -> OrderStatus.parse("PAID\u00a0")).hasMessageContaining("status 'PAID\u00a0' has");
        assertThatThrownBy(() -> OrderStatus.parse("\u0662")).as("Arabic-Indic two is not a code").hasMessageContaining("unknown status");
    }

    /** Issue 12 (rules page): an unknown status used to hide the graph's faults; now every fault comes at once, each placed. */
    @Test
    void everyFaultOfADocumentComesAtOnceWithItsLineAndColumn() {
        String doc = """
                { "terminal": ["FINISHED", "CANCELLED"],
                  "transitions": { "WAIT_PAY": ["PAID", "REFUNDED"],
                                   "PAID": ["WAIT_SHIP", "PAID"],
                                   "WAIT_SHIP": ["SHIPPED"], "SHIPPED": ["FINISHED"], "FINISHED": ["PAID"] },
                  "colour": "red" }
                """;
        RulesJson.Draft d = RulesJson.draft(doc, 1);
        assertThat(d.faults()).extracting(com.orderconsole.domain.RulesFault::toString).containsExactlyInAnyOrder(
                "line 2, column 41: unknown status 'REFUNDED' (expected 1..6 or one of WAIT_PAY, PAID, WAIT_SHIP, SHIPPED, FINISHED, CANCELLED)",
                "line 5, column 3: unknown field \"colour\"",
                "line 4, column 71: terminal status FINISHED has outgoing edges to [PAID]",
                "line 3, column 42: self-loop on PAID",
                "status CANCELLED is unreachable from WAIT_PAY",
                "line 2, column 20: WAIT_PAY -> CANCELLED is missing: unpaid orders could not be cancelled at their payment deadline");
        assertThat(d.faults()).filteredOn(f -> !f.key().equals("rules.fault.unreachable")).allMatch(com.orderconsole.domain.RulesFault::placed);
        assertThatThrownBy(() -> RulesJson.parse(doc, 1)).isInstanceOf(InvalidRulesException.class)
                .satisfies(e -> assertThat(((InvalidRulesException) e).details()).hasSize(6));
        com.orderconsole.app.Messages.use(java.util.Locale.SIMPLIFIED_CHINESE);
        try {
            assertThat(com.orderconsole.app.RulesWords.fault(d.faults().get(0))).startsWith("第 2 行第 41 列：REFUNDED 不是状态");
        } finally {
            com.orderconsole.app.Messages.use(java.util.Locale.ENGLISH);
        }
    }
}
