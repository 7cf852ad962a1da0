package com.orderconsole.service.rules;

import com.orderconsole.FreshEngine;
import com.orderconsole.RawRedis;
import com.orderconsole.RawSql;
import com.orderconsole.TestServers;
import com.orderconsole.app.Engine;
import com.orderconsole.domain.InvalidRulesException;
import com.orderconsole.domain.Operator;
import com.orderconsole.domain.OrderStatus;
import com.orderconsole.domain.PermissionDeniedException;
import com.orderconsole.domain.Role;
import com.orderconsole.domain.TransitionRules;
import com.orderconsole.app.Services;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import java.time.Duration;
import java.util.EnumMap;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * Issue 12: stuck thresholds were lost on restart and differed between console and CLI. They are part of
 * the rules now: versioned, archived, the same for every process, back after Redis lost its data.
 */
class StuckThresholdsWithRulesTest {
    @RegisterExtension
    final FreshEngine engine = new FreshEngine();
    private final Operator ops = new Operator("olga", Role.OPS);

    private static Map<OrderStatus, Duration> withPaid(Services s, Duration d) {
        Map<OrderStatus, Duration> m = new EnumMap<>(s.stuckThresholds().all());
        m.put(OrderStatus.PAID, d);
        return m;
    }

    @Test
    void thresholdsAreANewRulesVersionSharedByEveryProcessAndSurviveARestart() {
        Services s = engine.services();
        assertThat(s.stuckThresholds().all()).isEqualTo(TransitionRules.DEFAULT_STUCK);
        assertThat(RulesJson.write(s.rules().current())).contains("\"stuck\" : {").contains("\"SHIPPED\" : \"14d\"");

        s.orders().create(ops, "th-1", null, Duration.ofMinutes(30));
        s.transitions().transition(ops, com.orderconsole.domain.TransitionRequest.of("th-1", OrderStatus.PAID, "t", ""));
        s.follower().drainOnce();
        RawSql.update("UPDATE orders SET status_since_ms = status_since_ms - 3600000 WHERE order_id = 'th-1'");
        assertThat(s.monitor().stateCounts().stuck().get(OrderStatus.PAID)).as("1 h < 2 h").isZero();

        TransitionRules v2 = s.rules().setStuckThresholds(ops, withPaid(s, Duration.ofMinutes(45)));
        assertThat(v2.version()).isEqualTo(2);
        assertThat(RawSql.count("SELECT COUNT(*) FROM transition_rules WHERE rules_json LIKE '%\"PAID\" : \"45m\"%'"))
                .as("archived in MySQL with the rules").isEqualTo(1);
        assertThat(s.monitor().stateCounts().stuck().get(OrderStatus.PAID)).as("1 h > 45 min").isEqualTo(1);

        // Another process (the CLI, another console) on the same servers counts with the same thresholds.
        try (Engine other = Engine.start(TestServers.config())) {
            assertThat(other.services().stuckThresholds().get(OrderStatus.PAID)).isEqualTo(Duration.ofMinutes(45));
            assertThat(other.services().monitor().stateCounts().stuck().get(OrderStatus.PAID)).isEqualTo(1);
        }
        // Redis lost everything: the rules, thresholds included, come back from the archive.
        try (RawRedis raw = new RawRedis()) {
            raw.cmd().flushall();
        }
        s.maintenance().runOnce();
        try (Engine restarted = Engine.start(TestServers.config())) {
            assertThat(restarted.services().rules().current().version()).isEqualTo(2);
            assertThat(restarted.services().stuckThresholds().get(OrderStatus.PAID)).isEqualTo(Duration.ofMinutes(45));
        }
    }

    @Test
    void badThresholdsAreFaultsInPlaceAndOnlyOpsMayChangeThem() {
        Services s = engine.services();
        RulesJson.Draft d = RulesJson.draft("""
                { "terminal": ["FINISHED", "CANCELLED"],
                  "transitions": { "WAIT_PAY": ["PAID", "CANCELLED"], "PAID": ["WAIT_SHIP"], "WAIT_SHIP": ["SHIPPED"],
                                   "SHIPPED": ["FINISHED"] },
                  "stuck": { "PAID": "soon", "FINISHED": "1h", "WAIT_SHIP": "PT36H" } }
                """, 1);
        assertThat(d.faults()).extracting(Object::toString).containsExactlyInAnyOrder(
                "line 4, column 14: stuck threshold of PAID is not a duration: \"soon\" (write e.g. \"90s\", \"30m\", \"2h\", \"14d\")",
                "line 4, column 30: stuck threshold on terminal status FINISHED: orders there are done, never stuck");
        assertThat(d.stuck()).containsEntry(OrderStatus.WAIT_SHIP, Duration.ofHours(36));

        assertThatThrownBy(() -> s.rules().setStuckThresholds(new Operator("sam", Role.SUPPORT), withPaid(s, Duration.ofMinutes(5))))
                .isInstanceOf(PermissionDeniedException.class);
        assertThatThrownBy(() -> s.rules().setStuckThresholds(ops, withPaid(s, Duration.ZERO)))
                .isInstanceOf(InvalidRulesException.class).hasMessageContaining("must be positive");
        assertThat(s.rules().current().version()).as("nothing stored").isEqualTo(1);
        assertThat(s.rules().setStuckThresholds(ops, s.stuckThresholds().all()).version()).as("same thresholds: no new version").isEqualTo(1);
    }
}
