package com.orderconsole.ui.order;

import com.orderconsole.app.Messages;
import com.orderconsole.domain.OrderStatus;
import com.orderconsole.service.order.OrderQuery;
import javafx.beans.property.BooleanProperty;
import javafx.beans.property.ObjectProperty;
import javafx.beans.property.SimpleBooleanProperty;
import javafx.beans.property.SimpleObjectProperty;
import javafx.beans.property.SimpleStringProperty;
import javafx.beans.property.StringProperty;

import java.time.LocalDate;
import java.time.ZoneId;
import java.util.Set;

/**
 * The order table's filter boxes, bound by the view, and the service query they make. Creation days are in the local
 * time zone; "created to" includes that whole day.
 */
final class FilterBoxes {
    final StringProperty idText = new SimpleStringProperty("");
    final ObjectProperty<OrderStatus> status = new SimpleObjectProperty<>();
    final BooleanProperty stuckOnly = new SimpleBooleanProperty();
    final ObjectProperty<LocalDate> createdFrom = new SimpleObjectProperty<>();
    final ObjectProperty<LocalDate> createdTo = new SimpleObjectProperty<>();
    final BooleanProperty disagreeingOnly = new SimpleBooleanProperty();
    final BooleanProperty sortByAge = new SimpleBooleanProperty();

    /**
     * @return the query the boxes make; an id-like text is used as a prefix (a complete id is its own prefix)
     * @throws IllegalArgumentException in words when a box is invalid (days reversed)
     */
    OrderQuery toQuery() {
        String id = idText.get() == null ? "" : idText.get().trim();
        if (createdFrom.get() != null && createdTo.get() != null && createdFrom.get().isAfter(createdTo.get())) {
            throw new IllegalArgumentException(Messages.get("order.badDays"));
        }
        ZoneId zone = ZoneId.systemDefault();
        Long from = createdFrom.get() == null ? null : createdFrom.get().atStartOfDay(zone).toInstant().toEpochMilli();
        Long to = createdTo.get() == null ? null : createdTo.get().plusDays(1).atStartOfDay(zone).toInstant().toEpochMilli();
        return new OrderQuery(null, id, status.get() == null ? Set.of() : Set.of(status.get()), stuckOnly.get(), from, to,
                disagreeingOnly.get(), sortByAge.get());
    }

    /** Shows a query made elsewhere: its id or prefix, its first status, its flags; no creation days. */
    void show(OrderQuery q) {
        idText.set(q.exactId() != null ? q.exactId() : q.idPrefix() == null ? "" : q.idPrefix());
        status.set(q.statuses().isEmpty() ? null : q.statuses().iterator().next());
        stuckOnly.set(q.stuckOnly());
        disagreeingOnly.set(q.disagreeingOnly());
        sortByAge.set(q.sortByAge());
        createdFrom.set(null);
        createdTo.set(null);
    }

    /** Clears every box but the id and the sort (a lookup by id starts from no filter). */
    void clearButId() {
        status.set(null);
        stuckOnly.set(false);
        createdFrom.set(null);
        createdTo.set(null);
        disagreeingOnly.set(false);
    }

    /** @return sets the boxes {@link #clearButId} clears back to what they hold now */
    Runnable asNow() {
        OrderStatus st = status.get();
        boolean stuck = stuckOnly.get();
        LocalDate from = createdFrom.get();
        LocalDate to = createdTo.get();
        boolean disagreeing = disagreeingOnly.get();
        return () -> {
            status.set(st);
            stuckOnly.set(stuck);
            createdFrom.set(from);
            createdTo.set(to);
            disagreeingOnly.set(disagreeing);
        };
    }
}
