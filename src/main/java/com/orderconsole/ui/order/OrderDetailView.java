package com.orderconsole.ui.order;

import com.orderconsole.app.Messages;
import com.orderconsole.domain.HistoryEntry;
import com.orderconsole.domain.OrderStatus;
import com.orderconsole.service.order.OrderDetails;
import com.orderconsole.service.order.OrderSummary;
import com.orderconsole.ui.common.Cells;
import com.orderconsole.ui.common.Formats;
import com.orderconsole.ui.common.OrderText;
import com.orderconsole.ui.common.Fxml;
import com.orderconsole.ui.common.Styles;
import javafx.collections.ListChangeListener;
import javafx.fxml.FXML;
import javafx.scene.control.Button;
import javafx.scene.control.ComboBox;
import javafx.scene.control.Label;
import javafx.scene.control.ListCell;
import javafx.scene.control.ListView;
import javafx.scene.control.TitledPane;
import javafx.scene.layout.FlowPane;
import javafx.scene.layout.Region;
import javafx.scene.layout.VBox;

import java.util.List;

/** Shows one order (fields, history, next moves, admin override). State and actions live in the view model. */
public final class OrderDetailView {
    private final OrderDetailViewModel vm;
    private final VBox root;

    @FXML private Label placeholder;
    @FXML private VBox content;
    @FXML private Label orderId;
    @FXML private Label statusBadge;
    @FXML private Label customer;
    @FXML private Label redisName;
    @FXML private Label redisState;
    @FXML private Label readAt;
    @FXML private Label mysqlState;
    @FXML private Label created;
    @FXML private Label since;
    @FXML private Label deadline;
    @FXML private Label queue;
    @FXML private Label syncNote;
    @FXML private FlowPane moves;
    @FXML private Label noMoves;
    @FXML private TitledPane overridePane;
    @FXML private ComboBox<OrderStatus> overrideTarget;
    @FXML private Button overrideButton;
    @FXML private Label detailMessage;
    @FXML private Label actionMessage;
    @FXML private ListView<HistoryEntry> historyList;
    @FXML private TitledPane storyPane;

    public OrderDetailView(OrderDetailViewModel vm) {
        this.vm = vm;
        this.root = Fxml.load("/fxml/order/OrderDetailView.fxml", this);
        bind();
    }

    /** @return the view's root node */
    public VBox root() {
        return root;
    }

    private void bind() {
        content.visibleProperty().bind(vm.detailsProperty().isNotNull());
        content.managedProperty().bind(content.visibleProperty());
        // The placeholder invites a lookup while nothing is shown and no message says why.
        placeholder.visibleProperty().bind(vm.detailsProperty().isNull().and(vm.feedback().messageProperty().isEmpty()));
        placeholder.managedProperty().bind(placeholder.visibleProperty());
        vm.detailsProperty().addListener((o, a, d) -> {
            showFields(d);
            // An order with no moves sets an empty list on an empty one: no list change, so redraw here too.
            showMoves();
        });

        overridePane.setVisible(vm.canOverride());
        overridePane.setManaged(vm.canOverride());
        // Both panes sit at the bottom of the detail: opened at 1280×800 their content fell below the fold, so an
        // opened pane is scrolled into view (without the opening animation, which would end after the scroll).
        for (TitledPane pane : List.of(overridePane, storyPane)) {
            pane.setAnimated(false);
            pane.expandedProperty().addListener((o, was, open) -> {
                if (open) {
                    com.orderconsole.ui.common.Reveal.later(pane);
                }
            });
        }
        overrideTarget.setItems(vm.overrideTargets());
        Cells.label(overrideTarget, OrderText::status);
        overrideTarget.valueProperty().bindBidirectional(vm.overrideTargetProperty());
        overrideButton.disableProperty().bind(vm.overrideCommand().executableProperty().not());

        vm.legalTargets().addListener((ListChangeListener<OrderStatus>) c -> showMoves());
        Styles.toggle(detailMessage, vm.feedback());
        detailMessage.visibleProperty().bind(vm.feedback().messageProperty().isNotEmpty().and(vm.detailsProperty().isNull()));
        detailMessage.managedProperty().bind(detailMessage.visibleProperty());
        Styles.toggle(actionMessage, vm.feedback());
        actionMessage.visibleProperty().bind(vm.feedback().messageProperty().isNotEmpty().and(vm.detailsProperty().isNotNull()));
        actionMessage.managedProperty().bind(actionMessage.visibleProperty());
        vm.feedback().messageProperty().addListener((o, a, m) -> {
            if (!m.isEmpty()) {
                com.orderconsole.ui.common.Reveal.later(actionMessage);
            }
        });
        // Every read renews the times shown ("in status since … (2 min)", "due in …"), also when the order itself is
        // unchanged: an equal read fires no change of the details, and the times stood still at the last move.
        vm.readAtMsProperty().addListener((o, a, at) -> {
            showReadAt(at.longValue());
            showFields(vm.detailsProperty().get());
        });

        historyList.setItems(vm.history());
        historyList.setPlaceholder(new Label(Messages.get("order.history.none")));
        historyList.setCellFactory(l -> new TimelineCell());
        storyPane.setContent(new OrderStoryView(vm.story()).root());
        storyPane.expandedProperty().bindBidirectional(vm.story().openProperty());
    }

