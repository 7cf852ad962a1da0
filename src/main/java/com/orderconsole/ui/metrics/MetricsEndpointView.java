package com.orderconsole.ui.metrics;

import com.orderconsole.app.Messages;
import com.orderconsole.ui.common.Styles;
import javafx.geometry.Insets;
import javafx.geometry.Pos;
import javafx.scene.control.CheckBox;
import javafx.scene.control.Label;
import javafx.scene.control.TextField;
import javafx.scene.control.Tooltip;
import javafx.scene.layout.HBox;
import javafx.scene.layout.Priority;

/** The Prometheus endpoint bar on the Monitor page: a switch, the port, and where it is served. */
public final class MetricsEndpointView {
    private final HBox root;

    public MetricsEndpointView(MetricsEndpointViewModel vm) {
        CheckBox serve = new CheckBox(Messages.get("metrics.endpoint.serve"));
        serve.setId("metricsEndpointToggle");
        serve.setMinWidth(CheckBox.USE_PREF_SIZE);
        serve.setSelected(vm.servingProperty().get());
        // The box shows what is true: it follows the model when switching fails.
        vm.servingProperty().addListener((o, a, on) -> serve.setSelected(on));
        serve.setOnAction(e -> vm.setServing(serve.isSelected()));
        serve.setDisable(!vm.available());
        TextField port = new TextField();
        port.setId("metricsEndpointPort");
        port.setPrefColumnCount(6);
        port.textProperty().bindBidirectional(vm.portProperty());
        port.disableProperty().bind(vm.servingProperty().or(new javafx.beans.property.SimpleBooleanProperty(!vm.available())));
        Label status = new Label();
        status.setId("metricsEndpointStatus");
        status.textProperty().bind(vm.statusProperty());
        status.setMinWidth(Label.USE_PREF_SIZE);
        Label error = new Label();
        error.getStyleClass().add(Styles.MSG_ERROR);
        error.textProperty().bind(vm.errorProperty());
        error.setWrapText(true);
        error.setMaxWidth(Double.MAX_VALUE);
        HBox.setHgrow(error, Priority.ALWAYS);
        root = new HBox(8, serve, port, status, error);
        root.setAlignment(Pos.CENTER_LEFT);
        root.setPadding(new Insets(8, 12, 0, 12));
        Tooltip.install(root, new Tooltip(Messages.get("metrics.endpoint.tooltip")));
    }

    /** @return the bar */
    public HBox root() {
        return root;
    }
}
