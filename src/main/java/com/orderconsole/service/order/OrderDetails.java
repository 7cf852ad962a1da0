package com.orderconsole.service.order;

import com.orderconsole.domain.HistoryEntry;
import com.orderconsole.domain.OrderStatus;

import java.util.List;
import java.util.Set;

/**
 * Everything about one order.
 *
 * @param summary MySQL and Redis state side by side
 * @param history the full status history, oldest first (MySQL; lags Redis by the sync delay)
 * @param legalTargets statuses the current rules allow from the Redis status
 * @param queueExpiryMs the order's cancel-queue expiry, epoch ms, or null when it has no entry
 * @param rebuilt true when Redis had no state and it was rebuilt from MySQL during this lookup
 * @param pending the moves and attempts Redis accepted that the outbox still holds for the order, not yet in MySQL's
 *     history, oldest first (issue 33: a move waiting for the follower was shown nowhere); empty when the bucket's
 *     backlog is too long to read for one order
 * @param queueRemoval for an unpaid order without a cancel-queue entry because an operator removed it on purpose, that
 *     removal as MySQL's audit trail records it (the order is not cancelled for non-payment); else null
 */
public record OrderDetails(OrderSummary summary, List<HistoryEntry> history, Set<OrderStatus> legalTargets,
                           Long queueExpiryMs, boolean rebuilt, List<HistoryEntry> pending, QueueRemoval queueRemoval) {
    /** Details of an order whose cancel-queue entry was not removed on purpose. */
    public OrderDetails(OrderSummary summary, List<HistoryEntry> history, Set<OrderStatus> legalTargets,
                        Long queueExpiryMs, boolean rebuilt, List<HistoryEntry> pending) {
        this(summary, history, legalTargets, queueExpiryMs, rebuilt, pending, null);
    }

    /**
     * A cancel-queue entry removed on purpose, as its audit row records it.
     *
     * @param auditId the audit row's id
     * @param atMs when, epoch ms
     * @param actor who
     * @param reason why ("" when none was given)
     */
    public record QueueRemoval(long auditId, long atMs, String actor, String reason) {
    }
}
