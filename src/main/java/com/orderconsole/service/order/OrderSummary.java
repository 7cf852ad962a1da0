package com.orderconsole.service.order;

import com.orderconsole.domain.OrderStatus;

/**
 * One order as the console's table shows it: the durable MySQL record next to the Redis runtime state.
 *
 * @param orderId the id
 * @param customerId customer id, may be null
 * @param mysqlStatus status in MySQL (null when the row is missing)
 * @param mysqlVersion version in MySQL (0 when missing)
 * @param redisStatus status in Redis (null when Redis has no state)
 * @param redisVersion version in Redis (0 when missing)
 * @param createdAtMs creation, epoch ms
 * @param statusSinceMs when the current MySQL status began, epoch ms
 * @param expireAtMs cancel deadline for unpaid orders, epoch ms, or null
 * @param retired a terminal order whose Redis state has left Redis after its retention (MySQL has it;
 *     it is rebuilt on access): not a disagreement
 */
public record OrderSummary(String orderId, String customerId, OrderStatus mysqlStatus, long mysqlVersion,
                           OrderStatus redisStatus, long redisVersion, long createdAtMs, long statusSinceMs,
                           Long expireAtMs, boolean retired) {
    /** A summary of an order that has not left Redis. */
    public OrderSummary(String orderId, String customerId, OrderStatus mysqlStatus, long mysqlVersion,
                        OrderStatus redisStatus, long redisVersion, long createdAtMs, long statusSinceMs, Long expireAtMs) {
        this(orderId, customerId, mysqlStatus, mysqlVersion, redisStatus, redisVersion, createdAtMs, statusSinceMs,
                expireAtMs, false);
    }

    /** @return true when Redis and MySQL hold a different status or version (a retired terminal order does not) */
    public boolean disagrees() {
        return !retired && (mysqlStatus != redisStatus || mysqlVersion != redisVersion);
    }

    /**
     * The version a move on this order names for its compare-and-set: Redis' when Redis holds the order (it leads), else
     * MySQL's record (a terminal order past its retention, a lost state), from which the transition rebuilds Redis
     * before the script compares. 0 only when neither store has a version.
     *
     * @return the version, 1 or more for any order MySQL or Redis holds
     */
    public long expectedVersion() {
        return redisStatus != null ? redisVersion : mysqlVersion;
    }

    /** @return the status to show: Redis' when present (it leads), else MySQL's */
    public OrderStatus status() {
        return redisStatus != null ? redisStatus : mysqlStatus;
    }
}
