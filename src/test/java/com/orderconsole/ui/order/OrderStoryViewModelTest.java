package com.orderconsole.ui.order;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.orderconsole.domain.Operator;
import com.orderconsole.domain.OrderStatus;
import com.orderconsole.domain.Role;
import com.orderconsole.domain.TransitionRequest;
import com.orderconsole.ui.ViewModelTestBase;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;

import static org.assertj.core.api.Assertions.assertThat;

/** The story in the order detail (issue 13.4): read when open, rejected attempts in words, state at a moment, export. */
class OrderStoryViewModelTest extends ViewModelTestBase {
    private OrderDetailViewModel detail() {
        return new OrderDetailViewModel(pages(Role.SUPPORT).orders(), pages(Role.SUPPORT).transitions(), new Operator("sam", Role.SUPPORT), background, dialogs);
    }

    @Test
    void theStoryIsReadWhenOpenedAndExplainsARejectedPaymentAfterTheTimeoutCancel(@TempDir Path dir) throws Exception {
        // The set-up cancels in the sweeper's name before the payment deadline and reads the story before any follower ran.
        // Over serve its own follower runs and rightly sets that cancel aside as out of sequence (a sweeper cancel dated
        // before MySQL's deadline), so the story there has other steps: this case is the in-process story's.
        org.junit.jupiter.api.Assumptions.assumeFalse(remote(), "needs a sweeper cancel no follower has judged yet");
        createOrder("sv-1");
        services.transitions().transition(new Operator("sweeper", Role.SUPPORT),
                TransitionRequest.of("sv-1", OrderStatus.CANCELLED, "sweeper", "payment deadline passed"));
        services.transitions().transition(new Operator("payment-gw", Role.SUPPORT),
                TransitionRequest.of("sv-1", OrderStatus.PAID, "cli", "callback"));

        OrderDetailViewModel vm = detail();
        vm.load("sv-1");
        OrderStoryViewModel story = vm.story();
        assertThat(story.storyProperty().get()).as("not read while closed").isNull();
        story.openProperty().set(true);
        assertThat(story.steps()).hasSize(3);
        assertThat(story.steps().get(2).entry().code().applied()).isFalse();
        assertThat(com.orderconsole.app.StoryWords.step(story.steps().get(2)))
                .contains("after the timeout cancel: rejected, the order was already CANCELLED");
        assertThat(story.steps().get(1).pending()).as("the follower has not run: sync pending").isTrue();
        assertThat(story.stateAtProperty().get()).contains("the order was CANCELLED");

        story.select(story.steps().get(0));
        assertThat(story.stateAtProperty().get()).contains("the order was WAIT_PAY (version 1");
        story.momentProperty().set(story.firstMs() - 1);
        assertThat(story.stateAtProperty().get()).contains("did not exist yet");

        Path file = dir.resolve("story.json");
        dialogs.file(file);
        story.exportJson();
        JsonNode json = new ObjectMapper().readTree(Files.readString(file));
        assertThat(json.get("orderId").asText()).isEqualTo("sv-1");
        assertThat(json.get("steps")).hasSize(3);
        assertThat(json.get("syncPending").asBoolean()).isTrue();
        assertThat(story.feedback().messageProperty().get()).startsWith("Exported 3 steps to ");
    }

    @Test
    void anotherOrderOrAnUnknownOneClearsTheStory() {
        createOrder("sv-2");
        OrderDetailViewModel vm = detail();
        vm.story().openProperty().set(true);
        vm.load("sv-2");
        assertThat(vm.story().steps()).hasSize(1);
        vm.load("nope-77");
        assertThat(vm.story().steps()).as("an unknown id leaves no old story behind").isEmpty();
        assertThat(vm.story().storyProperty().get()).isNull();
    }

    /** Issue 34: an admin's override read like a move in the story, without its reason. */
    @Test
    void anOverrideIsToldAsOneWithItsReason() {
        createOrder("so-1");
        move("so-1", OrderStatus.PAID);
        services.transitions().transition(new Operator("ada", Role.ADMIN),
                new TransitionRequest("so-1", OrderStatus.FINISHED, 2L, "console", "delivered, courier scan missing", true));
        services.follower().drainOnce();
        OrderDetailViewModel vm = detail();
        vm.load("so-1");
        vm.story().openProperty().set(true);
        assertThat(vm.story().steps()).hasSize(3);
        assertThat(vm.story().steps().get(1).override()).as("the rule-checked payment").isFalse();
        assertThat(vm.story().steps().get(2).override()).isTrue();
        assertThat(com.orderconsole.app.StoryWords.step(vm.story().steps().get(2)))
                .startsWith("OVERRIDE PAID → FINISHED outside the rules by ada via console, because: delivered, courier scan missing");
    }

    @Test
    void aNewStepMovesTheSummaryToItUnlessAnEarlierMomentWasChosen() throws Exception {
        createOrder("sv-new");
        OrderDetailViewModel vm = detail();
        vm.story().openProperty().set(true);
        vm.load("sv-new");
        assertThat(vm.story().stateAtProperty().get()).contains("the order was WAIT_PAY (version 1");
        Thread.sleep(5);
        vm.move(OrderStatus.PAID, "paid at the counter");
        assertThat(vm.story().steps()).hasSize(2);
        assertThat(vm.story().stateAtProperty().get()).as("the summary follows the new step")
                .contains("the order was PAID (version 2");

        vm.story().select(vm.story().steps().get(0));
        Thread.sleep(5);
        vm.move(OrderStatus.WAIT_SHIP, "packed");
        assertThat(vm.story().steps()).hasSize(3);
        assertThat(vm.story().stateAtProperty().get()).as("a moment chosen earlier stays")
                .contains("the order was WAIT_PAY (version 1");
    }

    @Test
    void inChineseTheStoryNamesStatusesInChinese() {
        createOrder("sv-zh");
        move("sv-zh", OrderStatus.CANCELLED);
        com.orderconsole.app.Messages.use(com.orderconsole.app.Languages.ZH_CN);
        try {
            OrderDetailViewModel vm = detail();
            vm.story().openProperty().set(true);
            vm.load("sv-zh");
            assertThat(vm.story().stateAtProperty().get()).contains("已取消").doesNotContain("CANCELLED");
            assertThat(com.orderconsole.app.StoryWords.step(vm.story().steps().get(0))).contains("待支付").doesNotContain("WAIT_PAY");
            assertThat(com.orderconsole.app.StoryWords.step(vm.story().steps().get(1))).contains("已取消").doesNotContain("CANCELLED");
        } finally {
            com.orderconsole.app.Messages.use(java.util.Locale.ENGLISH);
        }
    }
}
