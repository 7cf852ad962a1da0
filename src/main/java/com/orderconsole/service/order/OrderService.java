package com.orderconsole.service.order;

import com.orderconsole.domain.HistoryEntry;
import com.orderconsole.domain.Operator;
import com.orderconsole.domain.OrderId;
import com.orderconsole.domain.OrderState;
import com.orderconsole.domain.OrderStatus;
import com.orderconsole.domain.ResultCode;
import com.orderconsole.domain.Role;
import com.orderconsole.redis.CancelQueueStore;
import com.orderconsole.redis.OrderStateStore;
import com.orderconsole.redis.RedisConnection;
import com.orderconsole.service.Access;
import com.orderconsole.service.rules.StuckThresholds;
import com.orderconsole.service.follower.Follower;
import com.orderconsole.service.rules.RulesService;
import com.orderconsole.store.Database;
import com.orderconsole.store.OrderPageQuery;
import com.orderconsole.store.OrderRow;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Order creation, lookup and the order table. Creation goes through {@link OrderCreator} (MySQL
 * first, then Redis). Lookups only read; rebuilding missing Redis state from MySQL (never treating a
 * known order as new) is {@link OrderRebuilder}'s, asked for by name ({@link #rebuildAndLookup}).
 */
public final class OrderService implements Orders {
    /** Longest payment timeout accepted; beyond it a typo (99999999999d) would park an order for ever. */
    public static final Duration MAX_PAYMENT_TIMEOUT = Duration.ofDays(365);
    private final RedisConnection clock;
    private final OrderStateStore states;
    private final Follower follower;
    private final CancelQueueStore queue;
    private final Database db;
    private final OrderCreator creator;
    private final OrderRebuilder rebuilder;
    private final Access access;
    private final RulesService rules;
    private final StuckThresholds stuck;
    /** Null: terminal orders stay in Redis (and rebuilt ones too). */
    private final com.orderconsole.service.follower.TerminalRetention retention;

    /**
     * Built by the wiring ({@code app.Services}); {@code clock} gives Redis {@code TIME}; {@code retention} tells a terminal
     * order that left Redis on purpose from one Redis lost (null: terminal orders stay in Redis).
     */
    public OrderService(RedisConnection clock, OrderStateStore states, CancelQueueStore queue, Database db,
                        OrderCreator creator, OrderRebuilder rebuilder, Follower follower, Access access, RulesService rules,
                        StuckThresholds stuck, com.orderconsole.service.follower.TerminalRetention retention) {
        this.retention = retention;
        this.clock = clock;
        this.states = states;
        this.follower = follower;
        this.queue = queue;
        this.db = db;
        this.creator = creator;
        this.rebuilder = rebuilder;
        this.access = access;
        this.rules = rules;
        this.stuck = stuck;
    }

    /**
     * Creates an order in WAIT_PAY: MySQL row first, then Redis state and cancel-queue entry (retried
     * three times). If Redis stays unavailable the row is kept marked "Redis pending" and
     * {@link OrderRebuilder#finishPendingCreations} completes it later; a transition rebuilds it too.
     *
     * @param operator who creates (support or higher)
     * @param orderId a valid id
     * @param customerId optional customer id (same syntax as order ids), may be null
     * @param expireIn time allowed for payment, e.g. 30 minutes
     * @return the created state
     * @throws IllegalArgumentException when the id exists already or an argument is invalid
     * @throws com.orderconsole.redis.RedisUnavailableException when Redis cannot even give the time (nothing stored)
     */
    public OrderState create(Operator operator, String orderId, String customerId, Duration expireIn) {
        return create(operator, orderId, customerId, expireIn, "create");
    }

    /**
     * {@link #create(Operator, String, String, Duration)} recorded under another source in the history.
     *
     * @param source where the order comes from, e.g. "create", "simulator"
     */
    public OrderState create(Operator operator, String orderId, String customerId, Duration expireIn, String source) {
        access.require(operator, Role.SUPPORT, "create orders");
        OrderId.require(orderId);
        if (customerId != null) {
            OrderId.require(customerId, "customer id");
        }
        if (expireIn == null || expireIn.isNegative() || expireIn.isZero() || expireIn.compareTo(MAX_PAYMENT_TIMEOUT) > 0) {
            throw new IllegalArgumentException("payment timeout must be positive and at most " + MAX_PAYMENT_TIMEOUT.toDays()
                    + " days, got " + expireIn);
        }
        long now = clock.nowMs();
        long expireAt = now + expireIn.toMillis();
        OrderRow row = new OrderRow(orderId, customerId, OrderStatus.WAIT_PAY.code(), 1, now, now, expireAt, false);
        HistoryEntry created = new HistoryEntry(orderId, null, OrderStatus.WAIT_PAY, 1, ResultCode.APPLIED, operator.name(),
                source, "", now, "create:" + orderId);
        if (creator.createAll(List.of(new OrderCreator.NewOrder(row, List.of(created))), false).created().isEmpty()) {
            throw new IllegalArgumentException("order " + orderId + " already exists");
        }
        return new OrderState(orderId, OrderStatus.WAIT_PAY, 1, now, now);
    }

