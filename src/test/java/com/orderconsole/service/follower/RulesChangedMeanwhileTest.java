package com.orderconsole.service.follower;

import com.orderconsole.FreshEngine;
import com.orderconsole.RawSql;
import com.orderconsole.app.Services;
import com.orderconsole.domain.Operator;
import com.orderconsole.domain.OrderStatus;
import com.orderconsole.domain.Role;
import com.orderconsole.domain.TransitionRequest;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import java.time.Duration;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Issue 33: the rules changed between Redis accepting a move and the follower applying it, and the follower judged the
 * move by the new rules: an honest refund became an OUT_OF_SEQUENCE dead letter. It is judged by the rules in force when
 * Redis accepted it.
 */
class RulesChangedMeanwhileTest {
    @RegisterExtension
    final FreshEngine engine = new FreshEngine();

    private static final String REFUNDS = "{\"terminal\":[\"FINISHED\",\"CANCELLED\"],\"transitions\":{\"WAIT_PAY\":[\"PAID\",\"CANCELLED\"],"
            + "\"PAID\":[\"WAIT_SHIP\",\"CANCELLED\"],\"WAIT_SHIP\":[\"SHIPPED\"],\"SHIPPED\":[\"FINISHED\"]}}";
    private static final String NO_REFUNDS = "{\"terminal\":[\"FINISHED\",\"CANCELLED\"],\"transitions\":{\"WAIT_PAY\":[\"PAID\",\"CANCELLED\"],"
            + "\"PAID\":[\"WAIT_SHIP\"],\"WAIT_SHIP\":[\"SHIPPED\"],\"SHIPPED\":[\"FINISHED\"]}}";

    @Test
    void aMoveAcceptedUnderTheRulesThenInForceIsAppliedAfterTheRulesChanged() {
        Services s = engine.services();
        Operator ops = new Operator("olga", Role.OPS);
        s.rules().set(ops, REFUNDS);
        s.orders().create(ops, "rc-refund", null, Duration.ofMinutes(30));
        assertThat(s.transitions().transition(ops, TransitionRequest.of("rc-refund", OrderStatus.PAID, "t", "paid")).applied()).isTrue();
        s.follower().drainOnce();
        assertThat(s.transitions().transition(ops, TransitionRequest.of("rc-refund", OrderStatus.CANCELLED, "t", "refund")).applied())
                .as("a refund the rules in force allow").isTrue();
        // Refunds are turned off before the follower applies the refund.
        s.rules().set(ops, NO_REFUNDS);
        s.follower().drainOnce();
        assertThat(s.deadLetters().open(10)).as("no false dead letter").isEmpty();
        assertThat(RawSql.count("SELECT status FROM orders WHERE order_id = 'rc-refund'")).isEqualTo(OrderStatus.CANCELLED.code());
        assertThat(RawSql.count("SELECT COUNT(*) FROM order_history WHERE order_id = 'rc-refund' AND to_status = 6 AND result_code = 1"))
                .isEqualTo(1);
        // The rules in force now are what Redis judges by from now on.
        s.orders().create(ops, "rc-later", null, Duration.ofMinutes(30));
        s.transitions().transition(ops, TransitionRequest.of("rc-later", OrderStatus.PAID, "t", "paid"));
        assertThat(s.transitions().transition(ops, TransitionRequest.of("rc-later", OrderStatus.CANCELLED, "t", "refund")).applied())
                .isFalse();
    }
}
