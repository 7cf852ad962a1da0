package com.orderconsole.ui.signin;

import com.orderconsole.OidcStub;
import com.orderconsole.app.Messages;
import com.orderconsole.app.Profile;
import com.orderconsole.app.remote.BrowserFollower;
import com.orderconsole.app.remote.OidcSession;
import com.orderconsole.app.remote.RemoteStart;
import com.orderconsole.domain.Environment;
import com.orderconsole.domain.Role;
import com.orderconsole.service.identity.OidcVerifier;
import com.orderconsole.ui.DirectBackground;
import com.orderconsole.ui.common.Background;
import com.orderconsole.ui.common.ErrorText;
import com.orderconsole.ui.common.Job;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import java.net.URI;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/** The start page of a remote profile: "Sign in with" the profile's identity provider, its outcome in words, and Cancel. */
class RemoteSignInViewModelTest {
    private OidcStub idp;
    private Profile profile;

    @BeforeEach
    void start() {
        Messages.use(Locale.ENGLISH);
        idp = OidcStub.start();
        profile = Profile.remote(Path.of("prod-remote.properties"), new Environment("prod-remote", Environment.Kind.PRODUCTION, "#c62828"),
                URI.create("https://orders.example.com"), URI.create(idp.issuer()), OidcStub.PUBLIC_CLIENT, null);
    }

    @AfterEach
    void stop() {
        idp.close();
    }

    @Test
    void signingInHandsServeTheSessionAndTheEnvironment() {
        idp.approve("dora", "console-ops");
        RemoteSignInViewModel vm = new RemoteSignInViewModel(profile, new DirectBackground(), OidcSession::connect, new BrowserFollower());
        assertThat(vm.buttonText()).isEqualTo("Sign in with " + URI.create(idp.issuer()).getAuthority());
        assertThat(vm.intro()).isEqualTo("prod-remote works through serve at orders.example.com. You sign in in your browser with your"
                + " company account; the console never asks for your password.");
        List<RemoteStart> started = new ArrayList<>();
        vm.signIn(started::add, e -> { });
        assertThat(started).singleElement().satisfies(s -> {
            assertThat(s.server()).isEqualTo(URI.create("https://orders.example.com"));
            assertThat(s.environment()).isEqualTo(profile.environment());
            assertThat(new OidcVerifier(idp.settings("console-ops=ops")).verify(s.tokens().current()).role()).isEqualTo(Role.OPS);
        });
        assertThat(vm.statusProperty().get()).isEqualTo("Signed in as dora");
        assertThat(vm.busyProperty().get()).isFalse();
        assertThat(vm.failureProperty().get()).isEmpty();
    }

    @Test
    void aRefusedSignInSaysWhyAndCanBeTriedAgain() {
        idp.refuseAuthorization("access_denied", "Not assigned to this application");
        RemoteSignInViewModel vm = new RemoteSignInViewModel(profile, new DirectBackground(), OidcSession::connect, new BrowserFollower());
        List<RemoteStart> started = new ArrayList<>();
        vm.signIn(started::add, e -> { });
        assertThat(started).isEmpty();
        assertThat(vm.failureProperty().get()).isEqualTo("Could not sign in: the identity provider at " + idp.issuer()
                + " refused the sign-in: Not assigned to this application (access_denied)");
        idp.refuseAuthorization(null, null);
        vm.signIn(started::add, e -> { });
        assertThat(started).hasSize(1);
        assertThat(vm.failureProperty().get()).isEmpty();
    }

    /** Work on its own thread, answers on the caller's side at once: enough to press Cancel while the sign-in waits. */
    private static final class ThreadBackground implements Background {
        @Override
        public <T> Job run(String what, Work<T> work, Consumer<? super T> onSuccess, Consumer<String> onError) {
            Job job = new Job();
            CompletableFuture.runAsync(() -> {
                T result;
                try {
                    result = work.call(job);
                } catch (Exception e) {
                    onError.accept(ErrorText.couldNot(what, e));
                    return;
                }
                onSuccess.accept(result);
            });
            return job;
        }

        @Override
        public void fx(Runnable update) {
            update.run();
        }
    }

    @Test
    void cancelStopsASignInThatWaitsForTheBrowserAndShowsTheAddress() throws Exception {
        CompletableFuture<String> failed = new CompletableFuture<>();
        RemoteSignInViewModel vm = new RemoteSignInViewModel(profile, new ThreadBackground(), OidcSession::connect, address -> { });
        vm.signIn(s -> failed.complete("signed in"), failed::complete);
        await().atMost(Duration.ofSeconds(5)).until(() -> !vm.addressProperty().get().isEmpty());
        assertThat(vm.addressProperty().get()).as("shown in case no browser appears").startsWith(idp.issuer() + "/auth?");
        assertThat(vm.busyProperty().get()).isTrue();
        vm.cancel();
        assertThat(failed.get(5, TimeUnit.SECONDS)).isEqualTo("Could not sign in: the sign-in was cancelled");
        assertThat(vm.busyProperty().get()).isFalse();
    }
}
