package com.orderconsole.ui.bulk;

import com.orderconsole.app.Messages;
import com.orderconsole.domain.OrderStatus;
import com.orderconsole.service.bulk.BulkBatch;
import com.orderconsole.service.bulk.BulkItem;
import com.orderconsole.service.bulk.TargetCount;
import com.orderconsole.ui.common.Actions;
import com.orderconsole.ui.common.Cells;
import com.orderconsole.ui.common.Formats;
import com.orderconsole.ui.common.Fxml;
import com.orderconsole.ui.common.Styles;
import com.orderconsole.ui.common.Tables;
import javafx.beans.binding.Bindings;
import javafx.collections.FXCollections;
import javafx.fxml.FXML;
import javafx.scene.control.Button;
import javafx.scene.control.CheckBox;
import javafx.scene.control.ComboBox;
import javafx.scene.control.Label;
import javafx.scene.control.ProgressBar;
import javafx.scene.control.TableColumn;
import javafx.scene.control.TableView;
import javafx.scene.control.TextField;
import javafx.scene.layout.BorderPane;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/** The Bulk moves page: binds {@link BulkViewModel}; its buttons run the model's actions. */
public final class BulkView {
    private final BulkViewModel vm;
    private final BorderPane root;

    @FXML private Label scopeText;
    @FXML private Button tableFilterButton;
    @FXML private ComboBox<OrderStatus> targetBox;
    @FXML private CheckBox overrideBox;
    @FXML private Button previewButton;
    @FXML private Label capLabel;
    @FXML private TableView<TargetCount> targetTable;
    @FXML private TableColumn<TargetCount, String> tTarget;
    @FXML private TableColumn<TargetCount, String> tApply;
    @FXML private TableColumn<TargetCount, String> tReject;
    @FXML private Label previewText;
    @FXML private TextField reasonField;
    @FXML private Button applyButton;
    @FXML private Button cancelButton;
    @FXML private ProgressBar progressBar;
    @FXML private Label progressText;
    @FXML private Label roleHint;
    @FXML private Label shownBatchText;
    @FXML private ComboBox<BulkItem.Outcome> outcomeBox;
    @FXML private Button exportCsvButton;
    @FXML private Button exportJsonButton;
    @FXML private Button closeButton;
    @FXML private TableView<BulkItem> resultTable;
    @FXML private TableColumn<BulkItem, String> rId;
    @FXML private TableColumn<BulkItem, String> rOutcome;
    @FXML private TableColumn<BulkItem, String> rCode;
    @FXML private TableColumn<BulkItem, String> rSeen;
    @FXML private TableColumn<BulkItem, String> rVersion;
    @FXML private TableColumn<BulkItem, String> rError;
    @FXML private TableView<BulkBatch> batchTable;
    @FXML private TableColumn<BulkBatch, String> bId;
    @FXML private TableColumn<BulkBatch, String> bState;
    @FXML private TableColumn<BulkBatch, String> bWho;
    @FXML private TableColumn<BulkBatch, String> bWhen;
    @FXML private TableColumn<BulkBatch, String> bTarget;
    @FXML private TableColumn<BulkBatch, String> bCounts;
    @FXML private TableColumn<BulkBatch, String> bReason;
    @FXML private TableColumn<BulkBatch, String> bScope;
    @FXML private Label bulkMessage;

    /** @param vm the page's model */
    public BulkView(BulkViewModel vm) {
        this.vm = vm;
        this.root = Fxml.load("/fxml/bulk/BulkView.fxml", this);
        bind();
    }

    /** @return the page's root node */
    public BorderPane root() {
        return root;
    }

    private void bind() {
        bindPlan();
        bindPreview();
        bindRun();
        bindResults();
        bindBatches();
        Styles.toggle(bulkMessage, vm.feedback());
    }

    /** The plan: which orders (the scope), to which status, with an override for those who may. */
    private void bindPlan() {
        scopeText.textProperty().bind(vm.scopeTextProperty());
        targetBox.setItems(FXCollections.observableArrayList(OrderStatus.values()));
        targetBox.valueProperty().bindBidirectional(vm.targetProperty());
        StatusCells.use(targetBox, Messages.get("bulk.target.prompt"));
        overrideBox.selectedProperty().bindBidirectional(vm.overrideProperty());
        Styles.shown(vm.canOverride(), overrideBox);
        capLabel.setText(Messages.format("bulk.cap", vm.maxOrders()));
        Actions.bind(previewButton, vm.previewCommand(), vm::preview);
        tableFilterButton.disableProperty().bind(vm.runCommand().runningProperty());
        tableFilterButton.setOnAction(e -> vm.useTableFilter());
        targetBox.disableProperty().bind(vm.runCommand().runningProperty());
        overrideBox.disableProperty().bind(vm.runCommand().runningProperty());
    }

