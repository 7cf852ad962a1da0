package com.orderconsole.ui.queue;

import com.orderconsole.ui.common.OrderText;
import com.orderconsole.app.Messages;
import com.orderconsole.service.queue.QueueItem;
import com.orderconsole.service.queue.QueueSummary;
import com.orderconsole.service.queue.SweeperStatus;
import com.orderconsole.ui.common.Actions;
import com.orderconsole.ui.common.Formats;
import com.orderconsole.ui.common.Fxml;
import com.orderconsole.ui.common.PagerBar;
import com.orderconsole.ui.common.Styles;
import com.orderconsole.ui.common.Tables;
import com.orderconsole.ui.queue.CancelQueueViewModel.DepthSample;
import javafx.beans.property.ReadOnlyStringWrapper;
import javafx.collections.FXCollections;
import javafx.collections.ListChangeListener;
import javafx.fxml.FXML;
import javafx.scene.chart.LineChart;
import javafx.scene.chart.NumberAxis;
import javafx.scene.chart.XYChart;
import javafx.scene.control.Button;
import javafx.scene.control.ComboBox;
import javafx.scene.control.Label;
import javafx.scene.control.TableColumn;
import javafx.scene.control.TableRow;
import javafx.scene.control.TableView;
import javafx.scene.control.TextField;
import javafx.scene.layout.BorderPane;
import javafx.util.StringConverter;

import java.time.Duration;
import java.util.List;

/** The cancel-queue monitor page. */
public final class CancelQueueView {
    private final CancelQueueViewModel vm;
    private final BorderPane root;
    private final XYChart.Series<Number, Number> depthSeries = new XYChart.Series<>();
    private final XYChart.Series<Number, Number> overdueSeries = new XYChart.Series<>();

    @FXML private Label sweeperState;
    @FXML private Button pauseButton;
    @FXML private javafx.scene.layout.FlowPane tiles;
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
    @FXML private Label sweeperMessage;
    @FXML private Label roleHint;
    @FXML private Label extendLabel;
    @FXML private NumberAxis entriesAxis;
    @FXML private TextField idField;
    @FXML private Button findButton;
    @FXML private Button showAllButton;
    @FXML private Label countLabel;
    @FXML private Button prevButton;
    @FXML private Label pageLabel;
    @FXML private Button nextButton;

