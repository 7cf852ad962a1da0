package com.orderconsole.store;

import com.orderconsole.domain.HistoryEntry;
import com.orderconsole.domain.OrderStatus;
import com.orderconsole.domain.ResultCode;

import org.apache.ibatis.session.SqlSession;

import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.sql.Types;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * The append-only {@code order_history} table: inserts and reads, never an update or a delete (an
 * architecture test keeps it so). The one class that writes it.
 */
public final class HistoryStore {
    /** The follower's batch insert, 1,000 rows per statement: replays insert nothing (unique event_key). */
    static final MultiRowSql INSERT_IGNORE = new MultiRowSql("INSERT IGNORE INTO order_history (order_id,from_status,"
            + "to_status,version,result_code,actor,source,reason,at_ms,event_key) VALUES ", "(?,?,?,?,?,?,?,?,?,?)", "(?,?,?,?,?,?,?,?,?,?)",
            ",", "", 1000);

    /**
     * A writer's last statement before its commit (V47): its connection's mark says it writes history no more. A writer of
     * history outside the engine (SQL by hand, a test acting as the follower) runs it too, or the feed waits out its grace.
     */
    public static final String WRITES_DONE = "UPDATE history_writer SET open = 0 WHERE connection_id = CONNECTION_ID() AND open = 1";

    private final HistoryMapper m;
    private final SqlSession session;
    /** Told before rows are written ({@link Tables#historyWritten}). */
    private final Runnable writingHistory;

    HistoryStore(HistoryMapper m, SqlSession session, Runnable writingHistory) {
        this.m = m;
        this.session = session;
        this.writingHistory = writingHistory;
    }

    /**
     * Appends entries; an entry whose event key is there already is skipped, so a replay inserts nothing.
     *
     * @return rows inserted
     */
    public int append(List<HistoryEntry> entries) {
        if (entries.isEmpty()) {
            return 0;
        }
        writingHistory.run();
        return INSERT_IGNORE.run(session.getConnection(), entries, HistoryStore::bind, "append history rows");
    }

    private static int bind(PreparedStatement ps, int p, HistoryEntry e) throws SQLException {
        ps.setString(p, e.orderId());
        if (e.from() == null) {
            ps.setNull(p + 1, Types.TINYINT);
        } else {
            ps.setInt(p + 1, e.from().code());
        }
        ps.setInt(p + 2, e.to().code());
        ps.setLong(p + 3, e.version());
        ps.setInt(p + 4, e.code().code());
        ps.setString(p + 5, e.actor());
        ps.setString(p + 6, e.source());
        ps.setString(p + 7, e.reason() == null ? "" : e.reason());
        ps.setLong(p + 8, e.atMs());
        ps.setString(p + 9, e.eventKey());
        return p + 10;
    }

    /**
     * Appends entries one statement each: meant for a batch unit of work ({@link Database#inBatch}),
     * where the JDBC driver rewrites them into multi-row inserts, faster for bulk loads than one long statement.
     */
    public void appendEach(List<HistoryEntry> entries) {
        if (!entries.isEmpty()) {
            writingHistory.run();
        }
        entries.forEach(e -> m.insertOneIgnore(row(e)));
    }

    /**
     * The applied rows MySQL holds for the versions of some entries (whatever their event key).
     *
     * @return {@link #versionKey} to the row recorded at that order and version
     */
    public Map<String, HistoryEntry> appliedAt(List<HistoryEntry> entries) {
        List<HistoryEntry> applied = entries.stream().filter(e -> e.code() == ResultCode.APPLIED).toList();
        Map<String, HistoryEntry> out = new HashMap<>();
        if (!applied.isEmpty()) {
            m.appliedAt(applied).forEach(h -> out.put(versionKey(h.orderId, h.version), entry(h)));
        }
        return out;
    }

    /**
     * @return the applied row MySQL holds for this order at this version, or null when it holds none
     */
    public HistoryEntry appliedAt(String orderId, long version) {
        HistoryEntry probe = new HistoryEntry(orderId, null, null, version, ResultCode.APPLIED, "", "", "", 0, "");
        return appliedAt(List.of(probe)).get(versionKey(orderId, version));
    }

    /**
     * @param prefix the start of event keys, ending in '/' (e.g. "b3/1a2b3c4d5e6f/": one bucket of one Redis data set)
     * @return true when MySQL holds a history row whose event key starts so: a Redis data set MySQL
     *     recorded before, brought back by restoring an old copy again
     */
    public boolean anyKeyStartingWith(String prefix) {
        if (!prefix.endsWith("/")) {
            throw new IllegalArgumentException("an event-key prefix ends with '/': " + prefix);
        }
        // '0' follows '/' in ASCII: the keys starting with the prefix are exactly those in [prefix, prefix-with-'0').
        return m.anyKeyIn(prefix, prefix.substring(0, prefix.length() - 1) + "0") > 0;
    }

