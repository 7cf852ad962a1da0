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
        return new OrderStore(session.getMapper(OrderMapper.class));
    }

    /** @return the append-only {@code order_history} table */
    public HistoryStore history() {
        return new HistoryStore(session.getMapper(HistoryMapper.class));
    }

    /** @return the MySQL follower's {@code sync_cursor} table */
    public CursorStore cursors() {
        return new CursorStore(session.getMapper(SyncCursorMapper.class));
    }

    /** @return the {@code transition_rules} archive */
    public RulesArchive rulesArchive() {
        return new RulesArchive(session.getMapper(RulesArchiveMapper.class));
    }
}
