package com.orderconsole.service.bulk;

import com.orderconsole.domain.OrderId;
import com.orderconsole.domain.OrderStatus;
import com.orderconsole.service.order.OrderQuery;

import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.stream.Collectors;

/**
 * Which orders a bulk transition is about: the order table's filter, or an explicit selection of ids.
 *
 * @param filter the filter (as the order table and {@code bulk --status ...} build it), or null for a selection
 * @param orderIds the selected ids, distinct, in the order given; empty for a filter
 */
public record BulkScope(OrderQuery filter, List<String> orderIds) {
    public BulkScope {
        orderIds = orderIds == null ? List.of() : List.copyOf(new LinkedHashSet<>(orderIds));
        if (filter == null && orderIds.isEmpty()) {
            throw new IllegalArgumentException("no orders chosen: select orders in the table or give a filter");
        }
        if (filter != null && !orderIds.isEmpty()) {
            throw new IllegalArgumentException("give a filter or a selection of orders, not both");
        }
        orderIds.forEach(OrderId::require);
    }

    /** @return the orders matching a filter */
    public static BulkScope of(OrderQuery filter) {
        return new BulkScope(filter, List.of());
    }

    /** @return exactly these orders */
    public static BulkScope of(List<String> orderIds) {
        return new BulkScope(null, orderIds);
    }

    /** @return true when the scope is a selection of ids */
    public boolean isSelection() {
        return filter == null;
    }

    /**
     * @return the scope as kept in the batch record (data, not UI text), e.g.
     *     "filter: status PAID; created before 2018-01-01T00:00:00Z" or "selection of 3 orders: a-1, a-2, a-3"
     */
    public String describe() {
        if (filter == null) {
            String ids = orderIds.stream().limit(20).collect(Collectors.joining(", "));
            return "selection of " + orderIds.size() + " order" + (orderIds.size() == 1 ? "" : "s") + ": " + ids
                    + (orderIds.size() > 20 ? ", …" : "");
        }
        List<String> parts = new ArrayList<>();
        if (filter.exactId() != null) {
            parts.add("id " + filter.exactId());
        }
        if (filter.idPrefix() != null) {
            parts.add("id prefix " + filter.idPrefix());
        }
        if (!filter.statuses().isEmpty()) {
            parts.add("status " + filter.statuses().stream().map(OrderStatus::name).sorted().collect(Collectors.joining("|")));
        }
        if (filter.stuckOnly()) {
            parts.add("stuck only");
        }
        if (filter.createdFromMs() != null) {
            parts.add("created from " + Instant.ofEpochMilli(filter.createdFromMs()));
        }
        if (filter.createdToMs() != null) {
            parts.add("created before " + Instant.ofEpochMilli(filter.createdToMs()));
        }
        if (filter.disagreeingOnly()) {
            parts.add("Redis and MySQL disagree");
        }
        return "filter: " + (parts.isEmpty() ? "all orders" : String.join("; ", parts));
    }
}
