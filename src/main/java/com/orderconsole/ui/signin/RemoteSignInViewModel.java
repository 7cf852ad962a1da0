package com.orderconsole.ui.signin;

import com.orderconsole.app.Messages;
import com.orderconsole.app.Profile;
import com.orderconsole.app.remote.BrowserOpener;
import com.orderconsole.app.remote.OidcSession;
import com.orderconsole.app.remote.RemoteStart;
import com.orderconsole.app.remote.SignInRequiredException;
import com.orderconsole.ui.common.Background;
import com.orderconsole.ui.common.Job;
import javafx.beans.property.ReadOnlyBooleanProperty;
import javafx.beans.property.ReadOnlyBooleanWrapper;
import javafx.beans.property.ReadOnlyStringProperty;
import javafx.beans.property.ReadOnlyStringWrapper;

import java.net.URI;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.Consumer;

/**
 * The start page of a remote profile: "Sign in with" the profile's identity provider in the system browser, off the
 * JavaFX thread, with a way to cancel; the address is shown too in case no browser appears. The same session signs in
 * again when it ends mid-work, so the services built on it keep working with the new tokens.
 */
public final class RemoteSignInViewModel {
    /** Makes the session with the identity provider (blocking: reads its discovery document). */
    @FunctionalInterface
    public interface Connect {
        OidcSession connect(URI issuer, String clientId);
    }

    private final Profile profile;
    private final Background background;
    private final Connect connect;
    private final BrowserOpener opener;
    private final AtomicReference<OidcSession> session = new AtomicReference<>();
    private final ReadOnlyStringWrapper status = new ReadOnlyStringWrapper("");
    private final ReadOnlyStringWrapper address = new ReadOnlyStringWrapper("");
    private final ReadOnlyStringWrapper failure = new ReadOnlyStringWrapper("");
    private final ReadOnlyBooleanWrapper busy = new ReadOnlyBooleanWrapper();
    private volatile boolean cancelled;
    private Job job;

    /**
     * @param profile a remote profile with issuer and client id
     * @param background where the sign-in runs (it blocks until the person is done in the browser)
     * @param connect makes the session ({@code OidcSession::connect} in the console)
     * @param opener the browser ({@link BrowserOpener#system()} in the console)
     */
    public RemoteSignInViewModel(Profile profile, Background background, Connect connect, BrowserOpener opener) {
        if (!profile.signsInWithIssuer()) {
            throw new IllegalArgumentException(Messages.format("remote.signin.noIssuer", profile.name()));
        }
        this.profile = profile;
        this.background = background;
        this.connect = connect;
        this.opener = opener;
    }

    /** @return the console's model for {@code profile}: the real identity provider and the system browser */
    public static RemoteSignInViewModel forProfile(Profile profile, Background background) {
        return new RemoteSignInViewModel(profile, background, OidcSession::connect, BrowserOpener.system());
    }

    /** @return e.g. "Sign in with login.example.com" */
    public String buttonText() {
        return Messages.format("remote.signin.button", profile.issuer().getAuthority());
    }

    /** @return e.g. "prod-eu works through serve at orders.example.com. ..." */
    public String intro() {
        return Messages.format("remote.signin.intro", profile.name(), profile.server().getAuthority());
    }

    /** @return the profile signed in to */
    public Profile profile() {
        return profile;
    }

    /**
     * Signs in in the system browser; the outcome comes back on the UI thread. Does nothing while a sign-in runs.
     *
     * @param ready receives serve's URL, the session (as the access tokens) and the environment
     * @param failed receives why the sign-in did not complete, in words (also in {@link #failureProperty()})
     */
    public void signIn(Consumer<RemoteStart> ready, Consumer<String> failed) {
        if (busy.get()) {
            return;
        }
        busy.set(true);
        cancelled = false;
        failure.set("");
        address.set("");
        status.set(Messages.get("remote.signin.waiting"));
        job = background.run(Messages.get("remote.signin.action"), j -> {
            OidcSession s = session.get();
            if (s == null) {
                s = connect.connect(profile.issuer(), profile.clientId());
                session.set(s);
            }
            if (cancelled) {
                throw new SignInRequiredException(Messages.get("oidc.cancelled"));
            }
            s.signInWithBrowser(opener, uri -> background.fx(() -> address.set(uri.toString())));
            return s;
        }, s -> {
            busy.set(false);
            address.set("");
            status.set(s.who().map(w -> Messages.format("remote.signin.done", w.name())).orElse(""));
            ready.accept(new RemoteStart(profile.server(), s, profile.environment()));
        }, error -> {
            busy.set(false);
            status.set("");
            failure.set(error);
            failed.accept(error);
        });
    }

    /** Stops a sign-in in progress; it ends as "the sign-in was cancelled". */
    public void cancel() {
        cancelled = true;
        OidcSession s = session.get();
        if (s != null) {
            s.cancel();
        }
        if (job != null) {
            job.cancel();
        }
    }

    /** @return the session once made (signed in or not) */
    public Optional<OidcSession> session() {
        return Optional.ofNullable(session.get());
    }

    /** @return what is happening, e.g. "Waiting for you to finish signing in in your browser..." */
    public ReadOnlyStringProperty statusProperty() {
        return status.getReadOnlyProperty();
    }

    /** @return the sign-in address opened in the browser while a sign-in waits, "" otherwise */
    public ReadOnlyStringProperty addressProperty() {
        return address.getReadOnlyProperty();
    }

    /** @return why the last sign-in did not complete, in words; "" when it did or none ran */
    public ReadOnlyStringProperty failureProperty() {
        return failure.getReadOnlyProperty();
    }

    /** @return true while a sign-in runs */
    public ReadOnlyBooleanProperty busyProperty() {
        return busy.getReadOnlyProperty();
    }
}
