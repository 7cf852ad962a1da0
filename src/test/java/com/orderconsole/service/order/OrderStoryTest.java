package com.orderconsole.service.order;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.orderconsole.FreshEngine;
import com.orderconsole.app.StoryWords;
import com.orderconsole.domain.Operator;
import com.orderconsole.domain.OrderStatus;
import com.orderconsole.domain.ResultCode;
import com.orderconsole.domain.Role;
import com.orderconsole.domain.TransitionRequest;
import com.orderconsole.app.Services;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import java.time.Duration;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** The story of an order (issue 13.4): steps and rejected attempts explained, the state at a moment, pending sync, JSON. */
class OrderStoryTest {
    @RegisterExtension
    final FreshEngine engine = new FreshEngine();
    private Services s;
    private final Operator sweeper = new Operator("sweeper", Role.SUPPORT);
    private final Operator gateway = new Operator("payment-gw", Role.SUPPORT);

    @BeforeEach
    void start() {
        s = engine.services();
        s.orders().create(gateway, "st-1", null, Duration.ofMinutes(30));
    }

    @Test
    void aPaymentAfterTheTimeoutCancelIsExplainedWithTheGapAndTheStatusItMet() throws Exception {
        // Due in MySQL: the follower applies a cancel in the sweeper's name only at or after the deadline MySQL holds.
        com.orderconsole.RawSql.update("UPDATE orders SET expire_at_ms = 1000 WHERE order_id = 'st-1'");
        s.transitions().transition(sweeper, TransitionRequest.of("st-1", OrderStatus.CANCELLED, "sweeper", "payment deadline passed"));
        Thread.sleep(300);
        assertThat(s.transitions().transition(gateway, TransitionRequest.of("st-1", OrderStatus.PAID, "cli", "callback 42")).code())
                .isEqualTo(ResultCode.TERMINAL);
        s.follower().drainOnce();

        OrderStory story = s.orders().story("st-1");
        assertThat(story.steps()).hasSize(3);
        assertThat(story.syncPending()).isFalse();
        OrderStory.Step rejected = story.rejected().get(0);
        assertThat(rejected.statusBefore()).isEqualTo(OrderStatus.CANCELLED);
        assertThat(rejected.gapMs()).isBetween(250L, 5000L);
        assertThat(StoryWords.step(rejected)).matches(
                "move to PAID by payment-gw via cli \\d+\\.\\d s after the timeout cancel: rejected, the order was already CANCELLED");
        assertThat(StoryWords.versions(rejected)).isEqualTo("Redis v2 · MySQL v2");

        long cancelledAt = story.steps().get(1).entry().atMs();
        assertThat(story.stateAt(cancelledAt - 1).status()).isEqualTo(OrderStatus.WAIT_PAY);
        assertThat(story.stateAt(cancelledAt).status()).isEqualTo(OrderStatus.CANCELLED);
        assertThat(story.stateAt(story.steps().get(0).entry().atMs() - 1).status()).as("before it existed").isNull();

        com.orderconsole.app.Messages.use(java.util.Locale.SIMPLIFIED_CHINESE);
        try {
            assertThat(StoryWords.step(rejected)).contains("超时取消").endsWith("被拒绝，该订单已经是 已取消");
        } finally {
            com.orderconsole.app.Messages.use(java.util.Locale.ENGLISH);
        }

        JsonNode json = new ObjectMapper().readTree(StoryWords.json(story));
        assertThat(json.get("orderId").asText()).isEqualTo("st-1");
        assertThat(json.get("rejectedAttempts").asInt()).isEqualTo(1);
        assertThat(json.get("steps")).hasSize(3);
        assertThat(json.get("steps").get(2).get("code").asInt()).isEqualTo(-2);
        assertThat(json.get("steps").get(2).get("explanation").asText()).contains("already CANCELLED");
    }

    @Test
    void stepsRedisHasAndMySqlNotYetAreShownPendingWithBothVersions() {
        s.follower().drainOnce();
        s.transitions().transition(gateway, TransitionRequest.of("st-1", OrderStatus.PAID, "cli", "callback"));
        s.transitions().transition(gateway, TransitionRequest.of("st-1", OrderStatus.PAID, "cli", "callback repeated"));

        OrderStory story = s.orders().story("st-1");
        assertThat(story.syncPending()).isTrue();
        assertThat(story.steps()).hasSize(3);
        OrderStory.Step paid = story.steps().get(1);
        assertThat(paid.pending()).isTrue();
        assertThat(paid.redisVersion()).isEqualTo(2);
        assertThat(paid.mysqlVersion()).as("MySQL still at the creation").isEqualTo(1);
        assertThat(StoryWords.versions(paid)).isEqualTo("Redis v2 · MySQL v1 (sync pending: in Redis, not yet in MySQL)");
        assertThat(StoryWords.step(story.steps().get(2))).contains("rejected, the order was already PAID");

        s.follower().drainOnce();
        OrderStory after = s.orders().story("st-1");
        assertThat(after.syncPending()).isFalse();
        assertThat(after.steps()).hasSize(3).allMatch(st -> !st.syncPending());
    }

    @Test
    void anUnknownOrderIsAClearError() {
        assertThatThrownBy(() -> s.orders().story("nope-404")).isInstanceOf(OrderNotFoundException.class)
                .hasMessage("order nope-404 not found");
        assertThatThrownBy(() -> s.orders().story("bad id!")).isInstanceOf(IllegalArgumentException.class);
    }
}
