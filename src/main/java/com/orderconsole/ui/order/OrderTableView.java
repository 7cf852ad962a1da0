package com.orderconsole.ui.order;

import com.orderconsole.app.Messages;
import com.orderconsole.domain.OrderStatus;
import com.orderconsole.service.order.OrderSummary;
import com.orderconsole.ui.common.Actions;
import com.orderconsole.ui.common.Cells;
import com.orderconsole.ui.common.Formats;
import com.orderconsole.ui.common.Fxml;
import com.orderconsole.ui.common.MultiSelection;
import com.orderconsole.ui.common.OrderText;
import com.orderconsole.ui.common.PagerBar;
import com.orderconsole.ui.common.Styles;
import com.orderconsole.ui.common.Tables;
import javafx.beans.property.ReadOnlyStringWrapper;
import javafx.collections.FXCollections;
import javafx.fxml.FXML;
import javafx.scene.control.Button;
import javafx.scene.control.CheckBox;
import javafx.scene.control.ComboBox;
import javafx.scene.control.DatePicker;
import javafx.scene.control.Label;
import javafx.scene.control.TableColumn;
import javafx.scene.control.TableRow;
import javafx.scene.control.TableView;
import javafx.scene.control.TextField;
import javafx.scene.layout.BorderPane;
import javafx.scene.layout.StackPane;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.function.Consumer;

/** The order table page: filter bar, keyset-paged table, and the selected order's details beside it. */
public final class OrderTableView {
    private final OrderTableViewModel vm;
    private final Consumer<String> openOrder;
    private final BorderPane root;

    @FXML private TextField idField;
    @FXML private ComboBox<OrderStatus> statusBox;
    @FXML private CheckBox stuckBox;
    @FXML private DatePicker fromPicker;
    @FXML private DatePicker toPicker;
    @FXML private CheckBox disagreeBox;
    @FXML private CheckBox ageBox;
    @FXML private Button searchButton;
    @FXML private Button clearButton;
    @FXML private TableView<OrderSummary> ordersTable;
    @FXML private TableColumn<OrderSummary, String> cId;
    @FXML private TableColumn<OrderSummary, String> cMysql;
    @FXML private TableColumn<OrderSummary, String> cRedis;
    @FXML private TableColumn<OrderSummary, String> cSync;
    @FXML private TableColumn<OrderSummary, String> cAge;
    @FXML private TableColumn<OrderSummary, String> cCreated;
    @FXML private Button prevButton;
    @FXML private Button nextButton;
    @FXML private Button bulkButton;
    @FXML private Label pageLabel;
    @FXML private Label ordersMessage;
    @FXML private StackPane detailPane;

    /**
     * @param vm the table's model
     * @param detail the order detail shown beside the table
     * @param openOrder opens an order's details (called when a row is selected)
     */
    public OrderTableView(OrderTableViewModel vm, OrderDetailView detail, Consumer<String> openOrder) {
        this.vm = vm;
        this.openOrder = openOrder;
        this.root = Fxml.load("/fxml/order/OrderTableView.fxml", this);
        detailPane.getChildren().add(detail.root());
        bind();
    }

    /** @return the page's root node */
    public BorderPane root() {
        return root;
    }

    /** Puts the cursor into the id field (Ctrl+F). */
    public void focusLookup() {
        vm.resetFiltersForLookup();
        idField.requestFocus();
        idField.selectAll();
    }

    private void bind() {
        idField.textProperty().bindBidirectional(vm.idTextProperty());
        List<OrderStatus> choices = new ArrayList<>();
        choices.add(null);
        choices.addAll(Arrays.asList(OrderStatus.values()));
        statusBox.setItems(FXCollections.observableArrayList(choices));
        Cells.label(statusBox, st -> st == null ? Messages.get("order.statusBox.promptText") : OrderText.status(st));
        statusBox.valueProperty().bindBidirectional(vm.statusProperty());
        stuckBox.selectedProperty().bindBidirectional(vm.stuckOnlyProperty());
        fromPicker.valueProperty().bindBidirectional(vm.createdFromProperty());
        toPicker.valueProperty().bindBidirectional(vm.createdToProperty());
        disagreeBox.selectedProperty().bindBidirectional(vm.disagreeingOnlyProperty());
        ageBox.selectedProperty().bindBidirectional(vm.sortByAgeProperty());
        Actions.bind(searchButton, vm.searchCommand(), vm::search);
        idField.setOnAction(e -> vm.search());
        clearButton.setOnAction(e -> vm.clearFilters());

        ordersTable.setColumnResizePolicy(TableView.CONSTRAINED_RESIZE_POLICY_FLEX_LAST_COLUMN);
        MultiSelection<OrderSummary> several = MultiSelection.before(ordersTable, vm.rows(), OrderSummary::orderId, vm.selectedIds());
        Tables.bind(ordersTable, vm.rows(), vm.selectedProperty(), OrderSummary::orderId, Messages.get("order.table.empty"));
        Tables.tooltipsWhereCut(ordersTable); // a cut value is read whole in its tooltip
        several.after();
        bulkButton.textProperty().bind(vm.bulkMoveTextProperty());
        bulkButton.setOnAction(e -> vm.bulkMove());
        cId.setCellValueFactory(c -> new ReadOnlyStringWrapper(c.getValue().orderId()));
        cMysql.setCellValueFactory(c -> new ReadOnlyStringWrapper(OrderText.side(c.getValue().mysqlStatus(), c.getValue().mysqlVersion())));
        cRedis.setCellValueFactory(c -> new ReadOnlyStringWrapper(OrderText.side(c.getValue().redisStatus(), c.getValue().redisVersion())));
        cSync.setCellValueFactory(c -> new ReadOnlyStringWrapper(AgreementWords.of(c.getValue())));
        cAge.setCellValueFactory(c -> new ReadOnlyStringWrapper(
                Formats.age(vm.loadedAtMs() - c.getValue().statusSinceMs())));
        // A day needs no zone in its header, but the tooltip names it like every other time shown.
        Label createdHeader = new Label(Messages.get("order.cCreated"));
        createdHeader.setTooltip(new javafx.scene.control.Tooltip(Messages.format("order.cCreated.tooltip", Formats.zone())));
        cCreated.setText("");
        cCreated.setGraphic(createdHeader);
        cCreated.setCellValueFactory(c -> new ReadOnlyStringWrapper(Formats.date(c.getValue().createdAtMs())));
        ordersTable.setRowFactory(t -> new TableRow<>() {
            @Override
            protected void updateItem(OrderSummary item, boolean empty) {
                super.updateItem(item, empty);
                Styles.toggle(this, Styles.DISAGREE, !empty && item != null && item.disagrees());
            }
        });
        // A row chosen by the user opens its order; the same order read again (a refresh) does not reopen it.
        vm.selectedProperty().addListener((o, a, row) -> {
            if (row != null && (a == null || !a.orderId().equals(row.orderId()))) {
                openOrder.accept(row.orderId());
            }
        });

        PagerBar.bind(vm.pager(), prevButton, pageLabel, nextButton, n -> Messages.format("order.page", n),
                vm::previousPage, vm::nextPage);
        Styles.toggle(ordersMessage, vm.feedback());
    }
}