    /**
     * Records in MySQL an order that only Redis holds (reconciliation's "missing in MySQL" repair), through the one
     * creation path: its row at the Redis status and version, and one history row saying it was copied.
     *
     * @param row the MySQL row to store
     * @param copied the history row that explains it
     * @return true when stored now, false when MySQL had the order meanwhile
     */
    public boolean recordFromRedis(OrderRow row, HistoryEntry copied) {
        return !creator.createAll(List.of(new OrderCreator.NewOrder(row, List.of(copied))), false).created().isEmpty();
    }

    /**
     * Looks one order up, reading only: MySQL row, Redis state, history, legal moves. An order whose
     * Redis state is missing is shown from MySQL alone ({@link #rebuildAndLookup} restores it).
     *
     * @param orderId a valid id
     * @return the details
     * @throws OrderNotFoundException when neither store knows the order
     */
    public OrderDetails lookup(String orderId) {
        OrderId.require(orderId);
        return details(orderId, db.read(t -> t.orders().find(orderId)), states.get(orderId), false);
    }

    /**
     * Looks one order up in Redis alone: its live state, legal moves and payment deadline, without MySQL's row or
     * history (for answering while MySQL does not, e.g. the API's {@code GET /v1/orders/{id}}).
     *
     * @param orderId a valid id
     * @return the details with no MySQL side ({@link OrderSummary#mysqlStatus()} null, no history, no pending moves, no customer)
     * @throws OrderNotFoundException when Redis holds no state for the order
     */
    public OrderDetails lookupInRedis(String orderId) {
        OrderId.require(orderId);
        OrderState st = states.get(orderId);
        if (st == null) {
            throw new OrderNotFoundException(orderId);
        }
        Long deadline = queue.score(orderId);
        OrderSummary summary = new OrderSummary(orderId, null, null, 0, st.status(), st.version(), st.createTimeMs(),
                st.updateTimeMs(), deadline, false);
        // No pending moves either: which outbox entries MySQL lacks cannot be told without MySQL's history.
        return new OrderDetails(summary, List.of(), rules.current().targets(st.status()), deadline, false, List.of());
    }

    /**
     * Looks one order up after rebuilding its Redis state from MySQL when Redis has none (never
     * overwriting state Redis has).
     *
     * @param orderId a valid id
     * @return the details; {@link OrderDetails#rebuilt()} says whether a rebuild happened
     * @throws OrderNotFoundException when neither store knows the order
     */
    public OrderDetails rebuildAndLookup(String orderId) {
        OrderId.require(orderId);
        OrderState st = states.get(orderId);
        boolean rebuilt = false;
        if (st == null && rebuilder.rebuild(orderId)) {
            st = states.get(orderId);
            rebuilt = true;
        }
        return details(orderId, db.read(t -> t.orders().find(orderId)), st, rebuilt);
    }

    private OrderDetails details(String orderId, OrderRow row, OrderState st, boolean rebuilt) {
        if (row == null && st == null) {
            throw new OrderNotFoundException(orderId);
        }
        List<HistoryEntry> history = db.read(t -> t.history().byOrder(orderId));
        OrderSummary summary = summarizeRetired(row, st, orderId, new long[]{-1});
        Set<OrderStatus> legal = st == null ? Set.of() : rules.current().targets(st.status());
        Long expiry = queue.score(orderId);
        return new OrderDetails(summary, history, legal, expiry, rebuilt, pending(orderId, history, DETAILS_PENDING_CAP),
                st != null && st.status() == OrderStatus.WAIT_PAY && expiry == null ? removedOnPurpose(orderId) : null);
    }

    /** @return the deliberate removal of an unpaid order's cancel-queue entry MySQL's audit trail records, or null */
    private OrderDetails.QueueRemoval removedOnPurpose(String orderId) {
        com.orderconsole.store.AuditRow r = db.read(t -> t.audit().queueRemovals(List.of(orderId))).get(orderId);
        return r == null ? null : new OrderDetails.QueueRemoval(r.id, r.atMs, r.actor, r.reason == null ? "" : r.reason);
    }

