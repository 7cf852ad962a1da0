package com.orderconsole.store;

import org.apache.ibatis.session.SqlSession;

import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * The {@code orders} table: the durable record of each order's status and version. The one class
 * that reads and writes it; times are epoch milliseconds (Redis server clock).
 */
public final class OrderStore {
    /**
     * The version guard of {@link #applyIfNewer} for many orders: an UPDATE joined to the new values, ids cast
     * to the column's character set and collation so that the join looks them up by primary key.
     */
    private static final MultiRowSql APPLY_ALL = new MultiRowSql("UPDATE orders o JOIN (",
            "SELECT CAST(? AS CHAR(64) CHARACTER SET ascii) COLLATE ascii_bin id,? st,? v,? t",
            "SELECT CAST(? AS CHAR(64) CHARACTER SET ascii) COLLATE ascii_bin,?,?,?", " UNION ALL ",
            ") x ON o.order_id=x.id SET o.status=x.st,o.version=x.v,o.status_since_ms=x.t WHERE o.version<x.v", 500);

    private final OrderMapper m;
    private final SqlSession session;

    OrderStore(OrderMapper m, SqlSession session) {
        this.m = m;
        this.session = session;
    }

    /** Inserts unless the id exists. @return true when inserted */
    public boolean insertIgnore(OrderRow row) {
        return m.insertIgnore(row) == 1;
    }

    /**
     * Which of {@code ids} exist, locking them and the gaps where absent ones would go until the
     * transaction ends, so a concurrent create cannot slip in between this check and an insert.
     */
    public List<String> existingIdsForUpdate(List<String> ids) {
        return m.existingIdsForUpdate(ids);
    }

    /** @return the row, or null */
    public OrderRow find(String id) {
        return m.findById(id);
    }

    /** @return the rows of those ids that exist */
    public List<OrderRow> findAll(List<String> ids) {
        return ids.isEmpty() ? List.of() : m.findByIds(ids);
    }

    /**
     * Version guard: writes the new status only when MySQL holds an older version, so a replayed or
     * out-of-order outbox entry never overwrites newer state. Only the MySQL follower calls it.
     *
     * @param sinceMs when the status was entered, epoch ms
     * @return true when applied, false when already at that version or newer (or no such row)
     */
    public boolean applyIfNewer(String id, int status, long version, long sinceMs) {
        return m.applyIfNewer(id, status, version, sinceMs) == 1;
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
     * {@link #applyIfNewer} for many orders in one statement per 500, each row under its own version guard;
     * ids absent from MySQL stay absent. The MySQL follower's batch path: one statement instead of one per order.
     *
     * @param rows at most one per order
     * @return rows changed
     */
    public int applyAllIfNewer(List<Apply> rows) {
        if (rows.isEmpty()) {
            return 0;
        }
        return APPLY_ALL.run(session.getConnection(), rows, (ps, p, r) -> {
            ps.setString(p, r.orderId());
            ps.setInt(p + 1, r.status());
            ps.setLong(p + 2, r.version());
            ps.setLong(p + 3, r.sinceMs());
            return p + 4;
        }, "move orders forward");
    }

    /** Records a payment deadline (epoch ms), so a rebuild after a Redis loss keeps it. */
    public void setExpiry(String id, long expireAtMs) {
        m.setExpiry(id, expireAtMs);
    }

    /** Marks orders whose Redis state now exists. */
    public void markRedisReady(List<String> ids) {
        if (!ids.isEmpty()) {
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
