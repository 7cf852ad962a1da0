package com.orderconsole.ui.traffic;

import com.orderconsole.service.traffic.SimulatorStatus;
import com.orderconsole.ui.common.Fxml;
import javafx.beans.binding.Bindings;
import javafx.beans.binding.BooleanBinding;
import javafx.fxml.FXML;
import javafx.scene.control.Button;
import javafx.scene.control.Label;
import javafx.scene.control.TextField;
import javafx.scene.layout.GridPane;
import javafx.scene.layout.VBox;

/**
 * The live-traffic panel beside the state graph: simulator settings, start/stop and its counters.
 * Shown only to roles that may run the simulator (ops and up).
 */
public final class TrafficView {
    private final TrafficViewModel vm;
    private final VBox root;

    @FXML private Label trafficState;
    @FXML private GridPane settingsGrid;
    @FXML private TextField rateField;
    @FXML private TextField payField;
    @FXML private TextField lateField;
    @FXML private TextField timeoutField;
    @FXML private Button startTrafficButton;
    @FXML private Button stopTrafficButton;
    @FXML private Label simCreated;
    @FXML private Label simPaid;
    @FXML private Label simLatePays;
    @FXML private Label simShipped;
    @FXML private Label simFinished;
    @FXML private Label trafficMessage;

    public TrafficView(TrafficViewModel vm) {
        this.vm = vm;
        this.root = Fxml.load("/fxml/traffic/TrafficView.fxml", this);
        bind();
    }

    /** @return the panel's root node */
    public VBox root() {
        return root;
    }

    private void bind() {
        root.setVisible(vm.canRun());
        root.setManaged(vm.canRun());
        rateField.textProperty().bindBidirectional(vm.rateProperty());
        payField.textProperty().bindBidirectional(vm.payPercentProperty());
        lateField.textProperty().bindBidirectional(vm.latePayPercentProperty());
        timeoutField.textProperty().bindBidirectional(vm.timeoutProperty());

        BooleanBinding running = Bindings.createBooleanBinding(
                () -> vm.statusProperty().get() != null && vm.statusProperty().get().running(), vm.statusProperty());
        // Settings apply at start; while it runs they are locked so what is shown is what runs.
        settingsGrid.disableProperty().bind(running.or(vm.busyProperty()));
        startTrafficButton.disableProperty().bind(running.or(vm.busyProperty()).or(vm.statusProperty().isNull()));
        stopTrafficButton.disableProperty().bind(running.not().or(vm.busyProperty()));
        vm.statusProperty().addListener((o, a, s) -> show(s));

        trafficMessage.textProperty().bind(vm.messageProperty());
        vm.messageIsErrorProperty().addListener((o, a, err) -> style(err));
        style(vm.messageIsErrorProperty().get());
        show(vm.statusProperty().get());
    }

    private void show(SimulatorStatus s) {
        trafficState.getStyleClass().remove("running");
        if (s == null) {
            trafficState.setText("…");
            return;
        }
        trafficState.setText(s.running() ? "Running" : "Stopped");
        if (s.running()) {
            trafficState.getStyleClass().add("running");
        }
        simCreated.setText(Long.toString(s.created()));
        simPaid.setText(Long.toString(s.paid()));
        simLatePays.setText(Long.toString(s.latePays()));
        simShipped.setText(Long.toString(s.shipped()));
        simFinished.setText(Long.toString(s.finished()));
    }

    private void style(boolean error) {
        trafficMessage.getStyleClass().removeAll("msg-error", "msg-ok");
        trafficMessage.getStyleClass().add(error ? "msg-error" : "msg-ok");
    }

    @FXML
    private void onStart() {
        vm.start();
    }

    @FXML
    private void onStop() {
        vm.stop();
    }
}
