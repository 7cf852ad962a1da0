package com.orderconsole.ui.order;

import com.orderconsole.app.Messages;
import com.orderconsole.domain.OrderId;
import com.orderconsole.domain.OrderStatus;
import com.orderconsole.service.order.OrderPage;
import com.orderconsole.service.order.OrderQuery;
import com.orderconsole.service.order.Orders;
import com.orderconsole.service.order.OrderSummary;
import com.orderconsole.ui.common.Background;
import com.orderconsole.ui.common.Command;
import com.orderconsole.ui.common.Feedback;
import com.orderconsole.ui.common.KeysetPager;
import com.orderconsole.ui.common.Refreshable;
import javafx.beans.binding.Bindings;
import javafx.beans.binding.StringBinding;
import javafx.beans.property.BooleanProperty;
import javafx.beans.property.ObjectProperty;
import javafx.beans.property.StringProperty;
import javafx.collections.FXCollections;
import javafx.collections.ObservableList;

import java.time.LocalDate;
import java.util.List;
import java.util.function.BiConsumer;
import java.util.function.Consumer;

/**
 * The order table: filter fields, one keyset page of orders from MySQL with the Redis state next to
 * it, and paging by keyset ({@link KeysetPager}): no page is ever read by offset. Loads overlap only when
 * the user searches again before an answer came: the latest wins.
 */
public final class OrderTableViewModel implements Refreshable {
    /** Rows per page by default. */
    public static final int PAGE_SIZE = 100;

    private final Orders orders;
    private final Consumer<String> openOrder;
    private final int pageSize;

    private final FilterBoxes boxes = new FilterBoxes();

    private final Feedback feedback = new Feedback();
    private final KeysetPager<OrderSummary> pager;

    private OrderQuery query = OrderQuery.all();
    /** Ids of the rows selected together (several for a bulk move); kept across reloads by the view. */
    private final ObservableList<String> selectedIds = FXCollections.observableArrayList();
    private final StringBinding bulkMoveText = Bindings.createStringBinding(() -> selectedIds.size() > 1
            ? Messages.format("bulk.fromTable.selection", selectedIds.size())
            : Messages.get("bulk.fromTable.filter"), selectedIds);
    private BiConsumer<List<String>, OrderQuery> onBulkMove = (ids, q) -> { };
    private Runnable onLookupRefused = () -> { };
    private Runnable onListingChanged = () -> { };
    /** True while the feedback says why the filter typed was refused (a new search takes it back). */
    private boolean inputRefused;
    /** The boxes (but the id) as of the last search the table applied, to show again when a lookup is refused. */
    private Runnable showAppliedBoxes = () -> { };
    /** True from Ctrl+F (which clears the boxes) until the next search, taken or refused. */
    private boolean lookupPending;

    /**
     * @param orders reads the pages and looks up exact ids
     * @param background where the reads run
     * @param openOrder called on the UI thread with a well-formed id typed into the id field
     */
    public OrderTableViewModel(Orders orders, Background background, Consumer<String> openOrder) {
        this(orders, background, openOrder, PAGE_SIZE);
    }

    /**
     * @param orders reads the pages and looks up exact ids
     * @param background where the reads run
     * @param openOrder called on the UI thread with a well-formed id typed into the id field
     * @param pageSize rows per page, 1..1000
     */
    public OrderTableViewModel(Orders orders, Background background, Consumer<String> openOrder, int pageSize) {
        this.orders = orders;
        this.openOrder = openOrder;
        this.pageSize = pageSize;
        // "No orders match" is shown like an error: an empty page is worth noticing.
        this.pager = new KeysetPager<>(background, reader(OrderQuery.all()), Messages.get("order.load.orders"), OrderSummary::orderId,
                rows -> {
                    // A refused filter's words stay until the user searches again, through every auto-refresh (2 s)
                    // of the page still shown.
                    if (inputRefused) {
                        return;
                    }
                    if (rows.isEmpty()) {
                        feedback.error(Messages.get("order.noMatch"));
                    } else {
                        feedback.clear();
                    }
                }, feedback::error);
    }