    /** @param vm the page's model */
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
        bindTiles();
        bindTable();
        bindSearch();
        bindActions();
    }

    /** The summary tiles and the depth chart follow the model's readings; a stale reading greys the tiles. */
    private void bindTiles() {
        depthSeries.setName(Messages.get("queue.series.depth"));
        overdueSeries.setName(Messages.get("queue.series.overdue"));
        depthChart.getData().setAll(List.of(depthSeries, overdueSeries));
        javafx.scene.control.Tooltip.install(depthChart, new javafx.scene.control.Tooltip(
                Messages.get("queue.depthChart.title") + System.lineSeparator() + Messages.get("queue.entriesAxis.label")));
        vm.depthHistory().addListener((ListChangeListener<DepthSample>) c -> plot());
        vm.summaryProperty().addListener((o, a, s) -> showSummary(s));
        vm.staleProperty().addListener((o, a, stale) -> {
            if (stale) {
                showStale();
            } else if (vm.summaryProperty().get() != null) {
                showSummary(vm.summaryProperty().get());
            }
        });
    }

    /** The queue's entries, each row marked when it is overdue or its order's state went stale. */
    private void bindTable() {
        queueTable.setColumnResizePolicy(TableView.CONSTRAINED_RESIZE_POLICY_FLEX_LAST_COLUMN);
        Tables.bind(queueTable, vm.entries(), vm.selectedProperty(), QueueItem::orderId, Messages.get("queue.empty"));
        Tables.tooltipsWhereCut(queueTable); // a cut value is read whole in its tooltip
        cId.setCellValueFactory(c -> new ReadOnlyStringWrapper(c.getValue().orderId()));
        cExpiry.setText(Messages.format("queue.cExpiry.zone", Formats.zone()));
        cExpiry.setCellValueFactory(c -> new ReadOnlyStringWrapper(Formats.shortDateTime(c.getValue().expireAtMs())));
        cDue.setCellValueFactory(c -> new ReadOnlyStringWrapper(Formats.dueIn(c.getValue().dueInMs())));
        cStatus.setCellValueFactory(c -> new ReadOnlyStringWrapper(
                c.getValue().status() == null ? Messages.get("queue.noState") : OrderText.status(c.getValue().status())));
        cStale.setCellValueFactory(c -> new ReadOnlyStringWrapper(!c.getValue().stale() ? ""
                : c.getValue().status() == null ? Messages.get("queue.stale.noState")
                : Messages.get("queue.stale.left")));
        queueTable.setRowFactory(t -> new TableRow<>() {
            @Override
            protected void updateItem(QueueItem item, boolean empty) {
                super.updateItem(item, empty);
                String attention = empty || item == null ? null
                        : item.stale() ? Styles.STALE : item.dueInMs() < 0 ? Styles.OVERDUE : null;
                Styles.pick(this, attention, Styles.STALE, Styles.OVERDUE);
            }
        });
    }

    /** Finding an order in the queue, and paging through it. */
    private void bindSearch() {
        idField.textProperty().bindBidirectional(vm.idTextProperty());
        idField.setOnAction(e -> vm.search());
        findButton.setOnAction(e -> vm.search());
        showAllButton.setOnAction(e -> vm.showAll());
        showAllButton.disableProperty().bind(vm.searchedProperty().isNull());
        countLabel.textProperty().bind(vm.countTextProperty());
        PagerBar.bind(vm.pager(), prevButton, pageLabel, nextButton, n -> Messages.format("queue.page", n));
    }

    /** The actions on the selected entry and on the sweeper, shown only to those who may act, with their results. */
    private void bindActions() {
        extendBy.setItems(FXCollections.observableArrayList(CancelQueueViewModel.EXTENSIONS));
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
        extendBy.valueProperty().bindBidirectional(vm.extendByProperty());

        boolean canAct = vm.canAct();
        Actions.bind(cancelButton, vm.entryCommand(), vm::cancelSelected);
        Actions.bind(removeButton, vm.entryCommand(), vm::removeSelected);
        Actions.bind(extendButton, vm.entryCommand(), vm::extendSelected);
        Actions.bind(pauseButton, vm.sweeperCommand(), vm::toggleSweeper);
        Styles.shown(canAct, cancelButton, removeButton, extendButton, extendBy, extendLabel, pauseButton);
        pauseButton.setText(Messages.get("queue.pause"));

        Styles.toggle(queueMessage, vm.feedback());
        // No message, no empty line: the table takes that height (tester finding 12: 7 rows at 1280x800).
        queueMessage.managedProperty().bind(vm.feedback().messageProperty().isNotEmpty());
        Styles.toggle(sweeperMessage, vm.sweeperFeedback());
        sweeperMessage.managedProperty().bind(vm.sweeperFeedback().messageProperty().isNotEmpty());
        Styles.shown(!canAct, roleHint);
    }

    private void showSummary(QueueSummary s) {
        Styles.toggle(tiles, Styles.STALE_READING, false);
        depth.setText(Long.toString(s.depth()));
        overdue.setText(Long.toString(s.overdue()));
        oldest.setText(s.oldestOverdueAgeMs() == null ? "—" : Formats.duration(s.oldestOverdueAgeMs()));
        nextDue.setText(s.nextDueMs() == null ? "—" : Formats.dueIn(s.nextDueMs(), s.nowMs()));
        SweeperStatus sw = s.sweeper();
        lastTick.setText(sw.lastTickMs() == null ? Messages.get("queue.never") : Messages.format("queue.ago", Formats.duration(s.nowMs() - sw.lastTickMs())));
        perMinute.setText(Long.toString(sw.cancelsLastMinute()));
        sweeperState.setText(CancelQueueViewModel.sweeperText(sw, s.nowMs()));
        Styles.pick(sweeperState, sw.paused() || sw.lastTickMs() == null ? Styles.PAUSED : Styles.RUNNING,
                Styles.PAUSED, Styles.RUNNING);
        pauseButton.setText(sw.paused() ? Messages.get("queue.resume") : Messages.get("queue.pause"));
    }

    /**
     * The last reading failed (Redis stalled): the tiles keep the old values, greyed, and the sweeper's tick and state
     * say since when nothing was read instead of "0 s ago" as if it were now.
     */
    private void showStale() {
        Styles.toggle(tiles, Styles.STALE_READING, true);
        QueueSummary s = vm.summaryProperty().get();
        String since = s == null ? "—" : Formats.time(s.nowMs());
        lastTick.setText(Messages.format("queue.noReadingSince", since));
        sweeperState.setText(Messages.format("queue.sweeper.unknown", since));
        Styles.pick(sweeperState, Styles.PAUSED, Styles.PAUSED, Styles.RUNNING);
    }

    private void plot() {
        List<DepthSample> samples = vm.depthHistory();
        if (samples.isEmpty()) {
            depthSeries.getData().clear();
            overdueSeries.getData().clear();
            return;
        }
        // An empty queue would get an axis of -1.1 … 0 from auto-ranging: show 0 … 5 instead.
        boolean allZero = samples.stream().allMatch(s -> s.depth() == 0 && s.overdue() == 0);
        entriesAxis.setAutoRanging(!allZero);
        if (allZero) {
            entriesAxis.setLowerBound(0);
            entriesAxis.setUpperBound(5);
            entriesAxis.setTickUnit(1);
        }
        long latest = samples.get(samples.size() - 1).atMs();
        depthSeries.getData().setAll(samples.stream()
                .map(s -> new XYChart.Data<Number, Number>((s.atMs() - latest) / 1000.0, s.depth())).toList());
        overdueSeries.getData().setAll(samples.stream()
                .map(s -> new XYChart.Data<Number, Number>((s.atMs() - latest) / 1000.0, s.overdue())).toList());
    }
}
