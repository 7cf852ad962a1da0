package com.orderconsole.store;

/**
 * The MySQL follower's {@code sync_cursor} table: per bucket, the last outbox stream id applied,
 * moved in the same transaction as the rows it covers.
 */
public final class CursorStore {
    private final SyncCursorMapper m;

    CursorStore(SyncCursorMapper m) {
        this.m = m;
    }

    /** Creates a bucket's row if absent, so that {@link #lock} has something to lock. */
    public void ensure(int bucket) {
        m.ensure(bucket);
    }

    /** Locks and returns a bucket's cursor ("0-0" when none yet); serialises followers on one bucket. */
    public String lock(int bucket) {
        String c = m.lockCursor(bucket);
        return c == null ? "0-0" : c;
    }

    /** @return a bucket's cursor without locking ("0-0" when none yet) */
    public String read(int bucket) {
        String c = m.cursor(bucket);
        return c == null ? "0-0" : c;
    }

    /**
     * Moves a bucket's cursor.
     *
     * @param nowMs when, epoch ms
     */
    public void save(int bucket, String lastId, long nowMs) {
        m.save(bucket, lastId, nowMs);
    }
}
