package com.orderconsole.service.order;

import com.orderconsole.domain.OrderId;
import com.orderconsole.domain.OrderState;
import com.orderconsole.domain.OrderStatus;
import com.orderconsole.redis.OrderStateStore;
import com.orderconsole.redis.RedisConnection;
import com.orderconsole.redis.RedisKeys;
import com.orderconsole.service.AuditTrail;
import com.orderconsole.service.MalformedIds;
import com.orderconsole.service.follower.Follower;
import com.orderconsole.service.follower.TerminalRetention;
import com.orderconsole.store.AuditRow;
import com.orderconsole.store.Database;
import com.orderconsole.store.DeadLetterRow;
import com.orderconsole.store.OrderPageQuery;
import com.orderconsole.store.OrderRow;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Puts orders' Redis state back from MySQL, the durable record: one order on demand (a transition, a repair, a
 * dead letter), creations interrupted after the MySQL step, unpaid orders Redis lost, and every stale state after
 * Redis came back from an older copy. What the outbox still holds for the buckets involved is applied to MySQL
 * first, so a transition Redis accepted before it lost the state is part of the rebuilt state. Split out of
 * {@link OrderService}, which creates, looks up and pages orders: the recovery paths (maintenance, transitions,
 * reconciliation, the dead-letter list) need this half only.
 */
public final class OrderRebuilder {
    private static final Logger log = LoggerFactory.getLogger(OrderRebuilder.class);
    /** Creations younger than this (ms) are left to the process that is creating them. */
    private static final long PENDING_GRACE_MS = 5000;
    /**
     * How far past its deadline (ms) an unpaid order in MySQL must be before {@link #restoreOverdueUnpaid}
     * looks at it: well beyond one sweep (1 s) plus normal follower lag, so an order the sweeper has
     * just cancelled in Redis is not even read.
     */
    private static final long OVERDUE_GRACE_MS = 30_000;
    /** Pages of 1,000 one round reads at most, so a long follower backlog cannot make a round slow. */
    private static final int OVERDUE_MAX_PAGES = 20;

    private final RedisConnection clock;
    private final OrderStateStore states;
    private final Follower follower;
    private final Database db;
    /** Null: terminal orders stay in Redis, rebuilt ones too. */
    private final TerminalRetention retention;
    private final MalformedIds malformed;

    /**
     * Built by the wiring ({@code app.Services}); {@code clock} gives Redis {@code TIME}; a terminal order rebuilt
     * from MySQL leaves Redis again after {@code retention} (at least {@link TerminalRetention#REBUILD_GRACE}; null: it stays);
     * a row whose id breaks the id rule is set aside in {@code malformed}, never given Redis state.
     */
    public OrderRebuilder(RedisConnection clock, OrderStateStore states, Database db, Follower follower, TerminalRetention retention,
                          MalformedIds malformed) {
        this.malformed = malformed;
        this.clock = clock;
        this.states = states;
        this.db = db;
        this.follower = follower;
        this.retention = retention;
    }