    /** One history line: when and what, the outcome, who and why. */
    private static final class TimelineCell extends ListCell<HistoryEntry> {
        TimelineCell() {
            // As wide as the list, never wider: long lines wrap instead of needing a horizontal scroll.
            setPrefWidth(0);
        }

        @Override
        protected void updateItem(HistoryEntry h, boolean empty) {
            super.updateItem(h, empty);
            if (empty || h == null) {
                setGraphic(null);
                return;
            }
            // The time on a line of its own: beside the move it broke wherever the narrow pane ended.
            Label when = new Label(Formats.dateTime(h.atMs()));
            when.getStyleClass().add(Styles.TIMELINE_WHAT);
            Label what = new Label(Messages.format("order.history.move",
                    h.from() == null ? Messages.get("order.history.created") : OrderText.status(h.from()), OrderText.status(h.to()), h.version()));
            what.getStyleClass().add(Styles.TIMELINE_WHAT);
            what.setWrapText(true);
            Label outcome = new Label(h.code().applied() ? Messages.get("order.history.applied")
                    : Messages.format("order.history.refused", OrderText.result(h.code())));
            outcome.getStyleClass().add(h.code().applied() ? Styles.MSG_OK : Styles.MSG_ERROR);
            outcome.setWrapText(true);
            Label who = new Label(h.reason() == null || h.reason().isBlank()
                    ? Messages.format("order.history.who", h.actor(), OrderText.source(h.source()))
                    : Messages.format("order.history.whoWhy", h.actor(), OrderText.source(h.source()), h.reason()));
            who.getStyleClass().add(Styles.TEXT_MUTED);
            who.setWrapText(true);
            VBox box = new VBox(1, when, what, outcome, who);
            // Wrapping needs a width: as wide as the list, less its scroll bar and padding.
            box.prefWidthProperty().bind(getListView().widthProperty().subtract(36));
            box.setMaxWidth(Region.USE_PREF_SIZE);
            for (Label l : new Label[] {when, what, outcome, who}) {
                l.setMinHeight(Region.USE_PREF_SIZE);
            }
            setGraphic(box);
        }
    }

    private void showFields(OrderDetails d) {
        if (d == null) {
            return;
        }
        OrderSummary s = d.summary();
        orderId.setText(s.orderId());
        statusBadge.setText(s.status() == null ? "?" : OrderText.status(s.status()));
        Styles.pickStatus(statusBadge, s.status());
        customer.setText(s.customerId() == null ? "—" : s.customerId());
        redisState.setText(s.redisStatus() == null ? Messages.get("order.redis.none")
                : Messages.format("order.state", OrderText.status(s.redisStatus()), s.redisVersion()));
        mysqlState.setText(s.mysqlStatus() == null ? Messages.get("order.mysql.none")
                : Messages.format("order.state", OrderText.status(s.mysqlStatus()), s.mysqlVersion()));
        created.setText(Formats.dateTime(s.createdAtMs()));
        since.setText(Messages.format("order.since", Formats.dateTime(s.statusSinceMs()), Formats.duration(System.currentTimeMillis() - s.statusSinceMs())));
        deadline.setText(s.expireAtMs() == null ? "—" : Formats.dateTime(s.expireAtMs()));
        OrderDetails.QueueRemoval removal = d.queueRemoval();
        queue.setText(removal != null ? Messages.format("order.queue.removed", removal.actor(), Formats.dateTime(removal.atMs()),
                        removal.auditId(), removal.reason().isBlank() ? Messages.get("order.queue.noReason") : removal.reason())
                : d.queueExpiryMs() == null ? Messages.get("order.queue.none")
                : Messages.format("order.queue.due", Formats.dueIn(d.queueExpiryMs(), System.currentTimeMillis())));
        syncNote.setText(s.disagrees()
                ? Messages.get("order.differ") : "");
        syncNote.setManaged(s.disagrees());
        syncNote.setVisible(s.disagrees());
    }

    /** Says when the state shown was read: it is a reading, refreshed with the page, not a live view. */
    private void showReadAt(long atMs) {
        redisName.setText(atMs == 0 ? Messages.get("order.redisName") : Messages.format("order.redisAt", Formats.time(atMs)));
        readAt.setText(atMs == 0 ? "" : Messages.format("order.readAt", Formats.dateTime(atMs)));
    }

    private void showMoves() {
        moves.getChildren().clear();
        for (OrderStatus target : vm.legalTargets()) {
            Button b = new Button(Messages.format("order.move.button", OrderText.status(target)));
            b.setMnemonicParsing(false);
            b.setId("move-" + target.name());
            b.getStyleClass().add(target == OrderStatus.CANCELLED ? Styles.DANGER : Styles.ACCENT);
            b.disableProperty().bind(vm.moveCommand().executableProperty().not());
            b.setOnAction(e -> vm.askAndMove(target));
            moves.getChildren().add(b);
        }
        OrderSummary s = vm.summary();
        String hint = "";
        if (vm.legalTargets().isEmpty() && s != null) {
            hint = Messages.format("order.terminal", OrderText.status(s.status()));
        } else if (!vm.canMove()) {
            hint = Messages.get("order.readOnly");
        }
        noMoves.setText(hint);
        noMoves.setVisible(!hint.isEmpty());
        noMoves.setManaged(!hint.isEmpty());
    }

    @FXML
    private void onOverride() {
        vm.askAndOverride();
    }
}
