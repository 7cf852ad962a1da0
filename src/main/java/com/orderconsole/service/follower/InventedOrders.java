package com.orderconsole.service.follower;

import com.orderconsole.domain.HistoryEntry;
import com.orderconsole.redis.OrderStateStore;
import com.orderconsole.redis.OutboxEntry;
import com.orderconsole.service.LogLimiter;
import com.orderconsole.store.DeadLetterRow;
import com.orderconsole.store.Tables;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;

/**
 * Outbox entries of orders neither MySQL nor Redis has (invented): orders are written to MySQL before Redis, so no
 * recorded order explains them, and they are kept out of the history as UNKNOWN_ORDER dead letters.
 */
final class InventedOrders {
    private static final Logger log = LoggerFactory.getLogger(Follower.class);
    /** Asked only about orders MySQL lacks: whether Redis has them (real) or not (invented). */
    private final OrderStateStore states;
    /** One line an hour that MySQL lacks orders Redis has: after a MySQL restore every batch would say it. */
    private final LogLimiter redisOnlyLog = new LogLimiter(3_600_000);

    InventedOrders(OrderStateStore states) {
        this.states = states;
    }

    /**
     * Which orders of a batch neither MySQL nor Redis has. Orders are created in MySQL first, so an order MySQL lacks
     * but Redis has is one a MySQL restored from an older backup lost: real, kept (and said).
     *
     * <p>Asked lazily, not for every batch: only when the guarded UPDATE changed fewer rows than it moved
     * orders (an order missing, or an entry MySQL already has: a replay, a row moved on by a repair), then
     * about every order of the batch; and about the orders with only refused attempts in the batch, which no
     * UPDATE can vouch for. Why not one JSON_TABLE anti-join per batch, always: measured on the embedded MariaDB
     * of the 2-core test host, it costs 7.5-15 ms for a batch of 2,000 orders, against 150-240 ms for draining that
     * batch on one thread there (4-7 %), and would be 10-20 % of the ~71 ms a batch takes at ~28,000 entries/s.
     * Asked lazily, a batch with nothing missing pays the SAVEPOINT alone: 0.15-0.45 ms (0.1-0.3 %).
     *
     * @param moved the orders the guarded UPDATE moved
     * @param changed the rows it changed
     * @return the invented orders, none when every order is in MySQL or Redis
     */
    Set<String> find(Tables t, List<HistoryEntry> rows, Set<String> moved, int changed) {
        Set<String> ask = new LinkedHashSet<>();
        boolean allMoved = changed >= moved.size();
        for (HistoryEntry h : rows) {
            if (!allMoved || !moved.contains(h.orderId())) {
                ask.add(h.orderId());
            }
        }
        if (ask.isEmpty()) {
            return Set.of();
        }
        List<String> missing = t.orders().missing(new ArrayList<>(ask));
        if (missing.isEmpty()) {
            return Set.of();
        }
        Set<String> inRedis = states.present(missing);
        Set<String> out = new LinkedHashSet<>(missing);
        out.removeAll(inRedis);
        if (!inRedis.isEmpty()) {
            long held = redisOnlyLog.occurrence("redis-only");
            if (held >= 0) {
                boolean one = inRedis.size() == 1;
                log.warn("MySQL lacks {} order{} Redis has ({}{}), as after MySQL was restored from an older backup: {} "
                                + "transitions are kept in MySQL's history; reconciliation lists such orders under \"Missing in MySQL\", "
                                + "where an admin copies them into MySQL{}", inRedis.size(), one ? "" : "s", one ? "" : "e.g. ",
                        inRedis.iterator().next(), one ? "its" : "their", redisOnlyLog.more(held));
            }
        }
        return out;
    }

    /** Leaves the invented orders' rows out of the batch and sets each of their entries aside. */
    static void setAside(Batch b, Set<String> invented) {
        List<HistoryEntry> kept = new ArrayList<>(b.rows.size());
        for (HistoryEntry h : b.rows) {
            if (!invented.contains(h.orderId())) {
                kept.add(h);
            }
        }
        b.rows = kept;
        for (OutboxEntry e : b.entries) {
            if (e.readable() && invented.contains(e.entry().orderId()) && !b.skip.contains(e.streamId())) {
                b.setAside(DeadLetterRow.UNKNOWN_ORDER, e, e.entry().orderId(), "order " + e.entry().orderId()
                        + " is in neither MySQL nor Redis, so no recorded order explains this outbox entry (orders are "
                        + "written to MySQL before Redis): kept out of the history");
            }
        }
    }
}
