package com.orderconsole.store;

import com.orderconsole.domain.HistoryEntry;

import org.apache.ibatis.session.SqlSession;

import java.sql.PreparedStatement;
import java.sql.SQLException;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * The {@code orders} table: the durable record of each order's status and version. The one class
 * that reads and writes it; times are epoch milliseconds (Redis server clock).
 */
public final class OrderStore {
    /**
     * The version guard (MySQL's version below the new one) for many orders: an UPDATE joined to the new values, read from
     * one JSON parameter by JSON_TABLE (MariaDB 10.6+, MySQL 8.0.4+), ids cast to the column's character set
     * and collation so that the join looks them up by primary key.
     *
     * <p>Why JSON_TABLE and not a derived table of {@code SELECT ? UNION ALL SELECT ? …}: MariaDB parses and
     * plans each of those 500 SELECTs as a query block of its own; one JSON text is one thing to parse. Measured
     * side by side on the same rows (docs/benchmarks-history.md, "statement cost"): 16.0 µs of MariaDB CPU per order
     * moved in the UNION ALL form, 9.6 µs in this one.
     */
    /**
     * A JSON id and the row's id, byte for byte: the column's collation pads trailing spaces ('TW-1 ' = 'TW-1'), equal
     * lengths on top leave exactly the equal bytes; the padded equality keeps the primary-key lookup.
     */
    private static final String SAME_ID = "o.order_id = CAST(x.id AS CHAR(64) CHARACTER SET ascii) COLLATE ascii_bin "
            + "AND LENGTH(o.order_id) = LENGTH(x.id) ";
    static final String APPLY_ALL = "UPDATE orders o JOIN JSON_TABLE(?, '$[*]' COLUMNS (id VARCHAR(64) PATH '$[0]', "
            + "st INT PATH '$[1]', v BIGINT PATH '$[2]', t BIGINT PATH '$[3]')) x "
            + "ON " + SAME_ID + " SET o.status = x.st, o.version = x.v, o.status_since_ms = x.t WHERE o.version < x.v";
    /**
     * {@link #APPLY_ALL} for the follower's sequence check: an order moves only when MySQL holds exactly the
     * state its first entry of the batch moves from (x.pv = that entry's version - 1, x.ps = its from-status); fewer
     * rows changed than orders sent tells the follower to look closer. No extra statement on the common path.
     */
    private static final String APPLY_IN_SEQUENCE = "UPDATE orders o JOIN JSON_TABLE(?, '$[*]' COLUMNS (id VARCHAR(64) PATH '$[0]', "
            + "st INT PATH '$[1]', v BIGINT PATH '$[2]', t BIGINT PATH '$[3]', pv BIGINT PATH '$[4]', ps INT PATH '$[5]')) x "
            + "ON " + SAME_ID + " SET o.status = x.st, o.version = x.v, o.status_since_ms = x.t WHERE o.version = x.pv AND o.status = x.ps";
    /** Orders per {@link #APPLY_ALL} statement: a follower batch of 2,000 entries is one to four statements. */
    private static final int APPLY_CHUNK = 500;
    /**
     * {@link #missing}: the ids of one JSON array that no row holds, matched as {@link #APPLY_ALL} matches them. An
     * anti-join rather than {@code NOT EXISTS}: on 2,000 ids, in two runs on the busy 2-core test host, 6.4-7.7 ms
     * against 8.2-18 ms for the subquery form (and 6.7-14 ms for {@code order_id IN (…)}, which returns the other half).
     */
    static final String MISSING = "SELECT x.id FROM JSON_TABLE(?, '$[*]' COLUMNS (id VARCHAR(64) PATH '$')) x "
            + "LEFT JOIN orders o ON " + SAME_ID + " WHERE o.order_id IS NULL";

    private final OrderMapper m;
    private final SqlSession session;
    /** A person's session: new orders and the columns a person changes go through the V39 procedures. */
    private final boolean stamped;

    /** Told before history rows are written ({@link Tables#historyWritten}). */
    private final Runnable writingHistory;

    OrderStore(OrderMapper m, SqlSession session, boolean stamped, Runnable writingHistory) {
        this.m = m;
        this.session = session;
        this.stamped = stamped;
        this.writingHistory = writingHistory;
    }

