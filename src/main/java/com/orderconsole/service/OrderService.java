package com.orderconsole.service;

import com.orderconsole.domain.HistoryEntry;
import com.orderconsole.domain.Operator;
import com.orderconsole.domain.OrderId;
import com.orderconsole.domain.OrderState;
import com.orderconsole.domain.OrderStatus;
import com.orderconsole.domain.ResultCode;
import com.orderconsole.domain.Role;
import com.orderconsole.redis.RedisStateStore;
import com.orderconsole.store.Database;
import com.orderconsole.store.HistoryMapper;
import com.orderconsole.store.HistoryRow;
import com.orderconsole.store.OrderMapper;
import com.orderconsole.store.OrderPageQuery;
import com.orderconsole.store.OrderRow;
import org.apache.ibatis.exceptions.PersistenceException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.sql.SQLIntegrityConstraintViolationException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Order creation, lookup and the order table. Creation writes MySQL first, then Redis; lookups rebuild
 * missing Redis state from MySQL (never treating a known order as new).
 */
public final class OrderService {
    private static final Logger log = LoggerFactory.getLogger(OrderService.class);
    /** Longest payment timeout accepted; beyond it a typo (99999999999d) would park an order for ever. */
    public static final Duration MAX_PAYMENT_TIMEOUT = Duration.ofDays(365);
    /** Retry delays for the Redis step of creation, in milliseconds. */
    private static final long[] CREATE_RETRY_MS = {50, 200, 800};

    private final RedisStateStore redis;
    private final Database db;
    private final Access access;
    private final RulesService rules;
    private final StuckThresholds stuck;

    OrderService(RedisStateStore redis, Database db, Access access, RulesService rules, StuckThresholds stuck) {
        this.redis = redis;
        this.db = db;
        this.access = access;
        this.rules = rules;
        this.stuck = stuck;
    }

    /**
     * Creates an order in WAIT_PAY: MySQL row first, then Redis state and cancel-queue entry (retried
     * three times). If Redis stays unavailable the row is kept marked "Redis pending" and
     * {@link #finishPendingCreations} completes it later; a lookup rebuilds it too.
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
        access.require(operator, Role.SUPPORT, "create orders");
        OrderId.require(orderId);
        if (customerId != null) {
            OrderId.require(customerId, "customer id");
        }
        if (expireIn == null || expireIn.isNegative() || expireIn.isZero() || expireIn.compareTo(MAX_PAYMENT_TIMEOUT) > 0) {
            throw new IllegalArgumentException("payment timeout must be positive and at most " + MAX_PAYMENT_TIMEOUT.toDays()
                    + " days, got " + expireIn);
        }
        long now = redis.nowMs();
        long expireAt = now + expireIn.toMillis();
        OrderRow row = new OrderRow(orderId, customerId, OrderStatus.WAIT_PAY.code(), 1, now, now, expireAt, false);
        try {
            db.inTransaction(s -> {
                s.getMapper(OrderMapper.class).insert(row);
                HistoryRow h = historyRow(orderId, null, OrderStatus.WAIT_PAY, 1, operator.name(), "create", "", now,
                        "create:" + orderId);
                s.getMapper(HistoryMapper.class).insertIgnore(List.of(h));
                return null;
            });
        } catch (PersistenceException e) {
            if (isDuplicate(e)) {
                throw new IllegalArgumentException("order " + orderId + " already exists");
            }
            throw e;
        }
        OrderState state = new OrderState(orderId, OrderStatus.WAIT_PAY, 1, now, now);
        RuntimeException last = null;
        for (int attempt = 0; attempt <= CREATE_RETRY_MS.length; attempt++) {
            try {
                redis.initOrderSync(state, expireAt);
                db.inTransaction(s -> s.getMapper(OrderMapper.class).markRedisReady(orderId));
                return state;
            } catch (RuntimeException e) {
                last = e;
                if (attempt < CREATE_RETRY_MS.length) {
                    sleep(CREATE_RETRY_MS[attempt]);
                }
            }
        }
        log.warn("order {} stored in MySQL but its Redis state could not be created yet; will retry: {}", orderId,
                last.getMessage());
        throw last;
    }

    /**
     * Creates Redis state for orders whose creation stopped after the MySQL step (older than 5 s).
     *
     * @return how many were completed
     */
    public int finishPendingCreations() {
        long before = System.currentTimeMillis() - 5000;
        List<OrderRow> pending = db.read(s -> s.getMapper(OrderMapper.class).redisPending(before, 500));
        int done = 0;
        for (OrderRow r : pending) {
            rebuildFrom(r);
            db.inTransaction(s -> s.getMapper(OrderMapper.class).markRedisReady(r.orderId));
            done++;
        }
        if (done > 0) {
            log.info("completed Redis state of {} orders whose creation was interrupted", done);
        }
        return done;
    }