    /**
     * Puts back the Redis state and (already due) cancel-queue entry of unpaid orders that MySQL holds
     * more than 30 s past their payment deadline and Redis has no state for. Redis restarted from an
     * append-only file written once a second can lose a creation that MySQL already has (seen in the
     * 30-minute fault soak); the epoch marker survives, so no data-set restore runs, and without this
     * nothing would ever cancel the order. State that exists is never overwritten (an order paid or
     * cancelled in Redis and not yet in MySQL stays as it is), and the buckets involved are drained
     * first, as in {@link #rebuild}. The sweeper cancels a restored order on its next tick.
     *
     * @return orders whose Redis state was restored
     */
    public long restoreOverdueUnpaid() {
        long before = clock.nowMs() - OVERDUE_GRACE_MS;
        long afterSince = Long.MIN_VALUE;
        String afterId = "";
        long restored = 0;
        for (int page = 0; page < OVERDUE_MAX_PAGES; page++) {
            long since = afterSince;
            String id = afterId;
            List<OrderRow> rows = db.read(t -> t.orders().overdueUnpaid(before, since, id, 1000));
            if (rows.isEmpty()) {
                break;
            }
            Map<String, OrderRow> missing = new LinkedHashMap<>();
            OrderStateStore.States seen = states.getAllChecked(rows.stream().map(r -> r.orderId).toList());
            rows.stream().filter(r -> seen.states().get(r.orderId) == null && !seen.malformed().containsKey(r.orderId))
                    .forEach(r -> missing.put(r.orderId, r));
            if (!missing.isEmpty()) {
                missing.keySet().stream().map(RedisKeys::bucket).distinct().forEach(follower::drainBucket);
                Map<OrderState, Long> toInit = new LinkedHashMap<>();
                java.util.Set<String> removed = removedOnPurpose(List.copyOf(missing.keySet()));
                for (OrderRow r : db.read(t -> t.orders().findAll(List.copyOf(missing.keySet())))) {
                    if (r.status == OrderStatus.WAIT_PAY.code() && loadable(r) && !removed.contains(r.orderId)) {
                        toInit.put(OrderCreator.stateOf(r), OrderCreator.expiryOf(r));
                    }
                }
                long n = states.initOrders(toInit);
                if (n > 0) {
                    log.warn("restored the Redis state of {} unpaid orders past their payment deadline that Redis had lost "
                            + "(e.g. {}); the sweeper cancels them now", n, toInit.keySet().iterator().next().orderId());
                }
                restored += n;
            }
            if (rows.size() < 1000) {
                break;
            }
            OrderRow last = rows.get(rows.size() - 1);
            afterSince = last.statusSinceMs;
            afterId = last.orderId;
        }
        return restored;
    }

    /**
     * Creates Redis state for orders whose creation stopped after the MySQL step (older than 5 s).
     *
     * @return how many were completed
     */
    public int finishPendingCreations() {
        long before = clock.nowMs() - PENDING_GRACE_MS;
        List<OrderRow> pending = db.read(t -> t.orders().redisPending(before, 500));
        List<String> ids = new ArrayList<>();
        for (OrderRow r : pending) {
            if (rebuildFrom(r)) {
                ids.add(r.orderId);
            }
        }
        db.inTransaction(t -> {
            t.orders().markRedisReady(ids);
            return null;
        });
        int done = ids.size();
        if (done > 0) {
            log.info("completed Redis state of {} orders whose creation was interrupted", done);
        }
        return done;
    }

    /**
     * Rebuilds one order's Redis state from its MySQL row, if Redis has none (never overwrites). What
     * the outbox still holds for the order's bucket is applied to MySQL first, so a transition Redis
     * accepted before it lost the state is part of the rebuilt state.
     *
     * @return true when MySQL knows the order (state now exists in Redis), false when it does not
     */
    public boolean rebuild(String orderId) {
        OrderId.require(orderId);
        OrderRow row = rowNotBehindOutbox(orderId);
        if (row == null) {
            return false;
        }
        rebuildFrom(row);
        return true;
    }

    /**
     * Replaces one order's Redis state with MySQL's (the durable record), after applying what the outbox
     * still holds for its bucket: for a record set aside as malformed, or a Redis state no recorded
     * transition explains.
     *
     * @return the state now in Redis, or null when MySQL has no record of the order (Redis unchanged)
     */
    public OrderState restoreFromMysql(String orderId) {
        OrderId.require(orderId);
        OrderRow row = rowNotBehindOutbox(orderId);
        if (row == null) {
            return null;
        }
        states.forget(orderId);
        rebuildFrom(row);
        return states.get(orderId);
    }

