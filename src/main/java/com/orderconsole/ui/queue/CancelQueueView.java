package com.orderconsole.ui.queue;

import com.orderconsole.service.queue.QueueItem;
import com.orderconsole.service.queue.QueueSummary;
import com.orderconsole.service.queue.SweeperStatus;
import com.orderconsole.ui.common.Formats;
import com.orderconsole.ui.common.Fxml;
import com.orderconsole.ui.common.ReasonDialog;
import com.orderconsole.ui.queue.CancelQueueViewModel.DepthSample;
import javafx.beans.binding.BooleanBinding;
import javafx.beans.property.ReadOnlyStringWrapper;
import javafx.collections.FXCollections;
import javafx.collections.ListChangeListener;
import javafx.fxml.FXML;
import javafx.scene.chart.LineChart;
import javafx.scene.chart.XYChart;
import javafx.scene.control.Alert;
import javafx.scene.control.Button;
import javafx.scene.control.ButtonType;
import javafx.scene.control.ComboBox;
import javafx.scene.control.Label;
import javafx.scene.control.TableColumn;
import javafx.scene.control.TableRow;
import javafx.scene.control.TableView;
import javafx.scene.layout.BorderPane;
import javafx.util.StringConverter;

import java.time.Duration;
import java.util.List;

/** The cancel-queue monitor page. */
public final class CancelQueueView {
    private static final List<Duration> EXTENSIONS = List.of(Duration.ofMinutes(15), Duration.ofHours(1), Duration.ofHours(24));

    private final CancelQueueViewModel vm;
    private final BorderPane root;
    private final XYChart.Series<Number, Number> depthSeries = new XYChart.Series<>();
    private final XYChart.Series<Number, Number> overdueSeries = new XYChart.Series<>();

    @FXML private Label sweeperState;
    @FXML private Button pauseButton;
    @FXML private Label depth;
    @FXML private Label overdue;
    @FXML private Label oldest;
    @FXML private Label nextDue;
    @FXML private Label lastTick;
    @FXML private Label perMinute;
    @FXML private LineChart<Number, Number> depthChart;
    @FXML private TableView<QueueItem> queueTable;
    @FXML private TableColumn<QueueItem, String> cId;
    @FXML private TableColumn<QueueItem, String> cExpiry;
    @FXML private TableColumn<QueueItem, String> cDue;
    @FXML private TableColumn<QueueItem, String> cStatus;
    @FXML private TableColumn<QueueItem, String> cStale;
    @FXML private Button cancelButton;
    @FXML private Button removeButton;
    @FXML private ComboBox<Duration> extendBy;
    @FXML private Button extendButton;
    @FXML private Label queueMessage;
    @FXML private Label roleHint;

    public CancelQueueView(CancelQueueViewModel vm) {
        this.vm = vm;
        this.root = Fxml.load("/fxml/queue/CancelQueueView.fxml", this);
        bind();
    }

    /** @return the page's root node */
    public BorderPane root() {
        return root;
    }

    private void bind() {
        depthSeries.setName("depth");
        overdueSeries.setName("overdue");
        depthChart.getData().setAll(List.of(depthSeries, overdueSeries));
        vm.depthHistory().addListener((ListChangeListener<DepthSample>) c -> plot());
        vm.summaryProperty().addListener((o, a, s) -> showSummary(s));

        queueTable.setColumnResizePolicy(TableView.CONSTRAINED_RESIZE_POLICY_FLEX_LAST_COLUMN);
        queueTable.setItems(vm.entries());
        queueTable.setPlaceholder(new Label("The cancel queue is empty."));
        cId.setCellValueFactory(c -> new ReadOnlyStringWrapper(c.getValue().orderId()));
        cExpiry.setCellValueFactory(c -> new ReadOnlyStringWrapper(Formats.dateTime(c.getValue().expireAtMs())));
        cDue.setCellValueFactory(c -> new ReadOnlyStringWrapper(c.getValue().dueInMs() >= 0
                ? "in " + Formats.duration(c.getValue().dueInMs()) : "overdue by " + Formats.duration(-c.getValue().dueInMs())));
        cStatus.setCellValueFactory(c -> new ReadOnlyStringWrapper(
                c.getValue().status() == null ? "no state" : c.getValue().status().name()));
        cStale.setCellValueFactory(c -> new ReadOnlyStringWrapper(!c.getValue().stale() ? ""
                : c.getValue().status() == null ? "stale: order has no Redis state"
                : "stale: order left WAIT_PAY"));
        queueTable.setRowFactory(t -> new TableRow<>() {
            @Override
            protected void updateItem(QueueItem item, boolean empty) {
                super.updateItem(item, empty);
                getStyleClass().removeAll("stale", "overdue");
                if (!empty && item != null) {
                    if (item.stale()) {
                        getStyleClass().add("stale");
                    } else if (item.dueInMs() < 0) {
                        getStyleClass().add("overdue");
                    }
                }
            }
        });

        extendBy.setItems(FXCollections.observableArrayList(EXTENSIONS));
        extendBy.setConverter(new StringConverter<>() {
            @Override
            public String toString(Duration d) {
                return d == null ? "" : Formats.duration(d);
            }

            @Override
            public Duration fromString(String s) {
                return Formats.parseDuration(s);
            }
        });
        extendBy.setValue(EXTENSIONS.get(0));

        BooleanBinding noSelection = queueTable.getSelectionModel().selectedItemProperty().isNull();
        boolean canAct = vm.canAct();
        for (Button b : List.of(cancelButton, removeButton, extendButton)) {
            b.disableProperty().bind(noSelection.or(vm.busyProperty()));
            b.setVisible(canAct);
            b.setManaged(canAct);
        }
        extendBy.setVisible(canAct);
        extendBy.setManaged(canAct);
        pauseButton.setVisible(canAct);
        pauseButton.setManaged(canAct);
        pauseButton.disableProperty().bind(vm.busyProperty().or(vm.summaryProperty().isNull()));
        pauseButton.setText("Pause sweeper");

        queueMessage.textProperty().bind(vm.messageProperty());
        vm.messageIsErrorProperty().addListener((o, a, err) -> {
            queueMessage.getStyleClass().removeAll("msg-error", "msg-ok");
            queueMessage.getStyleClass().add(err ? "msg-error" : "msg-ok");
        });
        roleHint.setVisible(!canAct);
        roleHint.setManaged(!canAct);
    }

