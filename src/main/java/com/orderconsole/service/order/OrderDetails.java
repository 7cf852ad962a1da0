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
 */
public record OrderDetails(OrderSummary summary, List<HistoryEntry> history, Set<OrderStatus> legalTargets,
                           Long queueExpiryMs, boolean rebuilt, List<HistoryEntry> pending) {
}
