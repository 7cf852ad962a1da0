package com.orderconsole.ui.rules;

import com.orderconsole.ui.common.Fxml;
import com.orderconsole.ui.rules.RulesViewModel.Change;
import javafx.beans.binding.Bindings;
import javafx.fxml.FXML;
import javafx.scene.control.Alert;
import javafx.scene.control.Button;
import javafx.scene.control.ButtonBar;
import javafx.scene.control.ButtonType;
import javafx.scene.control.Label;
import javafx.scene.control.ListView;
import javafx.scene.control.TextArea;
import javafx.scene.layout.BorderPane;

import java.util.List;

/** The rules page: the document in force, editing, validation with every fault listed, apply with confirmation. */
public final class RulesView {
    private final RulesViewModel vm;
    private final BorderPane root;

    @FXML private Label rulesVersion;
    @FXML private Label editedLabel;
    @FXML private Button revertButton;
    @FXML private Button validateButton;
    @FXML private Button applyButton;
    @FXML private TextArea rulesText;
    @FXML private ListView<String> faultsList;
    @FXML private Label rulesMessage;
    @FXML private Label rulesRoleHint;

    public RulesView(RulesViewModel vm) {
        this.vm = vm;
        this.root = Fxml.load("/fxml/rules/RulesView.fxml", this);
        bind();
    }

    /** @return the page's root node */
    public BorderPane root() {
        return root;
    }

    private void bind() {
        boolean canEdit = vm.canEdit();
        rulesText.textProperty().bindBidirectional(vm.textProperty());
        rulesText.setEditable(canEdit);
        rulesVersion.textProperty().bind(Bindings.createStringBinding(() -> vm.inForceProperty().get() == null ? ""
                : "version " + vm.inForceProperty().get().version() + " in force", vm.inForceProperty()));
        editedLabel.visibleProperty().bind(vm.editedProperty());
        for (Button b : List.of(revertButton, validateButton, applyButton)) {
            b.setVisible(canEdit);
            b.setManaged(canEdit);
            b.disableProperty().bind(vm.busyProperty());
        }
        revertButton.disableProperty().unbind();
        revertButton.disableProperty().bind(vm.busyProperty().or(vm.editedProperty().not()));
        rulesRoleHint.setVisible(!canEdit);
        rulesRoleHint.setManaged(!canEdit);

        faultsList.setItems(vm.faults());
        faultsList.visibleProperty().bind(Bindings.isNotEmpty(vm.faults()));
        faultsList.managedProperty().bind(faultsList.visibleProperty());
        rulesMessage.textProperty().bind(vm.messageProperty());
        vm.messageIsErrorProperty().addListener((o, a, err) -> {
            rulesMessage.getStyleClass().removeAll("msg-error", "msg-ok");
            rulesMessage.getStyleClass().add(err ? "msg-error" : "msg-ok");
        });
    }

    @FXML
    private void onRevert() {
        vm.revert();
    }

    @FXML
    private void onValidate() {
        vm.validate();
    }

    @FXML
    private void onApply() {
        vm.prepareApply(this::confirm);
    }

    private void confirm(Change change) {
        ButtonType apply = new ButtonType("Apply as version " + change.nextVersion(), ButtonBar.ButtonData.OK_DONE);
        Alert a = new Alert(Alert.AlertType.CONFIRMATION, "", apply, ButtonType.CANCEL);
        a.initOwner(root.getScene().getWindow());
        a.setTitle("Apply transition rules");
        a.setHeaderText("Apply these rules as version " + change.nextVersion() + "?");
        a.setContentText(String.join("\n", change.changes())
                + "\n\nThey take effect for the next transition in every console, CLI and sweeper; orders keep their status.");
        Button confirm = (Button) a.getDialogPane().lookupButton(apply);
        confirm.setId("confirmApplyButton");
        // Status names contain '_', which a button would otherwise take as a mnemonic marker.
        confirm.setMnemonicParsing(false);
        a.showAndWait().filter(b -> b == apply).ifPresent(b -> vm.apply());
    }
}
