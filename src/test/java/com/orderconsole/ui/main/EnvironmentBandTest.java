package com.orderconsole.ui.main;

import com.orderconsole.domain.Environment;
import com.orderconsole.domain.Role;
import com.orderconsole.ui.ConsoleFxTest;
import com.orderconsole.ui.common.FxDialogService;
import javafx.application.Platform;
import javafx.scene.control.Button;
import javafx.scene.control.Label;
import javafx.scene.control.TextField;
import javafx.stage.Stage;
import javafx.stage.Window;
import org.junit.jupiter.api.Test;
import org.testfx.util.WaitForAsyncUtils;

import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;

/** The real window on a production profile: the band on every page, and typed confirmation in the dialog. */
class EnvironmentBandTest extends ConsoleFxTest {
    @org.junit.jupiter.api.BeforeEach
    void inEnglish() {
        com.orderconsole.app.Messages.use(java.util.Locale.ENGLISH);
    }

    private static final Environment PROD = new Environment("prod-eu", Environment.Kind.PRODUCTION, "#c62828");

    @Test
    void theBandNamesTheEnvironmentInItsColourOnEveryPage() throws Exception {
        environment = PROD;
        openConsole("olga", Role.OPS);
        for (Page p : Page.values()) {
            onFx(() -> {
                vm.pageProperty().set(p);
                return null;
            });
            WaitForAsyncUtils.waitForFxEvents();
            assertThat(shown("#environmentBand")).as(p.name()).isTrue();
            assertThat(text("#environmentBand")).isEqualTo("prod-eu · production");
        }
        String style = onFx(() -> lookup("#environmentBand").queryAs(Label.class).getStyle());
        assertThat(style).contains("-fx-background-color: #c62828");
        double bandWidth = onFx(() -> lookup("#environmentBand").queryAs(Label.class).getWidth());
        assertThat(bandWidth).as("full width at 1280x800").isGreaterThanOrEqualTo(1279);
        // Issue 34: 24 px read as a thin stripe at 1920×1080; production's band is taller.
        double bandHeight = onFx(() -> lookup("#environmentBand").queryAs(Label.class).getHeight());
        assertThat(bandHeight).isGreaterThanOrEqualTo(32);
    }

    @Test
    void aTypedConfirmationStaysShutUntilTheTextMatchesAndItsTitleNamesTheEnvironment() throws Exception {
        environment = PROD;
        openConsole("olga", Role.OPS);
        Window owner = onFx(() -> Window.getWindows().stream().filter(Window::isShowing).findFirst().orElseThrow());
        FxDialogService dialogs = new FxDialogService(() -> owner, PROD);
        CompletableFuture<Boolean> answer = new CompletableFuture<>();
        Platform.runLater(() -> answer.complete(dialogs.confirmTyped("Override order status", "Force order o-7 to SHIPPED?", "o-7")));
        WaitForAsyncUtils.waitFor(20, TimeUnit.SECONDS, () -> onFx(() -> lookup("#typedField").tryQuery().isPresent()));
        Stage dialog = onFx(() -> (Stage) lookup("#typedField").query().getScene().getWindow());
        assertThat(onFx(dialog::getTitle)).isEqualTo("[prod-eu] Override order status");
        assertThat(text("#typedPrompt")).isEqualTo("This is prod-eu, a production environment. Type o-7 to confirm.");
        Button confirm = onFx(() -> lookup("#confirmButton").queryAs(Button.class));
        assertThat(onFx(confirm::isDisabled)).isTrue();
        clickOn("#typedField").write("o-");
        assertThat(onFx(confirm::isDisabled)).as("half the id").isTrue();
        write("7");
        assertThat(onFx(confirm::isDisabled)).isFalse();
        assertThat(onFx(() -> lookup("#typedField").queryAs(TextField.class).getText())).isEqualTo("o-7");
        clickOn("#confirmButton");
        assertThat(answer.get(20, TimeUnit.SECONDS)).isTrue();
    }

    /** Issue 34: the sign-in dialog of a production profile showed no environment colour. */
    @Test
    void theSignInDialogIsToppedByTheEnvironmentsBand() throws Exception {
        environment = PROD;
        openConsole("olga", Role.OPS);
        Label band = onFx(() -> {
            com.orderconsole.ui.signin.SignInViewModel signIn = new com.orderconsole.ui.signin.SignInViewModel(
                    com.orderconsole.TestServers.config(), new com.orderconsole.ui.common.FxBackground(1));
            return (Label) new com.orderconsole.ui.signin.SignInView(signIn, PROD).root().lookup("#band");
        });
        assertThat(onFx(band::getText)).isEqualTo("prod-eu · production");
        assertThat(onFx(band::getStyle)).contains("-fx-background-color: #c62828");
    }
}