    /**
     * Outbox entries of one bucket read at most to find an order's pending moves for its details: the HTTP API's order
     * GET reads them too, so a bucket's backlog during a storm costs each GET at most this many entries, not all of it.
     */
    private static final int DETAILS_PENDING_CAP = 256;

    /** @return what the outbox holds for the order that MySQL's {@code history} does not have yet, oldest first */
    private List<HistoryEntry> pending(String orderId, List<HistoryEntry> history, int cap) {
        java.util.Set<String> known = new java.util.HashSet<>();
        history.forEach(h -> known.add(h.eventKey()));
        return follower.pendingFor(orderId, cap).stream().filter(h -> !known.contains(h.eventKey())).toList();
    }

    /** Outbox entries of one bucket read at most to find an order's pending steps. */
    private static final int STORY_PENDING_CAP = 10_000;

    /**
     * The story of one order (read-only): MySQL's history, then the steps the outbox still holds for it
     * (accepted by Redis, not yet in MySQL), each with the status the order had then, the time since the
     * step before and the Redis and MySQL versions at that step.
     *
     * @param orderId a valid id
     * @return the story, oldest step first
     * @throws OrderNotFoundException when neither store knows the order
     * @throws IllegalArgumentException when the id is not a valid order id
     */
    public OrderStory story(String orderId) {
        OrderId.require(orderId);
        OrderRow row = db.read(t -> t.orders().find(orderId));
        OrderState st = states.get(orderId);
        if (row == null && st == null) {
            throw new OrderNotFoundException(orderId);
        }
        List<HistoryEntry> history = db.read(t -> t.history().byOrder(orderId));
        List<HistoryEntry> pending = pending(orderId, history, STORY_PENDING_CAP);
        long mysqlNow = row == null ? 0 : row.version;
        // "orderId/version/actor" of the overrides recorded for this order (the follower's own reading of them).
        java.util.Set<String> overrides = db.read(t -> t.audit().overrides(List.of(orderId)));
        List<OrderStory.Step> steps = new ArrayList<>();
        OrderStatus status = null;
        long redisVersion = 0;
        HistoryEntry previous = null;
        List<HistoryEntry> all = new ArrayList<>(history);
        all.addAll(pending);
        for (int i = 0; i < all.size(); i++) {
            HistoryEntry h = all.get(i);
            boolean isPending = i >= history.size();
            if (h.code().applied()) {
                redisVersion = Math.max(redisVersion, h.version());
            }
            // A step MySQL has was applied there with its own version; a pending one leaves MySQL where its row is.
            long mysqlVersion = isPending ? mysqlNow : redisVersion;
            steps.add(new OrderStory.Step(h, status, previous == null ? 0 : Math.max(0, h.atMs() - previous.atMs()), previous,
                    isPending, redisVersion, mysqlVersion,
                    h.code().applied() && overrides.contains(orderId + "/" + h.version() + "/" + h.actor())));
            if (h.code().applied()) {
                status = h.to();
            }
            previous = h;
        }
        return new OrderStory(summarize(row, st, orderId), steps, clock.nowMs());
    }