    /**
     * Replaces every Redis order state that is older than MySQL's (a lower version, or the same version with
     * another status), or malformed, after Redis was restored from an older copy and the outbox it still
     * held was applied; in SCAN pages joined with MySQL.
     *
     * @return states replaced
     */
    public long restoreStale() {
        long[] replaced = {0};
        List<String> wereMalformed = new ArrayList<>();
        states.scan(1000, page -> {
            List<String> ids = new ArrayList<>(page.states().keySet());
            Map<String, OrderRow> rows = new LinkedHashMap<>();
            db.read(t -> t.orders().findAll(ids)).forEach(r -> rows.put(r.orderId, r));
            for (String id : ids) {
                OrderRow row = rows.get(id);
                OrderState st = page.states().get(id);
                boolean stale = st != null && row != null && (row.version > st.version()
                        || row.version == st.version() && row.status != st.status().code());
                if (row != null && (stale || page.malformed().containsKey(id)) && loadable(row)) {
                    states.forget(id);
                    rebuildFrom(row);
                    replaced[0]++;
                    if (page.malformed().containsKey(id)) {
                        wereMalformed.add(id);
                    }
                }
            }
        });
        closeRecordLetters(wereMalformed);
        return replaced[0];
    }

    /**
     * Recreates the Redis state and cancel-queue entry of every order MySQL has in WAIT_PAY (after Redis
     * lost its data), in keyset pages of 1,000 with pipelined writes. Existing state is never overwritten.
     *
     * @return orders whose state was recreated
     */
    public long rebuildUnpaid() {
        OrderPageQuery pq = new OrderPageQuery();
        pq.statuses = List.of(OrderStatus.WAIT_PAY.code());
        pq.limit = 1000;
        long created = 0;
        while (true) {
            List<OrderRow> rows = db.read(t -> t.orders().page(pq));
            Map<OrderState, Long> toInit = new LinkedHashMap<>();
            java.util.Set<String> removed = removedOnPurpose(rows.stream().map(r -> r.orderId).toList());
            rows.stream().filter(this::loadable).forEach(r -> toInit.put(OrderCreator.stateOf(r),
                    removed.contains(r.orderId) ? null : OrderCreator.expiryOf(r)));
            created += states.initOrders(toInit);
            if (rows.size() < pq.limit) {
                return created;
            }
            pq.afterId = rows.get(rows.size() - 1).orderId;
        }
    }

    /**
     * The order's MySQL row once MySQL has what the outbox holds for it (issue 33.6). This session applies the bucket's
     * outbox itself where it runs the follower; a person's session, which does not, waits for the follower of serve
     * (up to {@link #FOLLOWER_WAIT_MS}). A row older than an applied move still in the outbox is never used: a lost
     * hash rebuilt from it would take the order back (a paid order to WAIT_PAY, into the cancel queue).
     *
     * @return the row, or null when MySQL has no record of the order
     * @throws IllegalStateException in words when the outbox still holds a newer version MySQL has not applied
     */
    private OrderRow rowNotBehindOutbox(String orderId) {
        int bucket = RedisKeys.bucket(orderId);
        long end = System.nanoTime() + FOLLOWER_WAIT_MS * 1_000_000L;
        while (true) {
            follower.drainBucket(bucket);
            OrderRow row = db.read(t -> t.orders().find(orderId));
            java.util.Map<String, Long> pending = follower.pendingVersions(bucket, PENDING_CAP);
            Long ahead = pending == null ? null : pending.get(orderId);
            if (row == null && ahead == null) {
                return null;
            }
            boolean behind = pending == null || ahead != null && (row == null || ahead > row.version);
            if (!behind) {
                return row;
            }
            if (System.nanoTime() > end) {
                throw new IllegalStateException("order " + orderId + " is not rebuilt from MySQL: the Redis outbox still holds "
                        + (ahead != null ? "version " + ahead + " of it" : follower.waitingForRestore()
                        ? "what it held when Redis lost its data-set marker (a restore from MySQL is due)"
                        : "more than " + PENDING_CAP + " changes of its bucket")
                        + ", which MySQL" + (row == null ? "" : " (version " + row.version + ")") + " has not applied yet"
                        + (follower.appliesHere() ? "" : "; is 'serve' (the MySQL follower) running?")
                        + " Try again once the follower has applied it");
            }
            try {
                Thread.sleep(100);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new IllegalStateException("interrupted while waiting for the MySQL follower to apply order " + orderId, e);
            }
        }
    }