    /** How an API client's name is written as an actor: {@code api:<name>}. */
    public static final String API_ACTOR = "api:";
    /**
     * How a person who signed in with the identity provider and acts through serve is named: {@code sso:<name> via
     * <client>} (V49); serve's account writes their rows through V49's procedures, which accept recorded people only.
     */
    public static final String PERSON_ACTOR = "sso:";

    /**
     * Stores new orders and their history (ids that exist are skipped, and their history with them). In a person's
     * session the actor of every history row is the database's stamp of the signed-in login, whatever the entries say;
     * except one order created by an API client ({@link #API_ACTOR} prefix): V45's procedure, which only serve's
     * account may call, writes it in the client's name once it finds the client registered and not revoked; and one order
     * created by a person through serve ({@link #PERSON_ACTOR}), written by V49's procedure in their recorded name.
     *
     * @param rows orders whose ids {@link #existingIds} or {@link #existingIdsLocked} found absent in this transaction
     * @param history their history entries
     * @throws CreatedMeanwhileException when another transaction created one of them since: roll back and run again
     */
    public void create(List<OrderRow> rows, List<HistoryEntry> history) {
        if (rows.isEmpty()) {
            return;
        }
        writingHistory.run();
        if (stamped) {
            try {
                if (rows.size() == 1 && history.size() == 1 && history.get(0).actor().startsWith(API_ACTOR)) {
                    Procedures.createApiOrder(session.getConnection(), history.get(0).actor().substring(API_ACTOR.length()),
                            rows.get(0), history.get(0));
                } else if (rows.size() == 1 && history.size() == 1 && history.get(0).actor().startsWith(PERSON_ACTOR)) {
                    Procedures.createPersonOrder(session.getConnection(), history.get(0).actor(), rows.get(0), history.get(0));
                } else {
                    Procedures.createOrders(session.getConnection(), rows, history);
                }
            } catch (IllegalStateException e) {
                if (DatabaseFailures.duplicateKey(e)) {
                    throw new CreatedMeanwhileException("an order of this creation was created meanwhile by another", e);
                }
                throw e;
            }
            return;
        }
        for (OrderRow r : rows) {
            // 0: another transaction created it since this one found it absent (a batch session answers no count).
            if (m.insertIgnore(r) == 0) {
                throw new CreatedMeanwhileException("order " + r.orderId + " was created meanwhile by another", null);
            }
        }
        new HistoryStore(session.getMapper(HistoryMapper.class), session, writingHistory).appendEach(history);
    }

    /**
     * Which of {@code ids} exist, with a shared lock on them and the gaps where absent ones would go until the
     * transaction ends, so a concurrent create cannot slip in between this check and an insert. Shared, not FOR UPDATE:
     * MySQL 8 asks UPDATE privilege for that, and a person's role has none on orders.
     */
    public List<String> existingIdsLocked(List<String> ids) {
        return m.existingIdsLocked(ids);
    }

    /**
     * The rows of a lookup by id are kept only when their id is the asked one byte for byte: the column's collation
     * pads trailing spaces, so {@code order_id = 'TW-1'} also finds a row stored as 'TW-1 '.
     */
    private static List<OrderRow> exact(List<String> ids, List<OrderRow> rows) {
        java.util.Set<String> asked = new java.util.HashSet<>(ids);
        rows.removeIf(r -> !asked.contains(r.orderId));
        return rows;
    }

    /**
     * Which of {@code ids} exist, locking nothing: a creation that finds an id absent inserts it and relies on the unique
     * keys, and one created meanwhile by another transaction fails the insert ({@link CreatedMeanwhileException}). A
     * locking read would lock the gap where an absent id goes, and two creations inserting into each other's gap
     * deadlock.
     */
    public List<String> existingIds(List<String> ids) {
        return m.existingIds(ids);
    }

    /** @return the row of exactly this id, or null */
    public OrderRow find(String id) {
        OrderRow r = m.findById(id);
        return r == null || r.orderId.equals(id) ? r : null;
    }

    /** @return the rows of those ids that exist, with order id, status, version, deadline and creation time only filled in */
    public List<OrderRow> heads(List<String> ids) {
        return ids.isEmpty() ? List.of() : exact(ids, new ArrayList<>(m.headsByIds(ids)));
    }

    /** @return the rows of exactly those ids that exist */
    public List<OrderRow> findAll(List<String> ids) {
        return ids.isEmpty() ? List.of() : exact(ids, new ArrayList<>(m.findByIds(ids)));
    }

