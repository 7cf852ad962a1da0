package com.orderconsole.ui.recon;

import com.orderconsole.app.DeadLetterWords;
import com.orderconsole.app.Messages;
import com.orderconsole.service.deadletter.DeadLetter;
import com.orderconsole.ui.common.Actions;
import com.orderconsole.ui.common.Tables;
import javafx.beans.property.ObjectProperty;
import javafx.beans.property.SimpleObjectProperty;
import javafx.collections.ListChangeListener;
import javafx.scene.control.Tab;
import com.orderconsole.service.recon.ReconFinding;
import com.orderconsole.ui.common.Fxml;
import com.orderconsole.ui.common.OrderText;
import com.orderconsole.ui.common.Styles;
import com.orderconsole.ui.recon.ReconciliationViewModel.CategoryRow;
import javafx.beans.property.ReadOnlyObjectWrapper;
import javafx.beans.property.ReadOnlyStringWrapper;
import javafx.fxml.FXML;
import javafx.scene.control.Button;
import javafx.scene.control.CheckBox;
import javafx.scene.control.Label;
import javafx.scene.control.ProgressBar;
import javafx.scene.control.TableColumn;
import javafx.scene.control.TableView;
import javafx.scene.control.TextArea;
import javafx.scene.layout.BorderPane;

/** The reconciliation page: run with progress, grouped findings, dry-run then repair, CSV export. */
public final class ReconciliationView {
    private final ReconciliationViewModel vm;
    private final DeadLettersViewModel letters;
    private final BorderPane root;
    private final ObjectProperty<CategoryRow> selectedRow = new SimpleObjectProperty<>();

    @FXML private CheckBox filterBox;
    @FXML private Button runButton;
    @FXML private Button cancelButton;
    @FXML private Button exportButton;
    @FXML private ProgressBar progressBar;
    @FXML private Label progressText;
    @FXML private TableView<CategoryRow> categoryTable;
    @FXML private TableColumn<CategoryRow, String> cCategory;
    @FXML private TableColumn<CategoryRow, Long> cCount;
    @FXML private Button repairButton;
    @FXML private Label roleHint;
    @FXML private TableView<ReconFinding> findingTable;
    @FXML private TableColumn<ReconFinding, String> fId;
    @FXML private TableColumn<ReconFinding, String> fMysql;
    @FXML private TableColumn<ReconFinding, String> fRedis;
    @FXML private TableColumn<ReconFinding, String> fDetail;
    @FXML private Label reconMessage;
    @FXML private Tab deadLettersTab;
    @FXML private TableView<DeadLetter> letterTable;
    @FXML private TableColumn<DeadLetter, String> dId;
    @FXML private TableColumn<DeadLetter, String> dKind;
    @FXML private TableColumn<DeadLetter, String> dOrder;
    @FXML private TableColumn<DeadLetter, String> dBucket;
    @FXML private TableColumn<DeadLetter, String> dEntry;
    @FXML private TableColumn<DeadLetter, String> dReason;
    @FXML private TableColumn<DeadLetter, String> dBody;
    /** The selected letter's whole reason and record: the table's columns cut both at 1280 px. */
    @FXML private TextArea letterDetail;
    @FXML private Button retryButton;
    @FXML private Button discardButton;
    @FXML private Button lettersRefreshButton;
    @FXML private Label lettersRoleHint;
    @FXML private Label lettersMessage;

    /**
     * @param vm the reconciliation's model
     * @param letters the dead letters' model (a tab of this page)
     */
    public ReconciliationView(ReconciliationViewModel vm, DeadLettersViewModel letters) {
        this.vm = vm;
        this.letters = letters;
        this.root = Fxml.load("/fxml/recon/ReconciliationView.fxml", this);
        bind();
    }

    /** @return the page's root node */
    public BorderPane root() {
        return root;
    }

