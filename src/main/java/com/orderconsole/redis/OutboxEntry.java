package com.orderconsole.redis;

import com.orderconsole.domain.HistoryEntry;

/**
 * One outbox stream entry read back from Redis.
 *
 * @param bucket the bucket whose stream holds it
 * @param streamId the Redis stream id, e.g. "1700000000000-0"
 * @param entry the outcome it records, or null when the entry cannot be read
 * @param problem why the entry cannot be read, in words (null when it can)
 * @param body the entry's fields as stored, e.g. "k=A-1,1,2,3,1,17 a=alice s=console r=" (or the earlier
 *     "o=A-1 f=7 t=2 …"), kept for a person when it cannot be read
 */
public record OutboxEntry(int bucket, String streamId, HistoryEntry entry, String problem, String body) {
    /** @return true when the entry could be read */
    public boolean readable() {
        return entry != null;
    }
}
