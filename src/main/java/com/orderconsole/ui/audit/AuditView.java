package com.orderconsole.ui.audit;

import com.orderconsole.app.Messages;
import com.orderconsole.domain.ResultCode;
import com.orderconsole.service.audit.AuditEvent;
import com.orderconsole.service.audit.MoveKind;
import com.orderconsole.ui.common.Actions;
import com.orderconsole.ui.common.Cells;
import com.orderconsole.ui.common.Formats;
import com.orderconsole.ui.common.Fxml;
import com.orderconsole.ui.common.OrderText;
import com.orderconsole.ui.common.PagerBar;
import com.orderconsole.ui.common.Styles;
import com.orderconsole.ui.common.Tables;
import javafx.collections.FXCollections;
import javafx.fxml.FXML;
import javafx.scene.control.Button;
import javafx.scene.control.ComboBox;
import javafx.scene.control.DatePicker;
import javafx.scene.control.Label;
import javafx.scene.control.TableColumn;
import javafx.scene.control.TableView;
import javafx.scene.control.TextField;
import javafx.scene.control.Tooltip;
import javafx.scene.layout.BorderPane;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.function.Function;

/** The Audit page: binds {@link AuditViewModel}; its buttons run the model's actions. */
public final class AuditView {
    private final AuditViewModel vm;
    private final BorderPane root;

    @FXML private TextField actorField;
    @FXML private ComboBox<String> sourceBox;
    @FXML private ComboBox<MoveKind> moveBox;
    @FXML private ComboBox<ResultCode> codeBox;
    @FXML private DatePicker fromPicker;
    @FXML private DatePicker toPicker;
    @FXML private TextField prefixField;
    @FXML private javafx.scene.control.CheckBox flaggedBox;
    @FXML private Button searchButton;
    @FXML private Button clearButton;
    @FXML private TableView<AuditEvent> auditTable;
    @FXML private TableColumn<AuditEvent, String> cTime;
    @FXML private TableColumn<AuditEvent, String> cActor;
    @FXML private TableColumn<AuditEvent, String> cWriter;
    @FXML private TableColumn<AuditEvent, String> cSource;
    @FXML private TableColumn<AuditEvent, String> cOrder;
    @FXML private TableColumn<AuditEvent, String> cWhat;
    @FXML private TableColumn<AuditEvent, String> cResult;
    @FXML private TableColumn<AuditEvent, String> cReason;
    @FXML private Button prevButton;
    @FXML private Label pageLabel;
    @FXML private Button nextButton;
    @FXML private Button exportCsvButton;
    @FXML private Button exportJsonButton;
    @FXML private Label auditMessage;

    /** @param vm the page's model */
    public AuditView(AuditViewModel vm) {
        this.vm = vm;
        this.root = Fxml.load("/fxml/audit/AuditView.fxml", this);
        bind();
    }

    /** @return the page's root node */
    public BorderPane root() {
        return root;
    }

    private void bind() {
        bindFilters();
        bindTable();
        headerWithTooltips();
        PagerBar.bind(vm.pager(), prevButton, pageLabel, nextButton, n -> String.format(Messages.get("audit.page"), n));
        Actions.bind(exportCsvButton, vm.exportCommand(), vm::exportCsv);
        Actions.bind(exportJsonButton, vm.exportCommand(), vm::exportJson);
        Styles.toggle(auditMessage, vm.feedback());
    }

    /** The filters: who, from where, which moves, which outcome, which days, which orders, flagged only. */
    private void bindFilters() {
        actorField.textProperty().bindBidirectional(vm.actorProperty());
        sourceBox.setItems(FXCollections.observableArrayList(AuditViewModel.SOURCES));
        // Each source in the language in use beside the stored name, which is what is typed and searched.
        Cells.label(sourceBox, AuditView::sourceText);
        sourceBox.valueProperty().bindBidirectional(vm.sourceProperty());
        moveBox.setItems(FXCollections.observableArrayList(MoveKind.values()));
        Cells.label(moveBox, AuditView::moveText);
        moveBox.valueProperty().bindBidirectional(vm.moveKindProperty());
        moveBox.setTooltip(new Tooltip(Messages.get("audit.moves.tooltip")));
        List<ResultCode> codes = new ArrayList<>();
        codes.add(null);
        codes.addAll(Arrays.asList(ResultCode.values()));
        codeBox.setItems(FXCollections.observableArrayList(codes));
        Function<ResultCode, String> codeText = c -> c == null ? Messages.get("audit.code.any")
                : c.code() + " · " + Messages.get("audit.code." + c.name());
        Cells.label(codeBox, codeText);
        codeBox.valueProperty().bindBidirectional(vm.codeProperty());
        fromPicker.valueProperty().bindBidirectional(vm.fromDayProperty());
        toPicker.valueProperty().bindBidirectional(vm.toDayProperty());
        prefixField.textProperty().bindBidirectional(vm.idPrefixProperty());
        Actions.bind(searchButton, vm.loadCommand(), vm::search);
        actorField.setOnAction(e -> vm.search());
        prefixField.setOnAction(e -> vm.search());
        flaggedBox.selectedProperty().bindBidirectional(vm.flaggedOnlyProperty());
        flaggedBox.setTooltip(new Tooltip(Messages.get("audit.flaggedOnly.tooltip")));
        clearButton.setOnAction(e -> vm.clearFilters());
    }