    /**
     * The rows recorded under some event keys (the follower asks, after a data-set restore, whether an entry it
     * reads again was recorded under the data set before).
     *
     * @return event key to its row; keys with no row are absent
     */
    public Map<String, HistoryEntry> byEventKeys(List<String> keys) {
        Map<String, HistoryEntry> out = new HashMap<>();
        if (!keys.isEmpty()) {
            m.byEventKeys(keys).forEach(h -> out.put(h.eventKey, entry(h)));
        }
        return out;
    }

    /** @return the key {@link #appliedAt} uses for an order's version */
    public static String versionKey(String orderId, long version) {
        return orderId + "#" + version;
    }

    /** @return an order's history, oldest first */
    public List<HistoryEntry> byOrder(String orderId) {
        List<HistoryEntry> out = new ArrayList<>();
        for (HistoryRow h : m.byOrder(orderId)) {
            out.add(entry(h));
        }
        return out;
    }

    /** One row of the change feed: its id (the feed's position) and the entry. */
    public record Positioned(long id, HistoryEntry entry) {
    }

    /** @return rows committed after id {@code after}, in id order, at most {@code limit} */
    public List<Positioned> after(long after, int limit) {
        List<Positioned> out = new ArrayList<>();
        for (HistoryRow h : m.after(after, limit)) {
            out.add(new Positioned(h.id, entry(h)));
        }
        return out;
    }

    /**
     * @return ids after {@code after} as the session's isolation sees them: run inside {@link Database#readUncommitted}, also
     *     the ids of rows whose transaction is still open
     */
    public List<Long> idsAfter(long after, int limit) {
        return m.idsAfter(after, limit);
    }

    /** @return the highest id as the session's isolation sees it (0 when the table is empty) */
    public long maxId() {
        return m.maxId();
    }

    /**
     * The writers of history at work, as their marks ({@code history_writer}, V47) say: a transaction is marked before
     * InnoDB hands its first history row an id, and unmarked once every row it writes is in the table. Read it inside
     * {@link Database#readUncommitted}, where a mark shows as soon as it is set.
     *
     * @param refused the marks cannot be read (the table is missing or the account may not read it): nothing is known
     * @param writers each writer at work as "connection/transaction count": one that is gone or shows another count has
     *     finished writing
     */
    public record OpenTransactions(boolean refused, Set<String> writers) {
    }

    /** MySQL's and MariaDB's answers when the marks cannot be read: no such table, or access denied. */
    private static final Set<Integer> MARKS_REFUSED = Set.of(1146, 1142, 1044, 1227);

    /** @return the writers of history at work now (see {@link OpenTransactions}) */
    public OpenTransactions openWriters() {
        Set<String> writers = new HashSet<>();
        try (Statement st = session.getConnection().createStatement()) {
            st.setQueryTimeout(Database.STATEMENT_TIMEOUT_SECONDS);
            try (ResultSet rs = st.executeQuery("SELECT connection_id, seq FROM history_writer WHERE open = 1")) {
                while (rs.next()) {
                    writers.add(rs.getLong(1) + "/" + rs.getLong(2));
                }
            }
        } catch (SQLException e) {
            if (MARKS_REFUSED.contains(e.getErrorCode())) {
                return new OpenTransactions(true, Set.of());
            }
            throw new IllegalStateException("cannot read the history writers' marks: " + DatabaseFailures.rootMessage(e), e);
        }
        return new OpenTransactions(false, writers);
    }

    /**
     * @return the highest id handed out, written or not (ids taken by statements still running, or lost to a rollback,
     *     included); the highest written one when the auto-increment counter cannot be read
     */
    public long allocatedThrough() {
        Long next = m.nextId();
        return next == null ? m.maxId() : Math.max(next - 1, m.maxId());
    }

    private static HistoryEntry entry(HistoryRow h) {
        return new HistoryEntry(h.orderId, h.fromStatus == null ? null : OrderStatus.ofCode(h.fromStatus),
                OrderStatus.ofCode(h.toStatus), h.version, ResultCode.ofCode(h.resultCode), h.actor, h.source, h.reason,
                h.atMs, h.eventKey);
    }

    /** @return applied transitions per edge since {@code sinceMs}: key = from code, key2 = to code */
    public List<CountRow> appliedEdgesSince(long sinceMs) {
        return m.appliedEdgesSince(sinceMs);
    }

    /**
     * @return transition attempts per result code since {@code sinceMs} by minute: key = minute
     *     (epoch ms / 60000), key2 = code; creation rows are not transitions and are left out
     */
    public List<CountRow> perMinuteSince(long sinceMs) {
        return m.perMinuteSince(sinceMs);
    }

    private static HistoryRow row(HistoryEntry e) {
        HistoryRow h = new HistoryRow();
        h.orderId = e.orderId();
        h.fromStatus = e.from() == null ? null : e.from().code();
        h.toStatus = e.to().code();
        h.version = e.version();
        h.resultCode = e.code().code();
        h.actor = e.actor();
        h.source = e.source();
        h.reason = e.reason() == null ? "" : e.reason();
        h.atMs = e.atMs();
        h.eventKey = e.eventKey();
        return h;
    }
}