    /**
     * One page of the order table, read from MySQL with keyset pagination and joined with the Redis
     * state of each row (one pipelined round).
     *
     * @param q the filter
     * @param cursor null for the first page, else {@link OrderPage#nextCursor()} of the previous page
     * @param limit rows per page, 1..1000
     * @return the page
     */
    public OrderPage page(OrderQuery q, String cursor, int limit) {
        if (limit < 1 || limit > 1000) {
            throw new IllegalArgumentException("page size must be 1..1000, got " + limit);
        }
        OrderPageQuery pq = new OrderPageQuery();
        pq.exactId = q.exactId();
        // '_' is a LIKE wildcard and legal in ids: escape it so a prefix matches literally.
        pq.idPrefix = q.idPrefix() == null ? null : q.idPrefix().replace("_", "\\_");
        pq.statuses = q.statuses().stream().map(OrderStatus::code).toList();
        pq.createdFromMs = q.createdFromMs();
        pq.createdToMs = q.createdToMs();
        pq.byAge = q.sortByAge();
        pq.limit = limit;
        if (q.stuckOnly()) {
            long now = clock.nowMs();
            List<OrderPageQuery.StuckBound> bounds = new ArrayList<>();
            stuck.all().forEach((s, d) -> {
                if (q.statuses().isEmpty() || q.statuses().contains(s)) {
                    bounds.add(new OrderPageQuery.StuckBound(s.code(), now - d.toMillis()));
                }
            });
            if (bounds.isEmpty()) {
                return new OrderPage(List.of(), null);
            }
            pq.stuckBounds = bounds;
        }
        applyCursor(pq, cursor);
        List<OrderSummary> out = new ArrayList<>();
        // Disagreement is only known after reading Redis, so keep reading pages until this one is full.
        for (int round = 0; round < (q.disagreeingOnly() ? 50 : 1); round++) {
            List<OrderRow> rows = db.read(t -> t.orders().page(pq));
            if (rows.isEmpty()) {
                return new OrderPage(out, null);
            }
            Map<String, OrderState> redisStates = states.getAll(rows.stream().map(r -> r.orderId).toList());
            long[] now = {-1}; // Redis TIME, read once per page and only when a row has no Redis state
            for (OrderRow r : rows) {
                OrderSummary sum = summarizeRetired(r, redisStates.get(r.orderId), r.orderId, now);
                if (!q.disagreeingOnly() || sum.disagrees()) {
                    out.add(sum);
                }
                pq.afterId = r.orderId;
                pq.afterSince = r.statusSinceMs;
                if (out.size() == limit) {
                    return new OrderPage(out, encode(pq));
                }
            }
            if (rows.size() < limit) {
                return new OrderPage(out, null);
            }
        }
        return new OrderPage(out, encode(pq));
    }

    private static String encode(OrderPageQuery pq) {
        return pq.afterSince + "|" + pq.afterId;
    }

    private static void applyCursor(OrderPageQuery pq, String cursor) {
        if (cursor == null) {
            return;
        }
        int bar = cursor.indexOf('|');
        if (bar < 0) {
            throw new IllegalArgumentException("malformed page cursor");
        }
        pq.afterSince = Long.parseLong(cursor.substring(0, bar));
        pq.afterId = OrderId.require(cursor.substring(bar + 1));
    }

    /**
     * Records a new payment deadline (epoch ms) in MySQL, so a rebuild after a Redis loss keeps it, with its audit row
     * (action QUEUE_EXTEND) in the same transaction: the deadline is what the follower checks a sweeper's cancel against,
     * so it never changes without its record (issue 33).
     *
     * @param source where: console, cli
     * @param reason why (may be empty)
     * @param detail the deadline before and after, in words
     */
    public void recordExpiry(Operator operator, String orderId, long expireAtMs, String source, String reason, String detail) {
        db.inTransaction(t -> {
            t.orders().setExpiry(orderId, expireAtMs, new com.orderconsole.store.AuditRow(System.currentTimeMillis(), operator.name(),
                    source, com.orderconsole.service.AuditTrail.QUEUE_EXTEND, orderId, reason, detail));
            return null;
        });
    }

    /** @return MySQL row and Redis state side by side (either may be null, not both) */
    public static OrderSummary summarize(OrderRow row, OrderState st, String orderId) {
        return summarize(row, st, orderId, false);
    }

    /**
     * {@link #summarize} that knows a terminal order without Redis state whose retention has passed has
     * left Redis on purpose; one still within its retention was lost (a Redis wipe) and is missing.
     *
     * @param now holder of the Redis time, epoch ms, -1 until read (read at most once per holder)
     */
    private OrderSummary summarizeRetired(OrderRow row, OrderState st, String orderId, long[] now) {
        com.orderconsole.service.follower.TerminalRetention r = retention;
        boolean retired = false;
        if (st == null && row != null && r != null && r.isTerminal(OrderStatus.ofCode(row.status))) {
            if (now[0] < 0) {
                now[0] = clock.nowMs();
            }
            retired = row.statusSinceMs + r.retention().toMillis() <= now[0];
        }
        return summarize(row, st, orderId, retired);
    }

    private static OrderSummary summarize(OrderRow row, OrderState st, String orderId, boolean retired) {
        return new OrderSummary(orderId, row == null ? null : row.customerId,
                row == null ? null : OrderStatus.ofCode(row.status), row == null ? 0 : row.version,
                st == null ? null : st.status(), st == null ? 0 : st.version(),
                row != null ? row.createdAtMs : st.createTimeMs(), row != null ? row.statusSinceMs : st.updateTimeMs(),
                row == null ? null : row.expireAtMs, retired);
    }
}
