package com.orderconsole.ui.order;

import com.orderconsole.domain.Operator;
import com.orderconsole.domain.OrderStatus;
import com.orderconsole.domain.Role;
import com.orderconsole.domain.TransitionRequest;
import com.orderconsole.service.order.OrderStory;
import com.orderconsole.ui.ConsoleFxTest;
import javafx.scene.text.Text;
import org.junit.jupiter.api.Test;

import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/** The story of an order in the console: open it from the detail, read the rejected attempt in words. */
class OrderStoryViewTest extends ConsoleFxTest {
    @Test
    void openingTheStoryShowsEveryStepAndTheRejectedAttemptInWords() throws Exception {
        // Due at once: the follower applies a cancel in the sweeper's name only at or after the deadline MySQL holds.
        services.orders().create(new Operator("setup", Role.SUPPORT), "sf-1", null, java.time.Duration.ofMillis(1));
        Thread.sleep(5);
        services.transitions().transition(new Operator("sweeper", Role.SUPPORT),
                TransitionRequest.of("sf-1", OrderStatus.CANCELLED, "sweeper", "payment deadline passed"));
        services.transitions().transition(new Operator("payment-gw", Role.SUPPORT),
                TransitionRequest.of("sf-1", OrderStatus.PAID, "cli", "callback"));
        services.follower().drainOnce();
        openConsole("alice", Role.SUPPORT);
        interact(() -> vm.showOrder("sf-1"));
        waitUntil(() -> "sf-1".equals(text("#orderId")));

        clickOn("#storyPane .title");
        waitUntil(() -> this.<OrderStory.Step>rows("#stepsList").size() == 3);
        List<OrderStory.Step> steps = rows("#stepsList");
        assertThat(steps.get(2).entry().code().applied()).isFalse();
        java.util.function.Predicate<javafx.scene.Node> rejection = n -> n instanceof Text t
                && t.getText().contains("after the timeout cancel: rejected, the order was already CANCELLED");
        waitUntil(() -> from(lookup("#stepsList").queryAll()).lookup(rejection).tryQuery().isPresent());
        assertThat(text("#stateAt")).contains("the order was CANCELLED");
        assertThat(onFx(() -> lookup("#exportButton").query().isDisabled())).isFalse();
    }
}
