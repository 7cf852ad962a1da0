package com.orderconsole.service.order;

import com.orderconsole.domain.OrderId;
import com.orderconsole.domain.OrderStatus;

import java.util.Set;

/**
 * A filter for the order table.
 *
 * @param exactId exact order id, or null
 * @param idPrefix id prefix, or null/empty
 * @param statuses only these statuses (MySQL side), empty for all
 * @param stuckOnly only orders longer in their status than its stuck threshold
 * @param createdFromMs created at or after, epoch ms, or null
 * @param createdToMs created before, epoch ms, or null
 * @param disagreeingOnly only orders whose Redis and MySQL state differ
 * @param sortByAge sort by time in status (oldest first) instead of by id
 */
public record OrderQuery(String exactId, String idPrefix, Set<OrderStatus> statuses, boolean stuckOnly,
                         Long createdFromMs, Long createdToMs, boolean disagreeingOnly, boolean sortByAge) {
    public OrderQuery {
        if (exactId != null && !exactId.isEmpty()) {
            OrderId.require(exactId);
        } else {
            exactId = null;
        }
        if (idPrefix != null && !idPrefix.isEmpty()) {
            OrderId.requirePrefix(idPrefix);
        } else {
            idPrefix = null;
        }
        statuses = statuses == null ? Set.of() : Set.copyOf(statuses);
        if (createdFromMs != null && createdToMs != null && createdFromMs > createdToMs) {
            throw new IllegalArgumentException("created-from is after created-to");
        }
    }

    /** No filter, sorted by id. */
    public static OrderQuery all() {
        return new OrderQuery(null, null, Set.of(), false, null, null, false, false);
    }

    /** Orders in one status, optionally stuck only, oldest first. */
    public static OrderQuery inStatus(OrderStatus status, boolean stuckOnly) {
        return new OrderQuery(null, null, Set.of(status), stuckOnly, null, null, false, true);
    }
}