    /** How long a rebuild waits for the follower to apply what the outbox holds for the order, ms. */
    static final long FOLLOWER_WAIT_MS = 3000;
    /** Pending entries of a bucket read at most to find the order's (more: wait, then refuse). */
    private static final int PENDING_CAP = 10_000;

    /**
     * Unpaid orders among these whose cancel-queue entry an operator removed on purpose (MySQL's audit trail records it):
     * rebuilt without an entry, so a Redis loss never has the sweeper cancel an order someone decided to keep.
     */
    private java.util.Set<String> removedOnPurpose(List<String> ids) {
        return ids.isEmpty() ? java.util.Set.of() : db.read(t -> t.audit().queueRemovals(ids)).keySet();
    }

    /**
     * Closes the open record letters ({@code ORDER_RECORD}) of orders whose malformed Redis record the restore replaced
     * with MySQL's, as a retry of them would (restored from MySQL), each with its audit row: left open, they asked ops
     * to retry what was repaired already. A letter that cannot be closed now stays open (a retry still closes it).
     */
    private void closeRecordLetters(List<String> ids) {
        for (String id : ids) {
            try {
                DeadLetterRow letter = db.read(t -> t.deadLetters().openRecordLetter(id));
                if (letter == null) {
                    continue;
                }
                long now = System.currentTimeMillis();
                String text = "closed by the data-set restore: Redis restored from MySQL";
                db.inTransaction(t -> t.deadLetters().resolve(letter.id, "RETRIED", RESTORE_ACTOR, now, text,
                        new AuditRow(now, RESTORE_ACTOR, "maintenance", AuditTrail.DEAD_LETTER_RETRY, id, "", "letter " + letter.id + ": " + text)));
            } catch (RuntimeException e) {
                log.warn("order {} was restored from MySQL, but its dead letter could not be closed now: {}", id, e.getMessage());
            }
        }
    }

    /** Who closes a letter in the restore's name where the database does not stamp the caller's login. */
    private static final String RESTORE_ACTOR = "maintenance";

    /**
     * Whether a MySQL row may get Redis state: not when its id breaks the id rule (stored before the procedures refused
     * such ids, or by hand). Such an order could never be moved, nor cancelled by the sweeper, and its queue entry stood
     * first in its bucket at every tick; it is set aside (one dead letter) and every other order goes on.
     */
    private boolean loadable(OrderRow row) {
        if (OrderId.isValid(row.orderId)) {
            return true;
        }
        malformed.setAside(row.orderId, "MySQL's orders table (status code " + row.status + ", version " + row.version + ")",
                "Maintenance and repairs give it no Redis state and no cancel-queue entry, and go on with every other order: no "
                + "transition can run on this id. The MySQL row stays as the record; discard this letter once the order is dealt with.");
        return false;
    }

    /**
     * Writes one row's state into Redis unless Redis has state for the order (never overwrites).
     *
     * @return true when Redis has the order's state now, false when its id is set aside
     */
    private boolean rebuildFrom(OrderRow row) {
        if (!loadable(row)) {
            return false;
        }
        OrderState st = OrderCreator.stateOf(row);
        TerminalRetention r = retention;
        Long retireAt = r == null ? null : r.rebuiltRetireAtMs(st, clock.nowMs());
        Long expiry = OrderCreator.expiryOf(row);
        if (expiry != null && !removedOnPurpose(List.of(row.orderId)).isEmpty()) {
            expiry = null;
        }
        if (states.initOrder(st, expiry, retireAt)) {
            log.info("rebuilt Redis state of order {} from MySQL: {} v{}", row.orderId, st.status(), st.version());
        }
        return true;
    }
}
