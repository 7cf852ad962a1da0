package com.orderconsole.domain;

/**
 * Runtime state of one order as held in its Redis hash.
 *
 * @param orderId the order id
 * @param status current status
 * @param version starts at 1 on creation, +1 per applied transition
 * @param updateTimeMs last status change, epoch milliseconds (Redis server clock)
 * @param createTimeMs creation, epoch milliseconds
 */
public record OrderState(String orderId, OrderStatus status, long version, long updateTimeMs, long createTimeMs) {
}
