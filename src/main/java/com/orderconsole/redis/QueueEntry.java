package com.orderconsole.redis;

/**
 * One cancel-queue entry.
 *
 * @param orderId member of the ZSET
 * @param expireAtMs score: when the order is due to be cancelled, epoch milliseconds
 */
public record QueueEntry(String orderId, long expireAtMs) {
}
