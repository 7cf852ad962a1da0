package com.orderconsole.store;

import java.util.List;

/** The {@code dead_letter} table: records set aside because they could not be processed. */
public final class DeadLetterStore {
    private final DeadLetterMapper m;
    private final org.apache.ibatis.session.SqlSession session;
    /** A person's session: a letter is closed through V40's procedure, which writes the audit row too. */
    private final boolean stamped;

    DeadLetterStore(DeadLetterMapper m, org.apache.ibatis.session.SqlSession session, boolean stamped) {
        this.m = m;
        this.session = session;
        this.stamped = stamped;
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
     * @return the open letter of an order's Redis record ({@link DeadLetterRow#ORDER_RECORD}, one while open), or null
     */
    public DeadLetterRow openRecordLetter(String orderId) {
        return m.findOpen(DeadLetterRow.recordKey(orderId));
    }

    /**
     * Closes an open letter and appends its audit row, in this unit of work. In a person's session the database does
     * both (ops only, never one without the other): who closed it and when are its stamp and clock, and no role UPDATEs the table directly.
     *
     * @param state RETRIED or DISCARDED
     * @param atMs when, epoch ms
     * @param audit the DEAD_LETTER_RETRY or DEAD_LETTER_DISCARD row
     * @return true when it was open and is closed now
     * @throws IllegalStateException in a person's session when the letter is not open (the database's words)
     */
    public boolean resolve(long id, String state, String by, long atMs, String resolution, AuditRow audit) {
        if (stamped) {
            Procedures.resolveDeadLetter(session.getConnection(), id, state, resolution, audit);
            return true;
        }
        if (m.resolve(id, state, by, atMs, resolution) != 1) {
            return false;
        }
        session.getMapper(AuditMapper.class).insert(audit);
        return true;
    }
}
