package com.orderconsole.service.follower;

import com.orderconsole.domain.OrderState;
import com.orderconsole.domain.OrderStatus;
import com.orderconsole.redis.MalformedOrderException;
import com.orderconsole.redis.OrderStateStore;
import com.orderconsole.store.Database;
import com.orderconsole.store.DeadLetterRow;
import com.orderconsole.store.OrderRow;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

/**
 * After the follower sets an order's outbox entry aside, the order must not stay different in Redis and MySQL: Redis
 * may hold the state the set-aside entry describes (a revoked client's move, a forged hash), and every later move made
 * on it would be set aside too, so the order would never move in MySQL again. Once the outbox holds nothing more of the
 * order, a Redis state other than MySQL's is replaced by MySQL's (the durable record) and one dead letter
 * ({@link #KIND}) names the state Redis had and every entry set aside for the order, so ops and the audit see what
 * happened. A Redis state that follows MySQL (a forged entry that changed no hash) is left as it is.
 *
 * <p>Why "once the outbox holds nothing more of the order": an entry still after the cursor is judged by the next batch
 * first (applied if it follows MySQL, set aside otherwise); a move made after that look changes the hash's version, and
 * it was made on a state no record explains, so its entry is set aside and the order restored again. The orders waiting
 * are kept in memory per bucket and looked at after each batch of their bucket, under its lock; a serve that stops
 * forgets them, and reconciliation then lists the order (Redis state with no record) with its repair.
 */
final class SetAsideConvergence {
    private static final Logger log = LoggerFactory.getLogger(Follower.class);
    /** The dead letter that says an order's Redis state was restored from MySQL after entries were set aside. */
    static final String KIND = com.orderconsole.store.DeadLetterRow.REDIS_RESTORED;
    /** Pending entries of a bucket read at most to look for the order's; more: looked at again after the next batch. */
    private static final int PENDING_CAP = 10_000;

    private final OrderStateStore states;
    private final Database db;
    private final OutboxBacklog backlog;
    private final TerminalRetention retention;
    /** Per bucket: order id to the stream ids set aside for it, oldest first. */
    private final Map<Integer, Map<String, Set<String>>> waiting = new ConcurrentHashMap<>();

    SetAsideConvergence(OrderStateStore states, Database db, OutboxBacklog backlog, TerminalRetention retention) {
        this.states = states;
        this.db = db;
        this.backlog = backlog;
        this.retention = retention;
    }

    /**
     * After a batch of {@code bucket} committed (the caller holds the bucket's lock).
     *
     * @param setAside order id to the stream ids this batch set aside for it (entries naming no order are not here)
     */
    void afterCommit(int bucket, Map<String, List<String>> setAside) {
        Map<String, Set<String>> mine = waiting.get(bucket);
        if (setAside.isEmpty() && (mine == null || mine.isEmpty())) {
            return;
        }
        Map<String, Set<String>> orders = waiting.computeIfAbsent(bucket, b -> new LinkedHashMap<>());
        setAside.forEach((id, ids) -> orders.computeIfAbsent(id, k -> new LinkedHashSet<>()).addAll(ids));
        for (String orderId : new ArrayList<>(orders.keySet())) {
            try {
                if (converge(bucket, orderId, orders.get(orderId))) {
                    orders.remove(orderId);
                }
            } catch (RuntimeException e) {
                log.debug("order {}: its Redis state is compared with MySQL again after the next batch: {}", orderId, e.getMessage());
            }
        }
    }

    /** @return true when the order is done with: Redis follows MySQL, or there is nothing to restore */
    private boolean converge(int bucket, String orderId, Set<String> entries) {
        OrderState redis;
        try {
            redis = states.get(orderId);
        } catch (MalformedOrderException e) {
            return true; // the transition script sets a malformed record aside itself, with its own dead letter
        }
        OrderRow row = db.read(t -> t.orders().find(orderId));
        if (redis == null || row == null) {
            return true; // nothing in Redis to disagree (rebuilt from MySQL on use), or no record to restore to
        }
        if (redis.version() == row.version && redis.status().code() == row.status) {
            return true;
        }
        Map<String, Long> pending = backlog.pendingVersions(bucket, PENDING_CAP);
        if (pending == null || pending.containsKey(orderId)) {
            return false; // the next batch judges what the outbox still holds of it first
        }
        OrderState record = new OrderState(orderId, OrderStatus.ofCode(row.status), row.version, row.statusSinceMs, row.createdAtMs);
        Long expiry = row.status != OrderStatus.WAIT_PAY.code() ? null
                : row.expireAtMs != null ? row.expireAtMs : row.createdAtMs + 30 * 60_000L;
        states.forget(orderId);
        Long retireAt = retention == null ? null : retention.rebuiltRetireAtMs(record, states.nowMs());
        if (states.initOrder(record, expiry, retireAt)) {
            // The counters count what MySQL applied (set-aside entries move none): forget and init moved them, undone.
            states.adjustCount(orderId, redis.status().code(), 1);
            states.adjustCount(orderId, row.status, -1);
        }
        List<String> named = new ArrayList<>(entries);
        String reason = "order " + orderId + " was " + redis.status() + " v" + redis.version() + " in Redis, a state no recorded "
                + "transition explains, after the follower set aside " + named.size() + " outbox entr" + (named.size() == 1 ? "y" : "ies")
                + " of it (" + String.join(", ", named.subList(0, Math.min(3, named.size()))) + (named.size() > 3 ? ", …" : "")
                + "; the body names all): Redis now holds MySQL's record, " + record.status() + " v" + record.version()
                + ". Moves answered on the state Redis had are not in MySQL";
        String body = "redis: " + redis.status() + " v" + redis.version() + "; mysql: " + record.status() + " v" + record.version()
                + "; entries set aside (bucket " + bucket + "): " + String.join(" ", named);
        DeadLetterRow d = DeadLetterRow.open(KIND, orderId, bucket, named.get(0), reason, body, System.currentTimeMillis(),
                "restored:" + orderId + ":v" + redis.version() + ":" + named.get(named.size() - 1));
        db.inTransaction(t -> t.deadLetters().add(d));
        log.warn("{}", reason);
        return true;
    }
}
