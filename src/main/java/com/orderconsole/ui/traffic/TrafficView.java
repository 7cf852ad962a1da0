package com.orderconsole.ui.traffic;

import com.orderconsole.app.Messages;
import com.orderconsole.service.traffic.SimulatorStatus;
import com.orderconsole.ui.common.Fxml;
import com.orderconsole.ui.common.Styles;
import javafx.fxml.FXML;
import javafx.scene.control.Button;
import javafx.scene.control.Label;
import javafx.scene.control.TextField;
import javafx.scene.layout.GridPane;
import javafx.scene.control.ScrollPane;

/**
 * The live-traffic panel beside the state graph: simulator settings, start/stop and its counters.
 * Shown only to roles that may run the simulator (ops and up).
 */
public final class TrafficView {
    private final TrafficViewModel vm;
    private final ScrollPane root;

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
    public ScrollPane root() {
        return root;
    }

    private void bind() {
        root.setVisible(vm.canRun());
        root.setManaged(vm.canRun());
        rateField.textProperty().bindBidirectional(vm.rateProperty());
        payField.textProperty().bindBidirectional(vm.payPercentProperty());
        lateField.textProperty().bindBidirectional(vm.latePayPercentProperty());
        timeoutField.textProperty().bindBidirectional(vm.timeoutProperty());

        settingsGrid.disableProperty().bind(vm.settingsLockedProperty());
        startTrafficButton.disableProperty().bind(vm.startCommand().executableProperty().not());
        if (!vm.refusal().isEmpty()) {
            startTrafficButton.setTooltip(new javafx.scene.control.Tooltip(vm.refusal()));
        }
        stopTrafficButton.disableProperty().bind(vm.stopCommand().executableProperty().not());
        vm.statusProperty().addListener((o, a, s) -> show(s));

        Styles.toggle(trafficMessage, vm.feedback());
        show(vm.statusProperty().get());
    }

    private void show(SimulatorStatus s) {
        Styles.toggle(trafficState, Styles.RUNNING, s != null && s.running());
        if (s == null) {
            trafficState.setText("…");
            return;
        }
        trafficState.setText(s.running() ? Messages.get("traffic.running") : Messages.get("traffic.stopped"));
        simCreated.setText(Long.toString(s.created()));
        simPaid.setText(Long.toString(s.paid()));
        simLatePays.setText(Long.toString(s.latePays()));
        simShipped.setText(Long.toString(s.shipped()));
        simFinished.setText(Long.toString(s.finished()));
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