    private void showSummary(QueueSummary s) {
        depth.setText(Long.toString(s.depth()));
        overdue.setText(Long.toString(s.overdue()));
        oldest.setText(s.oldestOverdueAgeMs() == null ? "—" : Formats.duration(s.oldestOverdueAgeMs()));
        nextDue.setText(s.nextDueMs() == null ? "—" : Formats.dueIn(s.nextDueMs(), s.nowMs()));
        SweeperStatus sw = s.sweeper();
        lastTick.setText(sw.lastTickMs() == null ? "never" : Formats.duration(s.nowMs() - sw.lastTickMs()) + " ago");
        perMinute.setText(Long.toString(sw.cancelsLastMinute()));
        sweeperState.setText(CancelQueueViewModel.sweeperText(sw, s.nowMs()));
        sweeperState.getStyleClass().removeAll("paused", "running");
        sweeperState.getStyleClass().add(sw.paused() || sw.lastTickMs() == null ? "paused" : "running");
        pauseButton.setText(sw.paused() ? "Resume sweeper" : "Pause sweeper");
    }

    private void plot() {
        List<DepthSample> samples = vm.depthHistory();
        if (samples.isEmpty()) {
            return;
        }
        long latest = samples.get(samples.size() - 1).atMs();
        depthSeries.getData().setAll(samples.stream()
                .map(s -> new XYChart.Data<Number, Number>((s.atMs() - latest) / 1000.0, s.depth())).toList());
        overdueSeries.getData().setAll(samples.stream()
                .map(s -> new XYChart.Data<Number, Number>((s.atMs() - latest) / 1000.0, s.overdue())).toList());
    }

    @FXML
    private void onPauseResume() {
        QueueSummary s = vm.summaryProperty().get();
        if (s != null) {
            vm.setSweeperPaused(!s.sweeper().paused());
        }
    }

    @FXML
    private void onCancelNow() {
        QueueItem item = queueTable.getSelectionModel().getSelectedItem();
        if (item == null) {
            return;
        }
        ReasonDialog.ask(root, "Cancel order now", "Cancel order " + item.orderId() + " now, before its payment deadline?",
                "Cancel order").ifPresent(reason -> vm.cancelNow(item.orderId(), reason));
    }

    @FXML
    private void onRemove() {
        QueueItem item = queueTable.getSelectionModel().getSelectedItem();
        if (item == null) {
            return;
        }
        Alert a = new Alert(Alert.AlertType.CONFIRMATION, "Remove the queue entry of order " + item.orderId()
                + "? The order itself is not changed, but it will no longer be cancelled when its payment deadline passes.",
                ButtonType.OK, ButtonType.CANCEL);
        a.initOwner(root.getScene().getWindow());
        a.setHeaderText("Remove cancel-queue entry");
        a.showAndWait().filter(b -> b == ButtonType.OK).ifPresent(b -> vm.remove(item.orderId()));
    }

    @FXML
    private void onExtend() {
        QueueItem item = queueTable.getSelectionModel().getSelectedItem();
        if (item != null && extendBy.getValue() != null) {
            vm.extend(item.orderId(), extendBy.getValue());
        }
    }
}
