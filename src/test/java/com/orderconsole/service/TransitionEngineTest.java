package com.orderconsole.service;

import com.orderconsole.TestServers;
import com.orderconsole.app.Engine;
import com.orderconsole.domain.Operator;
import com.orderconsole.domain.OrderStatus;
import com.orderconsole.domain.ResultCode;
import com.orderconsole.domain.Role;
import com.orderconsole.domain.TransitionRequest;
import com.orderconsole.domain.TransitionResult;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import java.time.Duration;

import static org.assertj.core.api.Assertions.assertThat;

class TransitionEngineTest {
    private Engine engine;
    private Services s;
    private final Operator support = new Operator("alice", Role.SUPPORT);

    @BeforeEach
    void start() {
        engine = TestServers.freshEngine();
        s = engine.services();
    }

    @AfterEach
    void stop() {
        engine.close();
    }

    @Test
    void payThenShipFollowsTheRulesAndReachesMySql() {
        s.orders().create(support, "o-1", null, Duration.ofMinutes(30));
        TransitionResult paid = s.transitions().transition(support, TransitionRequest.of("o-1", OrderStatus.PAID, "test", "paid"));
        assertThat(paid.code()).isEqualTo(ResultCode.APPLIED);
        assertThat(paid.version()).isEqualTo(2);
        TransitionResult skip = s.transitions().transition(support, TransitionRequest.of("o-1", OrderStatus.FINISHED, "test", ""));
        assertThat(skip.code()).isEqualTo(ResultCode.NOT_ALLOWED);
        assertThat(skip.version()).isEqualTo(2);

        s.sync().drainOnce();
        OrderDetails d = s.orders().lookup("o-1");
        assertThat(d.summary().mysqlStatus()).isEqualTo(OrderStatus.PAID);
        assertThat(d.summary().mysqlVersion()).isEqualTo(2);
        assertThat(d.summary().disagrees()).isFalse();
        assertThat(d.history()).extracting(h -> h.code()).containsExactly(ResultCode.APPLIED, ResultCode.APPLIED, ResultCode.NOT_ALLOWED);
        assertThat(d.legalTargets()).containsExactly(OrderStatus.WAIT_SHIP);
        assertThat(d.queueExpiryMs()).as("paid orders leave the cancel queue").isNull();
    }
}
