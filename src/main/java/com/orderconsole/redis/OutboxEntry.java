package com.orderconsole.redis;

import com.orderconsole.domain.HistoryEntry;

/**
 * One outbox stream entry read back from Redis.
 *
 * @param bucket the bucket whose stream holds it
 * @param streamId the Redis stream id, e.g. "1700000000000-0"
 * @param entry the outcome it records
 */
public record OutboxEntry(int bucket, String streamId, HistoryEntry entry) {
}
