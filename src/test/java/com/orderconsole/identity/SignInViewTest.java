package com.orderconsole.identity;

import com.orderconsole.Slow;
import com.orderconsole.app.EngineConfig;
import com.orderconsole.domain.Operator;
import com.orderconsole.domain.Role;
import com.orderconsole.ui.common.FxBackground;
import com.orderconsole.ui.signin.SignInView;
import com.orderconsole.ui.signin.SignInViewModel;
import javafx.scene.Scene;
import javafx.scene.control.Label;
import javafx.scene.control.PasswordField;
import javafx.scene.layout.StackPane;
import javafx.stage.Stage;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.testfx.api.FxRobot;
import org.testfx.api.FxToolkit;
import org.testfx.util.WaitForAsyncUtils;

import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

import static org.assertj.core.api.Assertions.assertThat;

/** The sign-in dialog headless: a refused password stays in the dialog with the reason, an accepted one hands over. */
@Slow
class SignInViewTest extends FxRobot {
    private final List<Operator> signedIn = new CopyOnWriteArrayList<>();
    private final List<EngineConfig> configs = new CopyOnWriteArrayList<>();
    private FxBackground background;

    @BeforeEach
    void owner() throws TimeoutException {
        Stage stage = FxToolkit.registerPrimaryStage();
        background = new FxBackground(1);
        FxToolkit.setupStage(s -> {
            s.setScene(new Scene(new StackPane(new Label("splash")), 300, 200));
            s.show();
        });
        EngineConfig config = AccessControlledDb.config("sam", "");
        java.util.function.BiConsumer<EngineConfig, com.orderconsole.domain.Operator> then = (c, o) -> {
            configs.add(c);
            signedIn.add(o);
        };
        interact(() -> {
            SignInViewModel vm = new SignInViewModel(config, background);
            vm.begin(then, () -> new SignInView(vm).open(stage, then));
        });
    }

    @AfterEach
    void close() throws TimeoutException {
        // A dialog still open (refused) quits the application when closed, which would end the FX toolkit here.
        interact(() -> javafx.stage.Window.getWindows().forEach(w -> w.setOnCloseRequest(null)));
        FxToolkit.cleanupStages();
        background.close();
    }

    @Test
    void aRefusedPasswordStaysWithTheReasonAnAcceptedOneHandsOver() throws TimeoutException {
        assertThat(lookup(".password-field").<javafx.scene.Node>query()).isInstanceOf(PasswordField.class);
        assertThat(lookup(".text-field").<javafx.scene.control.TextField>query().getText()).isEqualTo("sam");

        clickOn(".password-field").write("wrong");
        clickOn("Sign in");
        WaitForAsyncUtils.waitFor(20, TimeUnit.SECONDS, () -> lookup(".msg-error").<Label>query().getText().contains("wrong password"));
        assertThat(lookup(".password-field").<PasswordField>query().getText()).isEmpty();
        assertThat(signedIn).isEmpty();

        clickOn(".password-field").write("pw-sam");
        clickOn("Sign in");
        WaitForAsyncUtils.waitFor(20, TimeUnit.SECONDS, () -> !signedIn.isEmpty());
        assertThat(signedIn).containsExactly(new Operator("sam", Role.SUPPORT));
        assertThat(configs.get(0).dbPassword()).isEqualTo("pw-sam");
        WaitForAsyncUtils.waitForFxEvents();
        assertThat(lookup(".password-field").tryQuery()).as("the dialog closed").isEmpty();
    }

    /**
     * Issue 26 (d): a refusal was cut to "Could not sign in: the database at …" (the dialog kept the height it opened
     * with, so the wrapped reason had one line); the whole reason is readable, on a 1280x800 screen too.
     */
    @Test
    void aRefusalIsReadableWhole() throws Exception {
        clickOn(".password-field").write("wrong");
        clickOn("Sign in");
        WaitForAsyncUtils.waitFor(20, TimeUnit.SECONDS, () -> !lookup(".msg-error").<Label>query().getText().isEmpty());
        WaitForAsyncUtils.waitForFxEvents();
        Label error = lookup(".msg-error").query();
        assertThat(error.getText()).startsWith("Could not sign in").hasSizeGreaterThan(60);
        List<String> cut = new java.util.ArrayList<>();
        interact(() -> com.orderconsole.ui.CutTexts.collect(error.getScene().getRoot(), "sign-in", cut));
        assertThat(cut).as(error.getText()).isEmpty();
        javafx.geometry.Bounds b = org.testfx.util.WaitForAsyncUtils.asyncFx(() -> error.localToScreen(error.getBoundsInLocal())).get();
        javafx.stage.Window w = error.getScene().getWindow();
        assertThat(b.getMaxY()).as("the reason ends inside the dialog").isLessThanOrEqualTo(w.getY() + w.getHeight());
        assertThat(w.getHeight()).as("fits a 1280x800 screen").isLessThanOrEqualTo(800);
        assertThat(w.getWidth()).isLessThanOrEqualTo(1280);
    }
}
