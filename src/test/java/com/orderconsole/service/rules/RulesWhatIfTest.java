package com.orderconsole.service.rules;

import com.orderconsole.FreshEngine;
import com.orderconsole.RawSql;
import com.orderconsole.domain.Operator;
import com.orderconsole.domain.OrderStatus;
import com.orderconsole.domain.Role;
import com.orderconsole.domain.TransitionRequest;
import com.orderconsole.app.Services;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import java.time.Duration;

import static org.assertj.core.api.Assertions.assertThat;

/** The what-if of a rules change (issue 13.3): orders it strands, exits stuck orders lose, the timeout cancel; read-only. */
public class RulesWhatIfTest {
    /** WAIT_SHIP made terminal (reached around it by PAID → SHIPPED): its orders would stay there for good. */
    public static final String STRANDS_WAIT_SHIP = """
            { "terminal": ["FINISHED", "CANCELLED", "WAIT_SHIP"],
              "transitions": { "WAIT_PAY": ["PAID", "CANCELLED"], "PAID": ["WAIT_SHIP", "SHIPPED"], "SHIPPED": ["FINISHED"] } }
            """;
    /** PAID loses its exit to WAIT_SHIP (WAIT_SHIP now reached straight from WAIT_PAY); PAID keeps an exit. */
    public static final String PAID_LOSES_WAIT_SHIP = """
            { "terminal": ["FINISHED", "CANCELLED"],
              "transitions": { "WAIT_PAY": ["PAID", "WAIT_SHIP", "CANCELLED"], "PAID": ["SHIPPED"],
                               "WAIT_SHIP": ["SHIPPED"], "SHIPPED": ["FINISHED"] } }
            """;
    /** Without WAIT_PAY → CANCELLED (invalid: it is never applied, but the what-if says what it would do). */
    public static final String NO_TIMEOUT_CANCEL = """
            { "terminal": ["FINISHED", "CANCELLED"],
              "transitions": { "WAIT_PAY": ["PAID"], "PAID": ["WAIT_SHIP", "CANCELLED"], "WAIT_SHIP": ["SHIPPED"],
                               "SHIPPED": ["FINISHED"] } }
            """;

    @RegisterExtension
    final FreshEngine engine = new FreshEngine();
    private Services s;
    private final Operator support = new Operator("alice", Role.SUPPORT);

    @BeforeEach
    void orders() {
        s = engine.services();
        for (String id : new String[]{"o1", "o2", "o3", "o4"}) {
            s.orders().create(support, id, null, Duration.ofMinutes(30));
        }
        for (String id : new String[]{"o1", "o2", "o3"}) {
            s.transitions().transition(support, TransitionRequest.of(id, OrderStatus.PAID, "t", ""));
        }
        s.transitions().transition(support, TransitionRequest.of("o3", OrderStatus.WAIT_SHIP, "t", ""));
        s.follower().drainOnce();
        // o1 has been PAID for 3 h: stuck (threshold 2 h).
        RawSql.update("UPDATE orders SET status_since_ms = status_since_ms - 10800000 WHERE order_id = 'o1'");
    }

    @Test
    void rulesThatMakeAStatusTerminalStrandItsLiveOrders() {
        RulesImpact i = s.rulesWhatIf().whatIf(STRANDS_WAIT_SHIP);
        assertThat(i.faults()).isEmpty();
        assertThat(i.statuses()).singleElement().satisfies(w -> {
            assertThat(w.status()).isEqualTo(OrderStatus.WAIT_SHIP);
            assertThat(w.losesEveryExit()).isTrue();
            assertThat(w.live()).isEqualTo(1);
            assertThat(w.sample()).containsExactly("o3");
            assertThat(w.removed()).extracting(RulesImpact.RemovedExit::to).containsExactly(OrderStatus.SHIPPED);
        });
        assertThat(i.stranded()).isEqualTo(1);
        assertThat(i.timeoutCancelKept()).isTrue();
        assertThat(i.harmful()).isTrue();
        assertThat(s.rules().current().version()).as("a what-if stores nothing").isEqualTo(1);
    }

    @Test
    void anExitStuckOrdersUseThatDisappearsIsNamedWithItsTrafficAndSample() {
        RulesImpact i = s.rulesWhatIf().whatIf(PAID_LOSES_WAIT_SHIP);
        assertThat(i.statuses()).singleElement().satisfies(p -> {
            assertThat(p.status()).isEqualTo(OrderStatus.PAID);
            assertThat(p.losesEveryExit()).isFalse();
            assertThat(p.live()).isEqualTo(2);
            assertThat(p.stuck()).isEqualTo(1);
            assertThat(p.sample()).as("longest in the status first").startsWith("o1").contains("o2");
            assertThat(p.removed()).singleElement().satisfies(r -> {
                assertThat(r.to()).isEqualTo(OrderStatus.WAIT_SHIP);
                assertThat(r.appliedLastHour()).as("o3 took it").isEqualTo(1);
            });
        });
        assertThat(i.stranded()).isZero();
        assertThat(i.stuckLosingAnExit()).isEqualTo(1);
    }

    @Test
    void droppingTheTimeoutCancelIsReportedWithTheUnpaidOrdersEvenThoughTheDocumentIsRefused() {
        RulesImpact i = s.rulesWhatIf().whatIf(NO_TIMEOUT_CANCEL);
        assertThat(i.faults()).extracting(f -> f.key()).contains("rules.fault.noTimeoutCancel");
        assertThat(i.timeoutCancelKept()).isFalse();
        assertThat(i.waitPayLive()).isEqualTo(1);
        assertThat(i.waitPaySample()).containsExactly("o4");
        assertThat(i.statuses()).extracting(RulesImpact.StatusImpact::status).contains(OrderStatus.WAIT_PAY);
    }

    @Test
    void sameRulesAffectNothingAndAnUnreadableDocumentSaysSo() {
        RulesImpact same = s.rulesWhatIf().whatIf(RulesJson.write(s.rules().current()));
        assertThat(same.statuses()).isEmpty();
        assertThat(same.harmful()).isFalse();
        RulesImpact broken = s.rulesWhatIf().whatIf("{ \"terminal\": [");
        assertThat(broken.readable()).isFalse();
        assertThat(broken.faults()).singleElement().satisfies(f -> assertThat(f.placed()).isTrue());
    }
}
