package com.orderconsole.ui.signin;

import com.orderconsole.app.remote.AccessTokens;
import com.orderconsole.app.remote.SignInRequiredException;
import com.orderconsole.ui.common.Background;
import com.orderconsole.ui.common.Job;

import java.util.ArrayList;
import java.util.List;
import java.util.function.Consumer;

/**
 * The console's background work in remote mode: when a person's session has ended (no access token can be had without a
 * new sign-in), the console asks them once to sign in again instead of failing each page's call, and after the sign-in
 * runs the waiting work again, so the action they started completes and nothing they typed is lost. When they decline,
 * each waiting piece of work fails in words as before. Nothing reaches serve without a token: the token is asked for
 * before the work, and a refusal found by the work itself (serve's second 401) is handled the same way.
 */
public final class SignInGuard implements Background {
    /** Asks the person to sign in again; called on the UI thread. */
    @FunctionalInterface
    public interface SignInAgain {
        /**
         * @param why what ended the session, in words
         * @param outcome receives true once signed in again, false when the person declined or the sign-in failed
         */
        void ask(String why, Consumer<Boolean> outcome);
    }

    private final Background delegate;
    private final AccessTokens tokens;
    private final SignInAgain again;
    private final List<Consumer<Boolean>> waiting = new ArrayList<>();

    /**
     * @param delegate where the work runs
     * @param tokens the session's access tokens
     * @param again asks the person to sign in again
     */
    public SignInGuard(Background delegate, AccessTokens tokens, SignInAgain again) {
        this.delegate = delegate;
        this.tokens = tokens;
        this.again = again;
    }

    @Override
    public <T> Job run(String what, Work<T> work, Consumer<? super T> onSuccess, Consumer<String> onError) {
        SignInRequiredException[] ended = new SignInRequiredException[1];
        return delegate.run(what, job -> {
            try {
                tokens.current();
                return work.call(job);
            } catch (SignInRequiredException e) {
                ended[0] = e;
                throw e;
            }
        }, onSuccess, error -> {
            if (ended[0] == null) {
                onError.accept(error);
                return;
            }
            waitForSignIn(ended[0].getMessage(), signedIn -> {
                if (signedIn) {
                    run(what, work, onSuccess, onError);
                } else {
                    onError.accept(error);
                }
            });
        });
    }

    private void waitForSignIn(String why, Consumer<Boolean> then) {
        waiting.add(then);
        if (waiting.size() > 1) {
            // One question for every call that found the session ended; they all go on after its answer.
            return;
        }
        again.ask(why, signedIn -> {
            List<Consumer<Boolean>> all = new ArrayList<>(waiting);
            waiting.clear();
            all.forEach(w -> w.accept(signedIn));
        });
    }

    @Override
    public void fx(Runnable update) {
        delegate.fx(update);
    }
}