    /**
     * @param action run on the UI thread when a search with something in the id field is refused (e.g. an id with a
     *     character no id has), e.g. to close the order shown beside the table
     */
    public void setOnLookupRefused(Runnable action) {
        onLookupRefused = action;
    }

    /**
     * @param action run on the UI thread when the user moves to another listing (Clear, Next, Previous), e.g. to take
     *     back the "no order has the id …" of a lookup beside the table, which is not about the new listing
     */
    public void setOnListingChanged(Runnable action) {
        onListingChanged = action;
    }

    /**
     * Applies the filter fields and loads the first page. When the id field holds a well-formed id, that
     * order is also opened (its details say when no order has that id).
     */
    public void search() {
        OrderQuery q;
        try {
            q = boxes.toQuery();
        } catch (IllegalArgumentException e) {
            inputRefused = true;
            feedback.error(e.getMessage());
            if (lookupPending) {
                // The table keeps the filter it had (and auto-refreshes it): the boxes Ctrl+F cleared show it again,
                // so that the boxes never read "Any status" above a list filtered on one status.
                lookupPending = false;
                showAppliedBoxes.run();
            }
            if (boxes.idText.get() != null && !boxes.idText.get().isBlank()) {
                // A refused lookup must not leave the order looked up before open (with its move buttons) beside it,
                // nor that order's row selected as if it were the one shown.
                pager.selectedProperty().set(null);
                onLookupRefused.run();
            }
            return;
        }
        inputRefused = false;
        lookupPending = false;
        showAppliedBoxes = boxes.asNow();
        feedback.clear();
        query = q;
        String exact = boxes.idText.get() == null ? "" : boxes.idText.get().trim();
        // A well-formed id is also looked up exactly: its details open, or say that no order has it (the
        // table still lists the ids starting with it). The lookup finds orders missing in MySQL too.
        if (OrderId.isValid(exact)) {
            openOrder.accept(exact);
        }
        pager.first(reader(q));
    }

    /**
     * Ctrl+F: a lookup starts from no filter but the id, so a found order is never shown beside
     * "No orders match the filter" because of a status chosen earlier. When the id typed is then refused, the boxes
     * return to the filter the table still applies; the typed id stays to be corrected.
     */
    public void resetFiltersForLookup() {
        lookupPending = true;
        boxes.clearButId();
    }

    /**
     * Shows an order as just read elsewhere (the details beside the table, after a move or a refresh):
     * its row, when the page shows it, is replaced in place.
     *
     * @param s the order as read
     */
    public void updateRow(OrderSummary s) {
        ObservableList<OrderSummary> rows = pager.rows();
        for (int i = 0; i < rows.size(); i++) {
            if (rows.get(i).orderId().equals(s.orderId())) {
                if (!query.statuses().isEmpty() && !query.statuses().contains(s.mysqlStatus())
                        && !query.statuses().contains(s.redisStatus())) {
                    // Moved out of the status filtered on: the row goes, as every row on the page matches the
                    // filter; the order stays open beside the table.
                    rows.remove(i);
                } else if (!rows.get(i).equals(s)) {
                    rows.set(i, s);
                }
                return;
            }
        }
    }

    /**
     * Sets the filter fields from a query made elsewhere (e.g. a click on the state graph) and loads page 1.
     *
     * @param q the filter; only its first status is used, as the table filters by one status
     */
    public void apply(OrderQuery q) {
        boxes.show(q);
        search();
    }

    /** Clears every filter and loads the first page of all orders. */
    public void clearFilters() {
        apply(OrderQuery.all());
        onListingChanged.run();
    }

    /** Loads the page after the current one, if there is one. */
    public void nextPage() {
        pager.next();
        onListingChanged.run();
    }

    /** Loads the page before the current one, if there is one. */
    public void previousPage() {
        pager.previous();
        onListingChanged.run();
    }

    /** Reloads the current page with the current filter. */
    @Override
    public void refresh() {
        pager.refresh();
    }