    /** The recorded actions, one a row; the writer's column only where the database stamps writers. */
    private void bindTable() {
        // The columns fill the table's width (Reason in view at 1280 px); order id, what, writer, result and reason wrap: a
        // repair's detail or a long reason is shown whole; the other columns show a cut value whole in a tooltip.
        Tables.bind(auditTable, vm.rows(), vm.selectedProperty(), e -> e.kind() + ":" + e.id(), Messages.get("audit.none"));
        cTime.setCellValueFactory(c -> Cells.text(Formats.dateTime(c.getValue().atMs())));
        // The flag stands by the actor too: the writer's column comes after What, off a 1280 px window's first view.
        cActor.setCellValueFactory(c -> Cells.text((c.getValue().actorUnlike() ? "⚠ " : "") + c.getValue().actor()));
        cWriter.setCellValueFactory(c -> Cells.text(AuditViewModel.writer(c.getValue())));
        // Only servers with accounts stamp a writer (V38): on the embedded default the column would be empty and push
        // "What" off a 1280 px screen (seen in a real window).
        cWriter.visibleProperty().bind(javafx.beans.binding.Bindings.createBooleanBinding(
                () -> vm.rows().stream().anyMatch(e -> e.writtenBy() != null), vm.rows()));
        cSource.setCellValueFactory(c -> Cells.text(OrderText.source(c.getValue().source())));
        cOrder.setCellValueFactory(c -> Cells.text(c.getValue().orderId()));
        cWhat.setCellValueFactory(c -> Cells.text(AuditViewModel.what(c.getValue())));
        cResult.setCellValueFactory(c -> Cells.text(AuditViewModel.result(c.getValue())));
        cReason.setCellValueFactory(c -> Cells.text(c.getValue().reason()));
        // An order id wraps too: 32 characters would need a third of the table at 1280 px; on two lines it is whole.
        for (TableColumn<AuditEvent, String> free : List.of(cOrder, cWhat, cWriter, cResult, cReason)) {
            free.setCellFactory(Tables.wrapping());
        }
        auditTable.setColumnResizePolicy(TableView.CONSTRAINED_RESIZE_POLICY_FLEX_LAST_COLUMN);
        Tables.tooltipsWhereCut(auditTable);
    }

    /** What "Written by (database)" is, and what its ⚠ means, on the header itself; the time column's zone on its own. */
    private void headerWithTooltips() {
        // On two lines of its own making: the column is narrow at 1280 px, and a header does not grow for wrapped text.
        Label writerHeader = new Label(Messages.get("audit.col.writer.header"));
        writerHeader.setTextAlignment(javafx.scene.text.TextAlignment.CENTER);
        writerHeader.setMinHeight(Label.USE_PREF_SIZE);
        // Never drawn with "…": in a layout pass made before the columns took their widths the label was given less than
        // its two lines need (seen in a clean-clone run); the column's own minimum (110 px) holds both lines.
        writerHeader.setMinWidth(Label.USE_PREF_SIZE);
        Tooltip writerTip = new Tooltip(Messages.get("audit.col.writer.tooltip"));
        writerTip.setWrapText(true);
        writerTip.setMaxWidth(420);
        writerHeader.setTooltip(writerTip);
        cWriter.setText("");
        cWriter.setGraphic(writerHeader);
        Label timeHeader = new Label(Messages.get("audit.col.time"));
        timeHeader.setTooltip(new Tooltip(Messages.format("audit.col.time.tooltip", Formats.zone())));
        cTime.setText("");
        cTime.setGraphic(timeHeader);
    }

    private static String sourceText(String stored) {
        String word = OrderText.source(stored);
        return word.equals(stored) ? stored : word + " (" + stored + ")";
    }

    private static String moveText(MoveKind k) {
        return k == null ? "" : Messages.get("audit.moves." + k.name());
    }
}