    private void bind() {
        filterBox.selectedProperty().bindBidirectional(vm.useTableFilterProperty());
        filterBox.disableProperty().bind(vm.runCommand().runningProperty());
        Actions.bind(runButton, vm.runCommand(), vm::run);
        cancelButton.disableProperty().bind(vm.runCommand().runningProperty().not());
        cancelButton.setOnAction(e -> vm.cancel());
        Actions.bind(exportButton, vm.exportCommand(), vm::exportFindings);
        progressBar.progressProperty().bind(vm.progressProperty());
        progressText.textProperty().bind(vm.progressTextProperty());

        categoryTable.setColumnResizePolicy(TableView.CONSTRAINED_RESIZE_POLICY_FLEX_LAST_COLUMN);
        // Selection survives a new comparison: the category's findings stay listed.
        Tables.bind(categoryTable, vm.categories(), selectedRow, CategoryRow::category, Messages.get("recon.categories.empty"));
        Tables.tooltipsWhereCut(categoryTable); // a cut value is read whole in its tooltip
        cCategory.setCellValueFactory(c -> new ReadOnlyStringWrapper(ReconciliationViewModel.label(c.getValue().category())));
        cCount.setCellValueFactory(c -> new ReadOnlyObjectWrapper<>(c.getValue().count()));
        selectedRow.addListener((o, a, row) -> vm.selectedProperty().set(row == null ? null : row.category()));
        // The model picks a category when a comparison ends (its findings are listed at once): the table shows it chosen.
        vm.selectedProperty().addListener((o, a, c) -> selectedRow.set(vm.categories().stream()
                .filter(r -> r.category() == c).findFirst().orElse(null)));

        boolean canRepair = vm.canRepair();
        Styles.shown(canRepair, repairButton);
        Styles.shown(!canRepair, roleHint);
        Actions.bind(repairButton, vm.repairCommand(), vm::repairSelected);

        findingTable.setColumnResizePolicy(TableView.CONSTRAINED_RESIZE_POLICY_FLEX_LAST_COLUMN);
        Tables.bind(findingTable, vm.findings(), new SimpleObjectProperty<>(), f -> f.category() + "/" + f.orderId() + "/" + f.detail(),
                Messages.get("recon.findings.empty"));
        // A finding's detail is a sentence (what disagrees, how long the outbox has waited): it wraps in its row, in
        // every language, rather than being cut at the column's edge.
        fDetail.setCellFactory(col -> {
            javafx.scene.control.TableCell<ReconFinding, String> cell = new javafx.scene.control.TableCell<>() {
                @Override
                protected void updateItem(String item, boolean empty) {
                    super.updateItem(item, empty);
                    setText(empty ? null : item);
                }
            };
            cell.setWrapText(true);
            return cell;
        });
        Tables.tooltipsWhereCut(findingTable); // a cut value is read whole in its tooltip
        fId.setCellValueFactory(c -> new ReadOnlyStringWrapper(c.getValue().orderId()));
        fMysql.setCellValueFactory(c -> new ReadOnlyStringWrapper(OrderText.side(c.getValue().mysqlStatus(), c.getValue().mysqlVersion())));
        fRedis.setCellValueFactory(c -> new ReadOnlyStringWrapper(OrderText.side(c.getValue().redisStatus(), c.getValue().redisVersion())));
        fDetail.setCellValueFactory(c -> new ReadOnlyStringWrapper(ReconciliationViewModel.detail(c.getValue())));

        Styles.toggle(reconMessage, vm.feedback());
        bindDeadLetters();
    }

    private void bindDeadLetters() {
        letterTable.setColumnResizePolicy(TableView.CONSTRAINED_RESIZE_POLICY_FLEX_LAST_COLUMN);
        Tables.bind(letterTable, letters.letters(), letters.selectedProperty(), DeadLetter::id, Messages.get("recon.letters.empty"));
        Tables.tooltipsWhereCut(letterTable); // a cut value is read whole in its tooltip
        dId.setCellValueFactory(c -> new ReadOnlyStringWrapper(Long.toString(c.getValue().id())));
        dOrder.setCellValueFactory(c -> new ReadOnlyStringWrapper(c.getValue().orderId() == null ? Messages.get("recon.letters.unreadable") : c.getValue().orderId()));
        dBucket.setCellValueFactory(c -> new ReadOnlyStringWrapper(c.getValue().bucket() == null ? "—" : c.getValue().bucket().toString()));
        dEntry.setCellValueFactory(c -> new ReadOnlyStringWrapper(c.getValue().entryId() == null ? "—" : c.getValue().entryId()));
        dKind.setCellValueFactory(c -> new ReadOnlyStringWrapper(DeadLetterWords.kind(c.getValue().kind())));
        dReason.setCellValueFactory(c -> new ReadOnlyStringWrapper(c.getValue().reason()));
        dBody.setCellValueFactory(c -> new ReadOnlyStringWrapper(c.getValue().body()));
        letterDetail.textProperty().bind(javafx.beans.binding.Bindings.createStringBinding(() -> {
            DeadLetter d = letters.selectedProperty().get();
            return d == null ? "" : Messages.format("recon.letterDetail", d.reason(), d.body() == null ? "—" : d.body());
        }, letters.selectedProperty()));
        boolean canAct = letters.canAct();
        Styles.shown(canAct, retryButton, discardButton);
        Actions.bind(retryButton, letters.letterCommand(), letters::retrySelected);
        Actions.bind(discardButton, letters.letterCommand(), letters::discardSelected);
        lettersRefreshButton.setOnAction(e -> letters.refresh());
        Styles.shown(!canAct, lettersRoleHint);
        Styles.toggle(lettersMessage, letters.feedback());
        letters.letters().addListener((ListChangeListener<DeadLetter>) c ->
                deadLettersTab.setText(Messages.format("recon.deadLettersTab.count", letters.letters().size())));
        deadLettersTab.setOnSelectionChanged(e -> {
            if (deadLettersTab.isSelected()) {
                letters.refresh();
            }
        });
    }
}
