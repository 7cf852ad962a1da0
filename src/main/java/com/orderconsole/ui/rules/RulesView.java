package com.orderconsole.ui.rules;

import com.orderconsole.app.Messages;
import com.orderconsole.ui.common.Fxml;
import com.orderconsole.ui.common.Styles;
import javafx.beans.binding.Bindings;
import javafx.fxml.FXML;
import javafx.scene.control.Button;
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
                : Messages.format("rules.inForce", vm.inForceProperty().get().version()), vm.inForceProperty()));
        editedLabel.visibleProperty().bind(vm.editedProperty());
        for (Button b : List.of(revertButton, validateButton, applyButton)) {
            b.setVisible(canEdit);
            b.setManaged(canEdit);
        }
        validateButton.disableProperty().bind(vm.editCommand().executableProperty().not());
        applyButton.disableProperty().bind(vm.editCommand().executableProperty().not());
        revertButton.disableProperty().bind(vm.revertCommand().executableProperty().not());
        rulesRoleHint.setVisible(!canEdit);
        rulesRoleHint.setManaged(!canEdit);

        faultsList.setItems(vm.faults());
        faultsList.visibleProperty().bind(Bindings.isNotEmpty(vm.faults()));
        faultsList.managedProperty().bind(faultsList.visibleProperty());
        Styles.toggle(rulesMessage, vm.feedback());
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
        vm.confirmAndApply();
    }
}