    /**
     * One order moved forward by {@link #applyAllIfNewer}.
     *
     * @param orderId the order
     * @param status status code to write
     * @param version version to write, applied only over an older one
     * @param sinceMs when the status was entered, epoch ms
     */
    public record Apply(String orderId, int status, long version, long sinceMs) {
    }

    /**
     * {@link #applyAllIfNewer}, but each order moves only from the state its first entry of the batch moves from.
     *
     * @param rows at most one per order, the newest state
     * @param fromVersion per row: the version MySQL must hold (the first entry's version - 1)
     * @param fromStatus per row: the status MySQL must hold at it (the first entry's from-status)
     * @return rows changed
     */
    public int applyAllInSequence(List<Apply> rows, long[] fromVersion, int[] fromStatus) {
        if (rows.isEmpty()) {
            return 0;
        }
        int changed = 0;
        try (PreparedStatement ps = session.getConnection().prepareStatement(APPLY_IN_SEQUENCE)) {
            ps.setQueryTimeout(Database.STATEMENT_TIMEOUT_SECONDS);
            for (int i = 0; i < rows.size(); i += APPLY_CHUNK) {
                int end = Math.min(rows.size(), i + APPLY_CHUNK);
                StringBuilder b = new StringBuilder((end - i) * 72).append('[');
                for (int k = i; k < end; k++) {
                    Apply r = rows.get(k);
                    b.append(k > i ? ",[" : "[");
                    quote(b, r.orderId());
                    b.append(',').append(r.status()).append(',').append(r.version()).append(',').append(r.sinceMs())
                            .append(',').append(fromVersion[k]).append(',').append(fromStatus[k]).append(']');
                }
                ps.setString(1, b.append(']').toString());
                changed += ps.executeUpdate();
            }
        } catch (SQLException e) {
            throw new IllegalStateException("cannot move orders forward: " + e.getMessage(), e);
        }
        return changed;
    }

    /**
     * The version guard for many orders in one statement per 500, each row under its own version guard;
     * ids absent from MySQL stay absent. The MySQL follower's batch path: one statement instead of one per order.
     *
     * @param rows at most one per order
     * @return rows changed
     */
    public int applyAllIfNewer(List<Apply> rows) {
        if (rows.isEmpty()) {
            return 0;
        }
        int changed = 0;
        try (PreparedStatement ps = session.getConnection().prepareStatement(APPLY_ALL)) {
            ps.setQueryTimeout(Database.STATEMENT_TIMEOUT_SECONDS);
            for (int i = 0; i < rows.size(); i += APPLY_CHUNK) {
                ps.setString(1, json(rows.subList(i, Math.min(rows.size(), i + APPLY_CHUNK))));
                changed += ps.executeUpdate();
            }
        } catch (SQLException e) {
            throw new IllegalStateException("cannot move orders forward: " + e.getMessage(), e);
        }
        return changed;
    }

    /**
     * Which of some ids MySQL holds no order for, in one statement per 500 ids (the MySQL follower asks when a
     * batch suggests an order it lacks). Reads without locking: an order row is never deleted, and one created
     * meanwhile was created before its Redis state, so it cannot be what an outbox entry is waiting for.
     *
     * @param ids order ids, each once
     * @return those of {@code ids} without a row, in no particular order
     */
    public List<String> missing(List<String> ids) {
        List<String> out = new java.util.ArrayList<>();
        if (ids.isEmpty()) {
            return out;
        }
        try (PreparedStatement ps = session.getConnection().prepareStatement(MISSING)) {
            ps.setQueryTimeout(Database.STATEMENT_TIMEOUT_SECONDS);
            for (int i = 0; i < ids.size(); i += APPLY_CHUNK) {
                StringBuilder b = new StringBuilder(ids.size() * 24).append('[');
                for (String id : ids.subList(i, Math.min(ids.size(), i + APPLY_CHUNK))) {
                    if (b.length() > 1) {
                        b.append(',');
                    }
                    quote(b, id);
                }
                ps.setString(1, b.append(']').toString());
                try (java.sql.ResultSet rs = ps.executeQuery()) {
                    while (rs.next()) {
                        out.add(rs.getString(1));
                    }
                }
            }
        } catch (SQLException e) {
            throw new IllegalStateException("cannot look up which orders MySQL holds: " + e.getMessage(), e);
        }
        return out;
    }

