package com.orderconsole.store;

import org.apache.ibatis.session.SqlSession;

/**
 * The tables as seen inside one unit of work of {@link Database}: every store returned shares the
 * same connection and transaction, so work on several tables commits or rolls back together.
 */
public final class Tables {
    private final SqlSession session;
    /** Writes that name an actor go through the V39 procedures ({@link Database#writesStamped()}). */
    private final boolean stamped;
    /** This unit of work wrote history rows: its writer mark (V47) is set back before it commits. */
    private boolean wroteHistory;

    Tables(SqlSession session, boolean stamped) {
        this.session = session;
        this.stamped = stamped;
    }

    /** Called by the stores before they write history rows. */
    void writingHistory() {
        wroteHistory = true;
    }

    /**
     * Sets this connection's history-writer mark back to 0 (V47): the last statement before a unit of work that wrote
     * history commits, once every row it writes is in the table (held until the commit). From then on the change feed
     * knows this writer holds no id it has not written. A rollback undoes the mark with the rows, so it needs nothing.
     */
    void historyWritten() {
        if (!wroteHistory) {
            return;
        }
        try (java.sql.Statement st = session.getConnection().createStatement()) {
            st.setQueryTimeout(Database.STATEMENT_TIMEOUT_SECONDS);
            st.executeUpdate(HistoryStore.WRITES_DONE);
        } catch (java.sql.SQLException e) {
            throw new IllegalStateException("cannot mark the history written in MySQL: " + DatabaseFailures.rootMessage(e), e);
        }
    }

    void recordSignIn(boolean follower) {
        Procedures.signIn(session.getConnection(), follower);
    }

    /**
     * A point in this unit of work to go back to: what was written after it can be undone while what came
     * before stays (the follower takes back the history rows of a batch it finds holds an invented order, on
     * an append-only table that allows no DELETE).
     *
     * @return the point, as of now
     */
    public Mark mark() {
        try {
            return new Mark(session, session.getConnection().setSavepoint());
        } catch (java.sql.SQLException e) {
            throw new IllegalStateException("cannot mark a point in the MySQL transaction: " + e.getMessage(), e);
        }
    }

    /** A point in a unit of work ({@link #mark}). */
    public static final class Mark {
        private final SqlSession session;
        private final java.sql.Savepoint savepoint;

        private Mark(SqlSession session, java.sql.Savepoint savepoint) {
            this.session = session;
            this.savepoint = savepoint;
        }

        /** Undoes every write of the unit of work since this point; the point stays, to go back to again. */
        public void undo() {
            try {
                session.getConnection().rollback(savepoint);
            } catch (java.sql.SQLException e) {
                throw new IllegalStateException("cannot undo part of the MySQL transaction: " + e.getMessage(), e);
            }
            // A read made since the point may have seen the undone rows.
            session.clearCache();
        }
    }

    /** @return the {@code orders} table */
    public OrderStore orders() {
        return new OrderStore(session.getMapper(OrderMapper.class), session, stamped, this::writingHistory);
    }

    /** @return the append-only {@code order_history} table */
    public HistoryStore history() {
        return new HistoryStore(session.getMapper(HistoryMapper.class), session, this::writingHistory);
    }

    /** @return the MySQL follower's {@code sync_cursor} table */
    public CursorStore cursors() {
        return new CursorStore(session.getMapper(SyncCursorMapper.class));
    }

    /** @return which data set this database belongs to */
    public DatasetStore dataset() {
        return new DatasetStore(session.getMapper(DatasetMapper.class));
    }

    /** @return records set aside because they could not be processed */
    public DeadLetterStore deadLetters() {
        return new DeadLetterStore(session.getMapper(DeadLetterMapper.class), session, stamped);
    }

    /** @return the append-only log of operator actions that are not transitions */
    public AuditStore audit() {
        return new AuditStore(session.getMapper(AuditMapper.class), session, stamped);
    }

    /** @return the {@code transition_rules} archive */
    public RulesArchive rulesArchive() {
        return new RulesArchive(session.getMapper(RulesArchiveMapper.class));
    }

    /** @return bulk transitions: batches and their per-order results */
    public BulkStore bulk() {
        return new BulkStore(session.getMapper(BulkMapper.class));
    }

    /** @return the clients of the HTTP API (V45) */
    public ApiClientStore apiClients() {
        return new ApiClientStore(session.getMapper(ApiClientMapper.class), session, stamped);
    }

    /** @return the API's answers kept per idempotency key (V48) */
    public IdempotencyStore idempotency() {
        return new IdempotencyStore(session);
    }

    /** @return the logins the database has seen sign in (V39), and the API clients as {@code api:<name>} (V45) */
    public AccountStore accounts() {
        return new AccountStore(session.getMapper(AccountMapper.class), session, stamped);
    }

    /** @return every recorded action (order history and audit log), read for the audit view */
    public AuditEvents auditEvents() {
        return new AuditEvents(session.getMapper(AuditEventMapper.class));
    }
}
