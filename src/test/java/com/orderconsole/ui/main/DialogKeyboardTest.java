package com.orderconsole.ui.main;

import com.orderconsole.domain.Environment;
import com.orderconsole.domain.Role;
import com.orderconsole.ui.ConsoleFxTest;
import com.orderconsole.ui.common.FxDialogService;
import javafx.application.Platform;
import javafx.scene.control.Button;
import javafx.scene.control.Label;
import javafx.scene.control.TextArea;
import javafx.scene.input.KeyCode;
import javafx.stage.Window;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.testfx.util.WaitForAsyncUtils;

import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The real dialogs driven by the keyboard (issue 34): "type, Tab, Enter" confirms a typed confirmation instead of
 * landing on Back and cancelling it, and a reason the history would refuse keeps the dialog open with the text typed.
 */
class DialogKeyboardTest extends ConsoleFxTest {
    private static final Environment PROD = new Environment("prod-eu", Environment.Kind.PRODUCTION, "#c62828");
    private FxDialogService dialogs;

    @BeforeEach
    void inEnglishOnProduction() throws Exception {
        com.orderconsole.app.Messages.use(java.util.Locale.ENGLISH);
        environment = PROD;
        openConsole("ada", Role.ADMIN);
        Window owner = onFx(() -> Window.getWindows().stream().filter(Window::isShowing).findFirst().orElseThrow());
        dialogs = new FxDialogService(() -> owner, PROD);
    }

    @Test
    void typeTabEnterConfirmsTheProductionConfirmation() throws Exception {
        CompletableFuture<Boolean> answer = new CompletableFuture<>();
        Platform.runLater(() -> answer.complete(dialogs.confirmTyped("Override order status", "Force order o-7 to SHIPPED?", "o-7")));
        waitUntil(() -> lookup("#typedField").tryQuery().isPresent());
        clickOn("#typedField").write("o-7");
        type(KeyCode.TAB);
        assertThat(onFx(() -> lookup("#confirmButton").queryAs(Button.class).isFocused())).as("Tab goes to the confirm button").isTrue();
        type(KeyCode.ENTER);
        assertThat(answer.get(WAIT_S, TimeUnit.SECONDS)).isTrue();
    }

    @Test
    void tabBeforeTheTextMatchesStaysInTheFieldAndEnterDoesNothing() throws Exception {
        CompletableFuture<Boolean> answer = new CompletableFuture<>();
        Platform.runLater(() -> answer.complete(dialogs.confirmTyped("Bulk move", "Move 120 orders?", "", "120", "Move 120 orders")));
        waitUntil(() -> lookup("#typedConfirmation").tryQuery().isPresent());
        clickOn("#typedConfirmation").write("12");
        type(KeyCode.TAB);
        assertThat(onFx(() -> lookup("#typedConfirmation").query().isFocused())).isTrue();
        type(KeyCode.ENTER);
        assertThat(answer).as("neither confirmed nor silently cancelled").isNotDone();
        write("0");
        type(KeyCode.TAB);
        type(KeyCode.ENTER);
        assertThat(answer.get(WAIT_S, TimeUnit.SECONDS)).isTrue();
    }

    @Test
    void theTypedCountDialogSaysItIsProductionAndStaysOnScreen() throws Exception {
        CompletableFuture<Boolean> answer = new CompletableFuture<>();
        String details = "2 would move and 0 would be rejected by the rules in force. Each order is moved only if it is still at the "
                + "version the preview saw; one that moved since is reported as a conflict and left as it is.\nReason: Carrier "
                + "confirmed pickup, batch call 9940, stuck in WAIT_SHIP since 2017 across the whole warehouse of the region";
        Platform.runLater(() -> answer.complete(dialogs.confirmTyped("Bulk move", "Move 2 orders to SHIPPED?", details, "2", "Move 2 orders")));
        waitUntil(() -> lookup("#typedConfirmation").tryQuery().isPresent());
        WaitForAsyncUtils.waitForFxEvents();
        assertThat(text("#typedPrompt")).isEqualTo("This is prod-eu, a production environment. Type 2 to confirm.");
        javafx.geometry.Rectangle2D screen = onFx(() -> javafx.stage.Screen.getPrimary().getVisualBounds());
        Window dialog = onFx(() -> lookup("#typedConfirmation").query().getScene().getWindow());
        assertThat(onFx(dialog::getX)).as("left edge on screen").isGreaterThanOrEqualTo(screen.getMinX());
        assertThat(onFx(() -> dialog.getX() + dialog.getWidth())).as("right edge on screen").isLessThanOrEqualTo(screen.getMaxX());
        assertThat(onFx(dialog::getY)).isGreaterThanOrEqualTo(screen.getMinY());
        clickOn("#typedConfirmation").write("2");
        type(KeyCode.TAB);
        type(KeyCode.ENTER);
        assertThat(answer.get(WAIT_S, TimeUnit.SECONDS)).isTrue();
    }

    @Test
    void aTwoLineReasonIsRefusedInTheDialogWhichKeepsTheText() throws Exception {
        CompletableFuture<Optional<String>> answer = new CompletableFuture<>();
        Platform.runLater(() -> answer.complete(dialogs.askReason("Override order status", "Force order o-7 to SHIPPED?", "Override")));
        waitUntil(() -> lookup("#reasonField").tryQuery().isPresent());
        clickOn("#reasonField").write("duplicate order");
        // Shift+Enter starts a second line, as the support guide says; the history would refuse it, and the dialog says so.
        press(KeyCode.SHIFT).type(KeyCode.ENTER).release(KeyCode.SHIFT);
        write("customer charged twice");
        assertThat(onFx(() -> lookup("#reasonField").queryAs(TextArea.class).getText())).isEqualTo("duplicate order\ncustomer charged twice");
        assertThat(shown("#reasonProblem")).isTrue();
        assertThat(text("#reasonProblem")).contains("one line").contains("control character");
        assertThat(onFx(() -> {
            Label l = lookup("#reasonProblem").queryAs(Label.class);
            return l.getHeight() >= l.prefHeight(l.getWidth()) - 0.5;
        })).as("the words wrap whole, never cut to one line").isTrue();
        clickOn("#confirmButton");
        type(KeyCode.ENTER);
        WaitForAsyncUtils.waitForFxEvents();
        assertThat(answer).as("the dialog stays open").isNotDone();
        assertThat(onFx(() -> lookup("#reasonField").queryAs(TextArea.class).getText()))
                .isEqualTo("duplicate order\ncustomer charged twice");
        interact(() -> lookup("#reasonField").queryAs(TextArea.class).setText("duplicate order, customer charged twice"));
        assertThat(onFx(() -> lookup("#reasonProblem").queryAs(Label.class).isVisible())).isFalse();
        clickOn("#reasonField");
        type(KeyCode.ENTER);
        assertThat(answer.get(WAIT_S, TimeUnit.SECONDS)).contains("duplicate order, customer charged twice");
    }
}