    /** @return {@code [["id",status,version,sinceMs],…]}; ids escaped as JSON strings whatever they hold */
    static String json(List<Apply> rows) {
        StringBuilder b = new StringBuilder(rows.size() * 56).append('[');
        for (Apply r : rows) {
            if (b.length() > 1) {
                b.append(',');
            }
            b.append('[');
            quote(b, r.orderId());
            b.append(',').append(r.status()).append(',').append(r.version()).append(',').append(r.sinceMs()).append(']');
        }
        return b.append(']').toString();
    }

    /** Appends {@code id} as a JSON string, escaped whatever it holds. */
    private static void quote(StringBuilder b, String id) {
        b.append('"');
        for (int i = 0; i < id.length(); i++) {
            char c = id.charAt(i);
            if (c == '"' || c == '\\') {
                b.append('\\').append(c);
            } else if (c < 0x20) {
                b.append(String.format(java.util.Locale.ROOT, "\\u%04x", (int) c));
            } else {
                b.append(c);
            }
        }
        b.append('"');
    }

    /**
     * Records a payment deadline (epoch ms), so a rebuild after a Redis loss keeps it, and its audit row in the same unit
     * of work. In a person's session one procedure writes both (ops only, never one without the other): the deadline is what the
     * follower checks a sweeper's cancel against.
     *
     * @param audit the QUEUE_EXTEND row (its actor and time are the database's in a person's session)
     */
    public void setExpiry(String id, long expireAtMs, AuditRow audit) {
        if (stamped) {
            Procedures.setExpiry(session.getConnection(), id, expireAtMs, audit);
        } else {
            m.setExpiry(id, expireAtMs);
            session.getMapper(AuditMapper.class).insert(audit);
        }
    }

    /**
     * Moves an order's row to a version its own history records as applied, when the row is older (reconciliation);
     * the status and time come from that history row. A person's session calls V39's procedure, which reads the
     * history row itself; others apply the row the caller read under the same version guard.
     *
     * @param applied the history row MySQL records at that version, as read in this transaction
     */
    public void followHistory(HistoryEntry applied) {
        if (stamped) {
            Procedures.followHistory(session.getConnection(), applied.orderId(), applied.version());
        } else {
            m.applyIfNewer(applied.orderId(), applied.to().code(), applied.version(), applied.atMs());
        }
    }

    /**
     * Marks orders whose Redis state now exists. Only well-formed ids are marked: a malformed one (stored before the
     * procedures checked ids) cannot have Redis state the product made, and matched a twin through the padded column.
     */
    public void markRedisReady(List<String> all) {
        List<String> ids = all.stream().filter(com.orderconsole.domain.OrderId::isValid).toList();
        if (ids.isEmpty()) {
            return;
        }
        if (stamped) {
            Procedures.markLoaded(session.getConnection(), ids);
        } else {
            m.markRedisReadyAll(ids);
        }
    }

    /** @return orders whose creation stopped before their Redis state existed, created before {@code beforeMs} */
    public List<OrderRow> redisPending(long beforeMs, int limit) {
        return m.redisPending(beforeMs, limit);
    }

    /**
     * One keyset page of the orders MySQL holds in WAIT_PAY past their payment deadline.
     *
     * @param beforeMs epoch ms: deadlines (and creations) before this count
     * @param afterSinceMs status-since time (epoch ms) of the last row of the previous page, {@code Long.MIN_VALUE} at first
     * @param afterId order id of the last row of the previous page, "" at first
     * @param limit page size
     * @return up to {@code limit} rows, oldest first
     */
    public List<OrderRow> overdueUnpaid(long beforeMs, long afterSinceMs, String afterId, int limit) {
        return m.overdueUnpaid(beforeMs, afterSinceMs, afterId, limit);
    }

    /** @return orders per status code (codes without orders absent) */
    public Map<Integer, Long> countByStatus() {
        Map<Integer, Long> out = new HashMap<>();
        m.countByStatus().forEach(r -> out.put(r.key, r.n));
        return out;
    }

    /** @return orders in {@code status} since before {@code beforeMs} */
    public long countStuck(int status, long beforeMs) {
        return m.countStuck(status, beforeMs);
    }

    /** @return all orders */
    public long countAll() {
        return m.countAll();
    }

    /** @return one page of the order table; see {@link OrderPageQuery} */
    public List<OrderRow> page(OrderPageQuery q) {
        return m.page(q);
    }
}
