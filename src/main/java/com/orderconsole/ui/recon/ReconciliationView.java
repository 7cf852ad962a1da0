package com.orderconsole.ui.recon;

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
import javafx.scene.layout.BorderPane;

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
        filterBox.disableProperty().bind(vm.runCommand().runningProperty());
        runButton.disableProperty().bind(vm.runCommand().executableProperty().not());
        cancelButton.disableProperty().bind(vm.runCommand().runningProperty().not());
        exportButton.disableProperty().bind(vm.exportCommand().executableProperty().not());
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
        repairButton.disableProperty().bind(vm.repairCommand().executableProperty().not());

        findingTable.setColumnResizePolicy(TableView.CONSTRAINED_RESIZE_POLICY_FLEX_LAST_COLUMN);
        findingTable.setItems(vm.findings());
        findingTable.setPlaceholder(new Label("Select a category to list its findings."));
        fId.setCellValueFactory(c -> new ReadOnlyStringWrapper(c.getValue().orderId()));
        fMysql.setCellValueFactory(c -> new ReadOnlyStringWrapper(OrderText.side(c.getValue().mysqlStatus(), c.getValue().mysqlVersion())));
        fRedis.setCellValueFactory(c -> new ReadOnlyStringWrapper(OrderText.side(c.getValue().redisStatus(), c.getValue().redisVersion())));
        fDetail.setCellValueFactory(c -> new ReadOnlyStringWrapper(c.getValue().detail()));

        Styles.toggle(reconMessage, vm.feedback());
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
        vm.repairSelected();
    }

    @FXML
    private void onExport() {
        vm.exportFindings();
    }
}
