package com.orderconsole.ui.signin;

import com.orderconsole.app.Messages;
import javafx.scene.control.ButtonType;
import javafx.scene.control.Dialog;
import javafx.scene.control.Label;
import javafx.scene.layout.VBox;
import javafx.stage.Window;

import java.util.function.Consumer;
import java.util.function.Supplier;

/**
 * Asks a person whose session ended mid-work to sign in again, over the page they were on (which keeps what they typed):
 * why the session ended, then the same "Sign in with ..." as the start page. Signing in again renews the same session.
 */
public final class SignInAgainDialog implements SignInGuard.SignInAgain {
    private final RemoteSignInViewModel vm;
    private final Supplier<Window> owner;

    /**
     * @param vm the start page's model (its session is the one that ended)
     * @param owner the console's window
     */
    public SignInAgainDialog(RemoteSignInViewModel vm, Supplier<Window> owner) {
        this.vm = vm;
        this.owner = owner;
    }

    @Override
    public void ask(String why, Consumer<Boolean> outcome) {
        Dialog<Boolean> d = new Dialog<>();
        d.initOwner(owner.get());
        d.setTitle(Messages.get("remote.again.title"));
        boolean[] answered = new boolean[1];
        Consumer<Boolean> once = signedIn -> {
            if (!answered[0]) {
                answered[0] = true;
                outcome.accept(signedIn);
            }
        };
        RemoteSignInView view = new RemoteSignInView(vm, start -> {
            once.accept(true);
            d.setResult(true);
            d.close();
        }, () -> {
            vm.cancel();
            d.setResult(false);
            d.close();
        }, Messages.get("remote.again.later"));
        Label reason = new Label(Messages.format("remote.again.why", why));
        reason.setWrapText(true);
        reason.setId("signInAgainReason");
        d.getDialogPane().setContent(new VBox(10, reason, view.root()));
        // A hidden close button lets Escape and the window's close box decline too.
        d.getDialogPane().getButtonTypes().add(ButtonType.CLOSE);
        d.getDialogPane().lookupButton(ButtonType.CLOSE).setVisible(false);
        d.setOnHidden(e -> {
            vm.cancel();
            once.accept(false);
        });
        view.focus();
        d.show();
    }
}
