package com.orderconsole.ui.profile;

import com.orderconsole.app.Messages;
import com.orderconsole.ui.common.Styles;
import javafx.scene.control.Button;
import javafx.scene.control.ButtonBar;
import javafx.scene.control.ButtonType;
import javafx.scene.control.Dialog;
import javafx.scene.control.DialogPane;
import javafx.scene.control.Label;
import javafx.scene.control.ListCell;
import javafx.scene.control.ListView;
import javafx.scene.layout.HBox;
import javafx.scene.layout.Region;
import javafx.scene.layout.VBox;
import javafx.stage.Window;

import java.util.Optional;

/** The profile picker: a list of environments, each with its colour, and the refused profiles below. */
public final class ProfilePickerView {
    private final ProfilePickerViewModel vm;

    public ProfilePickerView(ProfilePickerViewModel vm) {
        this.vm = vm;
    }

    /**
     * Shows the picker and waits.
     *
     * @param owner the window it belongs to
     * @return the choice, empty when the user quits
     */
    public Optional<ProfilePickerViewModel.Choice> open(Window owner) {
        Dialog<ProfilePickerViewModel.Choice> d = new Dialog<>();
        d.initOwner(owner);
        d.setTitle(Messages.get("profile.picker.title"));
        d.setHeaderText(Messages.get("profile.picker.header"));
        ListView<ProfilePickerViewModel.Choice> list = new ListView<>(vm.choices());
        list.setId("profileList");
        list.setPrefHeight(Math.min(320, 56 * vm.choices().size() + 8));
        list.setCellFactory(v -> new ChoiceCell());
        list.getSelectionModel().select(vm.selectedProperty().get());
        list.getSelectionModel().selectedItemProperty().addListener((o, a, c) -> vm.selectedProperty().set(c));
        VBox content = new VBox(8, list);
        if (!vm.faults().isEmpty()) {
            Label faults = new Label(Messages.get("profile.picker.faults") + "\n" + String.join("\n", vm.faults()));
            faults.setId("profileFaults");
            faults.setWrapText(true);
            faults.getStyleClass().add("msg-error");
            content.getChildren().add(faults);
        }
        content.setPrefWidth(560);
        d.getDialogPane().setContent(content);
        ButtonType open = new ButtonType(Messages.get("profile.picker.open"), ButtonBar.ButtonData.OK_DONE);
        ButtonType quit = new ButtonType(Messages.get("profile.picker.quit"), ButtonBar.ButtonData.CANCEL_CLOSE);
        d.getDialogPane().getButtonTypes().addAll(open, quit);
        d.getDialogPane().lookupButton(open).setId("profileOpen");
        d.getDialogPane().lookupButton(open).disableProperty().bind(vm.selectedProperty().isNull());
        list.setOnMouseClicked(e -> {
            if (e.getClickCount() == 2 && vm.selectedProperty().get() != null) {
                ((Button) d.getDialogPane().lookupButton(open)).fire();
            }
        });
        d.setResultConverter(b -> b == open ? vm.selectedProperty().get() : null);
        showEnvironmentColour(d.getDialogPane(), content);
        d.setOnShown(e -> list.requestFocus());
        return d.showAndWait();
    }

    /** The chosen environment's colour along the dialog's top edge and on its header, as the window's band will be. */
    private void showEnvironmentColour(DialogPane pane, VBox content) {
        Label band = new Label();
        band.setId("pickerBand");
        band.setMaxWidth(Double.MAX_VALUE);
        content.getChildren().add(0, band);
        Runnable colour = () -> {
            ProfilePickerViewModel.Choice c = vm.selectedProperty().get();
            String col = c == null ? "transparent" : c.environment().colour();
            pane.setStyle("-fx-border-color: " + col + "; -fx-border-width: 6 0 0 0;");
            band.setText(c == null ? "" : c.title());
            band.setStyle(c == null ? "" : Styles.environmentBand(c.environment()));
        };
        colour.run();
        vm.selectedProperty().addListener((o, a, c) -> colour.run());
    }

    /** A profile in the list: its environment's colour, its title and where its servers are. */
    private static final class ChoiceCell extends ListCell<ProfilePickerViewModel.Choice> {
        @Override
        protected void updateItem(ProfilePickerViewModel.Choice c, boolean empty) {
            super.updateItem(c, empty);
            if (empty || c == null) {
                setGraphic(null);
                setText(null);
                return;
            }
            Region swatch = new Region();
            swatch.setMinSize(14, 32);
            swatch.setStyle("-fx-background-color: " + c.environment().colour() + ";");
            Label title = new Label(c.title());
            title.setStyle("-fx-font-weight: bold;");
            Label where = new Label(c.where());
            where.getStyleClass().add("text-muted");
            setGraphic(new HBox(10, swatch, new VBox(2, title, where)));
            setText(null);
        }
    }
}
