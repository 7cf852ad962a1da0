package com.orderconsole.store;

import java.util.List;

/** The {@code dead_letter} table: records set aside because they could not be processed. */
public final class DeadLetterStore {
    private final DeadLetterMapper m;

    DeadLetterStore(DeadLetterMapper m) {
        this.m = m;
    }

    /** Sets a record aside. @return true when added, false when the same record is set aside already */
    public boolean add(DeadLetterRow row) {
        return m.insertIgnore(row) == 1;
    }

    /** @return open letters, oldest first, at most {@code limit} */
    public List<DeadLetterRow> open(int limit) {
        return m.open(limit);
    }

    /** @return how many letters are open */
    public long countOpen() {
        return m.countOpen();
    }

    /** @return the letter, or null */
    public DeadLetterRow find(long id) {
        return m.find(id);
    }

    /**
     * Closes an open letter.
     *
     * @param state RETRIED or DISCARDED
     * @param atMs when, epoch ms
     * @return true when it was open and is closed now
     */
    public boolean resolve(long id, String state, String by, long atMs, String resolution) {
        return m.resolve(id, state, by, atMs, resolution) == 1;
    }
}
