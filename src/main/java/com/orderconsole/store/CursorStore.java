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

    /**
     * A position in one Redis data set's outbox stream.
     *
     * @param lastId the last stream id applied ("0-0" for none)
     * @param epoch the Redis data-set marker the id belongs to (null: from before markers were kept)
     */
    public record Cursor(String lastId, String epoch) {
        /** @return the position to read after in data set {@code current}: the stream's start when the data set changed */
        public String after(String current) {
            return current.equals(epoch) ? lastId : "0-0";
        }
    }

    /** Locks and returns a bucket's cursor; serialises followers on one bucket. */
    public Cursor lock(int bucket) {
        return cursor(m.lockCursor(bucket));
    }

    /** @return a bucket's cursor without locking */
    public Cursor read(int bucket) {
        return cursor(m.cursor(bucket));
    }

    private static Cursor cursor(CursorRow r) {
        return r == null ? new Cursor("0-0", null) : new Cursor(r.lastId, r.epoch);
    }

    /**
     * Moves a bucket's cursor.
     *
     * @param epoch the Redis data set the id belongs to
     * @param nowMs when, epoch ms
     */
    public void save(int bucket, String lastId, String epoch, long nowMs) {
        m.save(bucket, lastId, epoch, nowMs);
    }
}
