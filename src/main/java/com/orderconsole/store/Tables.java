package com.orderconsole.store;

import org.apache.ibatis.session.SqlSession;

/**
 * The tables as seen inside one unit of work of {@link Database}: every store returned shares the
 * same connection and transaction, so work on several tables commits or rolls back together.
 */
public final class Tables {
    private final SqlSession session;

    Tables(SqlSession session) {
        this.session = session;
    }

    /** @return the {@code orders} table */
    public OrderStore orders() {
        return new OrderStore(session.getMapper(OrderMapper.class), session);
    }

    /** @return the append-only {@code order_history} table */
    public HistoryStore history() {
        return new HistoryStore(session.getMapper(HistoryMapper.class), session);
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
        return new DeadLetterStore(session.getMapper(DeadLetterMapper.class));
    }

    /** @return the append-only log of operator actions that are not transitions */
    public AuditStore audit() {
        return new AuditStore(session.getMapper(AuditMapper.class));
    }

    /** @return the {@code transition_rules} archive */
    public RulesArchive rulesArchive() {
        return new RulesArchive(session.getMapper(RulesArchiveMapper.class));
    }

    /** @return bulk transitions: batches and their per-order results */
    public BulkStore bulk() {
        return new BulkStore(session.getMapper(BulkMapper.class));
    }

    /** @return every recorded action (order history and audit log), read for the audit view */
    public AuditEvents auditEvents() {
        return new AuditEvents(session.getMapper(AuditEventMapper.class));
    }
}