    /** The preview: per target status, how many orders would move and how many would be refused. */
    private void bindPreview() {
        targetTable.setItems(vm.perTarget());
        targetTable.setPlaceholder(new Label(Messages.get("bulk.preview.none")));
        targetTable.setColumnResizePolicy(TableView.CONSTRAINED_RESIZE_POLICY_FLEX_LAST_COLUMN);
        tTarget.setCellValueFactory(c -> Cells.text(c.getValue().target().name()));
        tApply.setCellValueFactory(c -> Cells.text(count(c.getValue().wouldApply())));
        tReject.setCellValueFactory(c -> Cells.text(count(c.getValue().wouldReject())));
        previewText.textProperty().bind(vm.previewTextProperty());
    }

    /** Running the batch with a reason, its progress, and cancelling it. */
    private void bindRun() {
        reasonField.textProperty().bindBidirectional(vm.reasonProperty());
        reasonField.disableProperty().bind(vm.runCommand().runningProperty());
        reasonField.setOnAction(e -> vm.apply());
        applyButton.disableProperty().bind(vm.applyCommand().executableProperty().not().or(Bindings.createBooleanBinding(() -> !vm.canApply())));
        applyButton.setOnAction(e -> vm.apply());
        cancelButton.disableProperty().bind(vm.runCommand().runningProperty().not());
        cancelButton.setOnAction(e -> vm.cancel());
        Styles.shown(!vm.canApply(), roleHint);
        progressBar.progressProperty().bind(vm.progressProperty());
        progressText.textProperty().bind(vm.progressTextProperty());
    }

    /** The shown batch's results, filtered by outcome, exported, and an abandoned batch closed. */
    private void bindResults() {
        List<BulkItem.Outcome> outcomes = new ArrayList<>();
        outcomes.add(null);
        outcomes.addAll(Arrays.asList(BulkItem.Outcome.values()));
        outcomeBox.setItems(FXCollections.observableArrayList(outcomes));
        Cells.label(outcomeBox, o -> o == null ? Messages.get("bulk.outcome.any") : outcomeText(o));
        outcomeBox.valueProperty().bindBidirectional(vm.record().outcomeFilterProperty());
        Actions.bind(exportCsvButton, vm.record().exportCommand(), vm.record()::exportCsv);
        Actions.bind(exportJsonButton, vm.record().exportCommand(), vm.record()::exportJson);
        Actions.bind(closeButton, vm.record().closeCommand(), vm.record()::closeAbandoned);
        shownBatchText.textProperty().bind(Bindings.createStringBinding(() -> vm.record().shownBatchProperty().get() == null
                ? Messages.get("bulk.results.none") : BulkViewModel.batchSummary(vm.record().shownBatchProperty().get()), vm.record().shownBatchProperty()));

        Tables.bind(resultTable, vm.record().results(), vm.record().selectedResultProperty(), BulkItem::orderId, Messages.get("bulk.results.empty"));

        Tables.tooltipsWhereCut(resultTable); // a cut value is read whole in its tooltip
        rId.setCellValueFactory(c -> Cells.text(c.getValue().orderId()));
        rOutcome.setCellValueFactory(c -> Cells.text(outcomeText(c.getValue().outcome())));
        rCode.setCellValueFactory(c -> Cells.text(c.getValue().code() == null ? "" : c.getValue().code().code() + " · "
                + BulkViewModel.codeText(c.getValue().code())));
        rSeen.setCellValueFactory(c -> Cells.text(c.getValue().seenStatus().name() + " v" + c.getValue().seenVersion()));
        rVersion.setCellValueFactory(c -> Cells.text("v" + c.getValue().version()));
        rError.setCellValueFactory(c -> Cells.text(c.getValue().error()));
    }

    /** The batches run before: the one chosen is the one whose results show. */
    private void bindBatches() {
        Tables.bind(batchTable, vm.record().batches(), vm.record().selectedBatchProperty(), BulkBatch::id, Messages.get("bulk.batches.empty"));

        Tables.tooltipsWhereCut(batchTable); // a cut value is read whole in its tooltip
        bId.setCellValueFactory(c -> Cells.text(Long.toString(c.getValue().id())));
        bState.setCellValueFactory(c -> Cells.text(BulkViewModel.stateText(c.getValue().state())));
        bWho.setCellValueFactory(c -> Cells.text(c.getValue().actor() + " · " + com.orderconsole.ui.common.OrderText.source(c.getValue().source())));
        bWhen.setCellValueFactory(c -> Cells.text(Formats.shortDateTime(c.getValue().startedAtMs())));
        bTarget.setCellValueFactory(c -> Cells.text(c.getValue().target().name() + (c.getValue().override() ? " !" : "")));
        bCounts.setCellValueFactory(c -> Cells.text(Messages.format("bulk.batch.counts", c.getValue().matched(), c.getValue().counts().applied(),
                c.getValue().counts().rejected(), c.getValue().counts().conflicts(), c.getValue().counts().failed(), c.getValue().notRun())));
        bReason.setCellValueFactory(c -> Cells.text(c.getValue().reason()));
        bScope.setCellValueFactory(c -> Cells.text(c.getValue().scope()));
    }

    private static String outcomeText(BulkItem.Outcome o) {
        return Messages.get("bulk.outcome." + o.name());
    }

    private static String count(int n) {
        return String.format(Messages.locale(), "%,d", n);
    }
}
