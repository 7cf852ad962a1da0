package com.orderconsole.ui.signin;

import com.orderconsole.app.Messages;
import com.orderconsole.app.remote.RemoteStart;
import com.orderconsole.ui.common.Styles;
import javafx.application.Platform;
import javafx.geometry.Insets;
import javafx.geometry.Pos;
import javafx.scene.control.Button;
import javafx.scene.control.Label;
import javafx.scene.control.TextField;
import javafx.scene.layout.HBox;
import javafx.scene.layout.VBox;

import java.util.function.Consumer;

/**
 * The start page of a remote profile: one "Sign in with ..." button (the default button, focused, so Enter signs in), a
 * Cancel while the browser sign-in waits, the address in a selectable field in case no browser appeared, and why a
 * sign-in did not complete. The console never asks for a password here: the identity provider does, in the browser.
 */
public final class RemoteSignInView {
    private final VBox root;
    private final Button signIn;

    /**
     * @param vm the sign-in's model
     * @param ready receives the signed-in start (on the UI thread)
     * @param declined runs when the person chooses not to sign in (Quit on the start page, Not now in the dialog)
     * @param declineText the decline button's text
     */
    public RemoteSignInView(RemoteSignInViewModel vm, Consumer<RemoteStart> ready, Runnable declined, String declineText) {
        Label title = new Label(Messages.get("main.orderStateConsole"));
        title.getStyleClass().add("title-1");
        Label intro = new Label(vm.intro());
        intro.setWrapText(true);
        signIn = new Button(vm.buttonText());
        signIn.setId("remoteSignInButton");
        signIn.setDefaultButton(true);
        signIn.disableProperty().bind(vm.busyProperty());
        signIn.setOnAction(e -> vm.signIn(ready, error -> signIn.requestFocus()));
        Button cancel = new Button(Messages.get("remote.signin.cancel"));
        cancel.setId("remoteSignInCancel");
        cancel.setCancelButton(true);
        cancel.visibleProperty().bind(vm.busyProperty());
        cancel.managedProperty().bind(vm.busyProperty());
        cancel.setOnAction(e -> vm.cancel());
        Button decline = new Button(declineText);
        decline.setId("remoteSignInDecline");
        decline.visibleProperty().bind(vm.busyProperty().not());
        decline.managedProperty().bind(vm.busyProperty().not());
        decline.setOnAction(e -> declined.run());
        HBox buttons = new HBox(10, signIn, cancel, decline);
        buttons.setAlignment(Pos.CENTER);
        Label status = new Label();
        status.setWrapText(true);
        status.textProperty().bind(vm.statusProperty());
        Label addressHint = new Label(Messages.get("remote.signin.address"));
        addressHint.setWrapText(true);
        TextField address = new TextField();
        address.setId("remoteSignInAddress");
        address.setEditable(false);
        address.textProperty().bind(vm.addressProperty());
        VBox addressBox = new VBox(4, addressHint, address);
        addressBox.visibleProperty().bind(vm.addressProperty().isNotEmpty());
        addressBox.managedProperty().bind(addressBox.visibleProperty());
        Label failure = new Label();
        failure.setId("remoteSignInFailure");
        failure.setWrapText(true);
        failure.textProperty().bind(vm.failureProperty());
        Styles.toggle(failure, Styles.MSG_ERROR, true);
        root = new VBox(14, title, intro, buttons, status, addressBox, failure);
        root.setAlignment(Pos.CENTER);
        root.setPadding(new Insets(30, 40, 30, 40));
        root.setPrefWidth(560);
    }

    /** @return the page's root */
    public VBox root() {
        return root;
    }

    /** Puts the keyboard on the sign-in button once the page is shown. */
    public void focus() {
        Platform.runLater(signIn::requestFocus);
    }
}