    /**
     * Rebuilds one order's Redis state from its MySQL row, if Redis has none (never overwrites).
     *
     * @return true when MySQL knows the order (state now exists in Redis), false when it does not
     */
    public boolean rebuild(String orderId) {
        OrderId.require(orderId);
        OrderRow row = db.read(s -> s.getMapper(OrderMapper.class).findById(orderId));
        if (row == null) {
            return false;
        }
        rebuildFrom(row);
        return true;
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
            List<OrderRow> rows = db.read(s -> s.getMapper(OrderMapper.class).page(pq));
            List<java.util.concurrent.CompletableFuture<Boolean>> fs = new ArrayList<>(rows.size());
            for (OrderRow r : rows) {
                fs.add(redis.initOrder(stateOf(r), expiryOf(r)));
            }
            for (var f : fs) {
                if (redis.await(f, "rebuild unpaid order")) {
                    created++;
                }
            }
            if (rows.size() < pq.limit) {
                return created;
            }
            pq.afterId = rows.get(rows.size() - 1).orderId;
        }
    }

    private static OrderState stateOf(OrderRow row) {
        return new OrderState(row.orderId, OrderStatus.ofCode(row.status), row.version, row.statusSinceMs, row.createdAtMs);
    }

    private static Long expiryOf(OrderRow row) {
        if (row.status != OrderStatus.WAIT_PAY.code()) {
            return null;
        }
        return row.expireAtMs != null ? row.expireAtMs : row.createdAtMs + Duration.ofMinutes(30).toMillis();
    }

    void rebuildFrom(OrderRow row) {
        OrderState st = stateOf(row);
        if (redis.initOrderSync(st, expiryOf(row))) {
            log.info("rebuilt Redis state of order {} from MySQL: {} v{}", row.orderId, st.status(), st.version());
        }
    }

    /**
     * Looks one order up: MySQL row, Redis state (rebuilt from MySQL if missing), history, legal moves.
     *
     * @param orderId a valid id
     * @return the details
     * @throws OrderNotFoundException when neither store knows the order
     */
    public OrderDetails lookup(String orderId) {
        OrderId.require(orderId);
        OrderRow row = db.read(s -> s.getMapper(OrderMapper.class).findById(orderId));
        OrderState st = redis.getSync(orderId);
        boolean rebuilt = false;
        if (st == null && row != null) {
            rebuildFrom(row);
            st = redis.getSync(orderId);
            rebuilt = true;
        }
        if (row == null && st == null) {
            throw new OrderNotFoundException(orderId);
        }
        List<HistoryEntry> history = new ArrayList<>();
        for (HistoryRow h : db.read(s -> s.getMapper(HistoryMapper.class).byOrder(orderId))) {
            history.add(toEntry(h));
        }
        OrderSummary summary = summarize(row, st, orderId);
        Set<OrderStatus> legal = st == null ? Set.of() : rules.current().targets(st.status());
        return new OrderDetails(summary, history, legal, redis.queueScore(orderId), rebuilt);
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
            long now = System.currentTimeMillis();
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
            List<OrderRow> rows = db.read(s -> s.getMapper(OrderMapper.class).page(pq));
            if (rows.isEmpty()) {
                return new OrderPage(out, null);
            }
            Map<String, OrderState> states = redis.getAll(rows.stream().map(r -> r.orderId).toList());
            for (OrderRow r : rows) {
                OrderSummary sum = summarize(r, states.get(r.orderId), r.orderId);
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

    /** Records a new payment deadline in MySQL, so a rebuild after a Redis loss keeps it. */
    void recordExpiry(String orderId, long expireAtMs) {
        db.inTransaction(s -> s.getMapper(OrderMapper.class).setExpiry(orderId, expireAtMs));
    }

    static OrderSummary summarize(OrderRow row, OrderState st, String orderId) {
        return new OrderSummary(orderId, row == null ? null : row.customerId,
                row == null ? null : OrderStatus.ofCode(row.status), row == null ? 0 : row.version,
                st == null ? null : st.status(), st == null ? 0 : st.version(),
                row != null ? row.createdAtMs : st.createTimeMs(), row != null ? row.statusSinceMs : st.updateTimeMs(),
                row == null ? null : row.expireAtMs);
    }

    static HistoryEntry toEntry(HistoryRow h) {
        return new HistoryEntry(h.orderId, h.fromStatus == null ? null : OrderStatus.ofCode(h.fromStatus),
                OrderStatus.ofCode(h.toStatus), h.version, ResultCode.ofCode(h.resultCode), h.actor, h.source, h.reason,
                h.atMs, h.eventKey);
    }

    static HistoryRow historyRow(String orderId, OrderStatus from, OrderStatus to, long version, String actor,
                                 String source, String reason, long atMs, String eventKey) {
        HistoryRow h = new HistoryRow();
        h.orderId = orderId;
        h.fromStatus = from == null ? null : from.code();
        h.toStatus = to.code();
        h.version = version;
        h.resultCode = ResultCode.APPLIED.code();
        h.actor = actor;
        h.source = source;
        h.reason = reason == null ? "" : reason;
        h.atMs = atMs;
        h.eventKey = eventKey;
        return h;
    }

    static HistoryRow historyRow(HistoryEntry e) {
        HistoryRow h = historyRow(e.orderId(), e.from(), e.to(), e.version(), e.actor(), e.source(), e.reason(),
                e.atMs(), e.eventKey());
        h.resultCode = e.code().code();
        return h;
    }

    static boolean isDuplicate(Throwable e) {
        for (Throwable t = e; t != null; t = t.getCause()) {
            if (t instanceof SQLIntegrityConstraintViolationException) {
                return true;
            }
        }
        return false;
    }

    private static void sleep(long ms) {
        try {
            Thread.sleep(ms);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
