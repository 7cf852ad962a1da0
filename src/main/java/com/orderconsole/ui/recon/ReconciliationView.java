package com.orderconsole.ui.recon;

import com.orderconsole.domain.OrderStatus;
import com.orderconsole.service.recon.ReconCategory;
import com.orderconsole.service.recon.ReconFinding;
import com.orderconsole.ui.common.Fxml;
import com.orderconsole.ui.recon.ReconciliationViewModel.CategoryRow;
import javafx.beans.property.ReadOnlyObjectWrapper;
import javafx.beans.property.ReadOnlyStringWrapper;
import javafx.fxml.FXML;
import javafx.scene.control.Alert;
import javafx.scene.control.Button;
import javafx.scene.control.ButtonType;
import javafx.scene.control.CheckBox;
import javafx.scene.control.Label;
import javafx.scene.control.ProgressBar;
import javafx.scene.control.TableColumn;
import javafx.scene.control.TableView;
import javafx.scene.layout.BorderPane;
import javafx.stage.FileChooser;

import java.io.File;

/** The reconciliation page: run with progress, grouped findings, dry-run then repair, CSV export. */
public final class ReconciliationView {
    private final ReconciliationViewModel vm;
    private final BorderPane root;

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

    public ReconciliationView(ReconciliationViewModel vm) {
        this.vm = vm;
        this.root = Fxml.load("/fxml/recon/ReconciliationView.fxml", this);
        bind();
    }

    /** @return the page's root node */
    public BorderPane root() {
        return root;
    }

    private void bind() {
        filterBox.selectedProperty().bindBidirectional(vm.useTableFilterProperty());
        filterBox.disableProperty().bind(vm.runningProperty());
        runButton.disableProperty().bind(vm.runningProperty());
        cancelButton.disableProperty().bind(vm.runningProperty().not());
        exportButton.disableProperty().bind(vm.runningProperty().or(vm.reportProperty().isNull()));
        progressBar.progressProperty().bind(vm.progressProperty());
        progressText.textProperty().bind(vm.progressTextProperty());

        categoryTable.setColumnResizePolicy(TableView.CONSTRAINED_RESIZE_POLICY_FLEX_LAST_COLUMN);
        categoryTable.setItems(vm.categories());
        categoryTable.setPlaceholder(new Label("Run a comparison to see findings."));
        cCategory.setCellValueFactory(c -> new ReadOnlyStringWrapper(c.getValue().category().label()));
        cCount.setCellValueFactory(c -> new ReadOnlyObjectWrapper<>(c.getValue().count()));
        categoryTable.getSelectionModel().selectedItemProperty().addListener((o, a, row) ->
                vm.selectedProperty().set(row == null ? null : row.category()));

        boolean canRepair = vm.canRepair();
        repairButton.setVisible(canRepair);
        repairButton.setManaged(canRepair);
        roleHint.setVisible(!canRepair);
        roleHint.setManaged(!canRepair);
        repairButton.disableProperty().bind(vm.runningProperty()
                .or(categoryTable.getSelectionModel().selectedItemProperty().isNull()));

        findingTable.setColumnResizePolicy(TableView.CONSTRAINED_RESIZE_POLICY_FLEX_LAST_COLUMN);
        findingTable.setItems(vm.findings());
        findingTable.setPlaceholder(new Label("Select a category to list its findings."));
        fId.setCellValueFactory(c -> new ReadOnlyStringWrapper(c.getValue().orderId()));
        fMysql.setCellValueFactory(c -> new ReadOnlyStringWrapper(side(c.getValue().mysqlStatus(), c.getValue().mysqlVersion())));
        fRedis.setCellValueFactory(c -> new ReadOnlyStringWrapper(side(c.getValue().redisStatus(), c.getValue().redisVersion())));
        fDetail.setCellValueFactory(c -> new ReadOnlyStringWrapper(c.getValue().detail()));

        reconMessage.textProperty().bind(vm.messageProperty());
        vm.messageIsErrorProperty().addListener((o, a, err) -> {
            reconMessage.getStyleClass().removeAll("msg-error", "msg-ok");
            reconMessage.getStyleClass().add(err ? "msg-error" : "msg-ok");
        });
    }

    private static String side(OrderStatus s, long version) {
        return s == null ? "—" : s + " v" + version;
    }

    @FXML
    private void onRun() {
        vm.run();
    }

    @FXML
    private void onCancel() {
        vm.cancel();
    }

    @FXML
    private void onRepair() {
        CategoryRow row = categoryTable.getSelectionModel().getSelectedItem();
        if (row == null) {
            return;
        }
        ReconCategory c = row.category();
        long n = vm.preview(c);
        Alert a;
        if (n == 0) {
            a = new Alert(Alert.AlertType.INFORMATION, "Dry run: nothing to repair in \"" + c.label() + "\".", ButtonType.OK);
        } else {
            a = new Alert(Alert.AlertType.CONFIRMATION, "Dry run: the repair would act on " + n + " finding"
                    + (n == 1 ? "" : "s") + ".\nIt will " + ReconciliationViewModel.repairAction(c)
                    + ".\nEach finding is re-read first; one that resolved itself is left alone.", ButtonType.OK, ButtonType.CANCEL);
        }
        a.initOwner(root.getScene().getWindow());
        a.setHeaderText("Repair: " + c.label());
        a.showAndWait().filter(b -> b == ButtonType.OK && n > 0).ifPresent(b -> vm.repair(c));
    }

    @FXML
    private void onExport() {
        FileChooser fc = new FileChooser();
        fc.setTitle("Export findings as CSV");
        fc.setInitialFileName("reconciliation.csv");
        fc.getExtensionFilters().add(new FileChooser.ExtensionFilter("CSV", "*.csv"));
        File f = fc.showSaveDialog(root.getScene().getWindow());
        if (f != null) {
            vm.exportCsv(f.toPath());
        }
    }
}
