package com.orderconsole.ui.signin;

import com.orderconsole.OidcStub;
import com.orderconsole.app.Messages;
import com.orderconsole.app.Profile;
import com.orderconsole.app.remote.BrowserFollower;
import com.orderconsole.app.remote.OidcSession;
import com.orderconsole.app.remote.RemoteStart;
import com.orderconsole.domain.Environment;
import com.orderconsole.ui.OrderConsoleApp;
import com.orderconsole.ui.common.FxBackground;
import javafx.scene.control.Button;
import javafx.scene.input.KeyCode;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.testfx.api.FxRobot;
import org.testfx.api.FxToolkit;
import org.testfx.util.WaitForAsyncUtils;

import java.net.URI;
import java.nio.file.Path;
import java.util.Locale;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;

/** The remote profile's start page in a real (headless) window: the sign-in is reached and started with the keyboard alone. */
class RemoteSignInViewTest extends FxRobot {
    private OidcStub idp;
    private FxBackground background;

    @BeforeAll
    static void toolkit() throws Exception {
        FxToolkit.registerPrimaryStage();
    }

    @BeforeEach
    void start() {
        Messages.use(Locale.ENGLISH);
        idp = OidcStub.start();
        background = new FxBackground(2);
    }

    @AfterEach
    void stop() throws Exception {
        FxToolkit.cleanupStages();
        background.close();
        idp.close();
    }

    @Test
    void enterSignsInWithTheIdentityProviderAndHandsOnTheSession() throws Exception {
        Profile profile = Profile.remote(Path.of("staging-remote.properties"), new Environment("staging-remote", Environment.Kind.STAGING,
                "#ef6c00"), URI.create("https://orders.example.com"), URI.create(idp.issuer()), OidcStub.PUBLIC_CLIENT, null);
        RemoteSignInViewModel vm = new RemoteSignInViewModel(profile, background, OidcSession::connect, new BrowserFollower());
        CompletableFuture<RemoteStart> ready = new CompletableFuture<>();
        FxToolkit.setupStage(stage -> {
            RemoteSignInView view = new RemoteSignInView(vm, ready::complete, () -> ready.cancel(false), "Quit");
            stage.setScene(OrderConsoleApp.styledScene(view.root(), 560, 360));
            stage.show();
            stage.toFront();
            view.focus();
        });
        WaitForAsyncUtils.waitForFxEvents();
        Button signIn = lookup("#remoteSignInButton").queryAs(Button.class);
        assertThat(signIn.getText()).isEqualTo("Sign in with " + URI.create(idp.issuer()).getAuthority());
        assertThat(signIn.isFocused()).as("the keyboard starts on the sign-in").isTrue();
        type(KeyCode.ENTER);
        RemoteStart start = ready.get(20, TimeUnit.SECONDS);
        assertThat(start.server()).isEqualTo(URI.create("https://orders.example.com"));
        assertThat(start.tokens().current()).isNotBlank();
        WaitForAsyncUtils.waitForFxEvents();
        assertThat(vm.statusProperty().get()).isEqualTo("Signed in as alice");
    }
}