    private KeysetPager.Reader<OrderSummary> reader(OrderQuery q) {
        return (cursor, job) -> {
            OrderPage page = orders.page(q, cursor, pageSize);
            // A cursor is handed out whenever a page is full; whether anything follows it is asked, so
            // Next is offered only when it leads to a page with rows.
            String next = page.nextCursor() != null && !orders.page(q, page.nextCursor(), 1).rows().isEmpty()
                    ? page.nextCursor() : null;
            return new KeysetPager.Page<>(page.rows(), next);
        };
    }

    /** @return id or id prefix typed by the user */
    public StringProperty idTextProperty() {
        return boxes.idText;
    }

    /** @return the status filter; null for all statuses */
    public ObjectProperty<OrderStatus> statusProperty() {
        return boxes.status;
    }

    /** @return true to list only orders longer in their status than its stuck threshold */
    public BooleanProperty stuckOnlyProperty() {
        return boxes.stuckOnly;
    }

    /** @return first creation day to include (local time zone), or null */
    public ObjectProperty<LocalDate> createdFromProperty() {
        return boxes.createdFrom;
    }

    /** @return last creation day to include (local time zone), or null */
    public ObjectProperty<LocalDate> createdToProperty() {
        return boxes.createdTo;
    }

    /** @return true to list only orders on which Redis and MySQL disagree */
    public BooleanProperty disagreeingOnlyProperty() {
        return boxes.disagreeingOnly;
    }

    /** @return true to sort by time in status, oldest first, instead of by id */
    public BooleanProperty sortByAgeProperty() {
        return boxes.sortByAge;
    }

    /** @return the row the user selected; kept across reloads by order id */
    public ObjectProperty<OrderSummary> selectedProperty() {
        return pager.selectedProperty();
    }

    /** @return the rows of the current page */
    public ObservableList<OrderSummary> rows() {
        return pager.rows();
    }

    /** @return the pages and their selection */
    public KeysetPager<OrderSummary> pager() {
        return pager;
    }

    /** @return runs a search (or a refresh); executable while no page is loading */
    public Command searchCommand() {
        return pager.loadCommand();
    }

    /** @return an error or hint in words, "" when there is none */
    public Feedback feedback() {
        return feedback;
    }

    /** @return the filter of the shown page (as last applied by a search) */
    public OrderQuery currentQuery() {
        return query;
    }

    /** @return when the shown page was read, epoch ms (for "in status for" ages) */
    public long loadedAtMs() {
        return pager.loadedAtMs();
    }

    /** @param handler opens the bulk page with either the selected ids (several rows) or the table's filter (null ids) */
    public void setOnBulkMove(BiConsumer<List<String>, OrderQuery> handler) {
        this.onBulkMove = handler;
    }

    /**
     * "Bulk move…": the rows selected together when there are several, else every order matching the filter the boxes
     * show. A filter chosen but not yet searched is applied first, so the table and the bulk page name the same
     * orders. A filter the boxes cannot make (bad id, days reversed) is refused in words and the bulk page is not opened.
     */
    public void bulkMove() {
        if (selectedIds.size() > 1) {
            onBulkMove.accept(List.copyOf(selectedIds), currentQuery());
            return;
        }
        OrderQuery shown = filterAsShown();
        if (shown != null) {
            onBulkMove.accept(null, shown);
        }
    }

    /**
     * The filter as the boxes show it, applied to the table first when it was not yet searched (the table and what
     * uses "the table's filter" then agree).
     *
     * @return the filter, or null when the boxes cannot make one (the reason is in {@link #feedback()})
     */
    public OrderQuery filterAsShown() {
        OrderQuery shown;
        try {
            shown = boxes.toQuery();
        } catch (IllegalArgumentException e) {
            inputRefused = true;
            feedback.error(e.getMessage());
            return null;
        }
        if (!shown.equals(query)) {
            search();
        }
        return shown;
    }

    /** @return ids of the rows selected together */
    public ObservableList<String> selectedIds() {
        return selectedIds;
    }

    /** @return the bulk button's text: how many selected orders it moves, or that it takes the filter */
    public StringBinding bulkMoveTextProperty() {
        return bulkMoveText;
    }
}
