package com.orderconsole.ui.common;

import javafx.beans.binding.Bindings;
import javafx.scene.Node;
import javafx.scene.control.Button;
import javafx.scene.control.ButtonBar;
import javafx.scene.control.ButtonType;
import javafx.scene.control.Dialog;
import javafx.scene.control.Label;
import javafx.scene.control.TextArea;
import javafx.scene.layout.VBox;

import java.util.Optional;

/**
 * Asks for a reason and a confirmation in one step: the dialog states what will happen and its
 * confirm button stays disabled until a reason is typed. Used before every status change.
 */
public final class ReasonDialog {
    private ReasonDialog() {
    }

    /**
     * Shows the dialog and waits.
     *
     * @param owner any node of the window the dialog belongs to
     * @param title window title, e.g. "Move order"
     * @param statement what will happen, e.g. "Move order o-1 from PAID to WAIT_SHIP (version 2)?"
     * @param confirmLabel text of the confirm button, e.g. "Move to WAIT_SHIP"
     * @return the stripped reason when confirmed, empty when cancelled
     */
    public static Optional<String> ask(Node owner, String title, String statement, String confirmLabel) {
        Dialog<String> dialog = new Dialog<>();
        dialog.initOwner(owner.getScene().getWindow());
        dialog.setTitle(title);
        dialog.setHeaderText(statement);
        ButtonType confirm = new ButtonType(confirmLabel, ButtonBar.ButtonData.OK_DONE);
        dialog.getDialogPane().getButtonTypes().addAll(confirm, ButtonType.CANCEL);
        TextArea reason = new TextArea();
        reason.setId("reasonField");
        reason.setPromptText("Why? Kept in the order's history.");
        reason.setPrefRowCount(3);
        reason.setWrapText(true);
        VBox box = new VBox(6, new Label("Reason"), reason);
        dialog.getDialogPane().setContent(box);
        dialog.getDialogPane().lookupButton(confirm).disableProperty()
                .bind(Bindings.createBooleanBinding(() -> reason.getText().isBlank(), reason.textProperty()));
        Button confirmButton = (Button) dialog.getDialogPane().lookupButton(confirm);
        confirmButton.setId("confirmButton");
        // Status names contain '_', which a button would otherwise take as a mnemonic marker.
        confirmButton.setMnemonicParsing(false);
        dialog.setResultConverter(b -> b == confirm ? reason.getText().strip() : null);
        dialog.setOnShown(e -> reason.requestFocus());
        return dialog.showAndWait();
    }
}
