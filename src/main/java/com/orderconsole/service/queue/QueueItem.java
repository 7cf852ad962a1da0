package com.orderconsole.service.queue;

import com.orderconsole.domain.OrderStatus;

/**
 * One cancel-queue entry with the order's current state.
 *
 * @param orderId the order
 * @param expireAtMs expiry (queue score), epoch ms
 * @param dueInMs expiry minus now, ms (negative when overdue)
 * @param status the order's Redis status, or null when Redis has no state
 * @param stale true when the order has left WAIT_PAY (or has no state): the entry should not be there
 */
public record QueueItem(String orderId, long expireAtMs, long dueInMs, OrderStatus status, boolean stale) {
}
