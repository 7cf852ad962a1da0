package com.orderconsole.service.order;

import com.orderconsole.domain.HistoryEntry;
import com.orderconsole.domain.OrderState;
import com.orderconsole.domain.OrderStatus;
import com.orderconsole.redis.OrderStateStore;
import com.orderconsole.store.CreatedMeanwhileException;
import com.orderconsole.store.Database;
import com.orderconsole.store.DatabaseBusyException;
import com.orderconsole.store.OrderRow;
import com.orderconsole.store.OrderStore;
import com.orderconsole.store.Tables;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * The one way orders come into being, for creation and import alike: MySQL rows and their history
 * first, in one transaction, marked "Redis pending"; then the Redis state (init_order.lua, which never
 * overwrites) in one pipelined round, retried three times; then the rows marked ready. If the process
 * dies in between, {@link OrderRebuilder#finishPendingCreations} completes the job, and a lookup or a
 * transition rebuilds the state too.
 */
public final class OrderCreator {
    private static final Logger log = LoggerFactory.getLogger(OrderCreator.class);
    /** Retry delays for the Redis step, in milliseconds. */
    private static final long[] REDIS_RETRY_MS = {50, 200, 800};
    /** A MySQL step that lost a deadlock is run again this many times. */
    private static final int DEADLOCK_RETRIES = 5;
    /** Payment deadline of a WAIT_PAY row that has none recorded (orders created before deadlines were stored). */
    private static final Duration DEFAULT_PAYMENT_TIMEOUT = Duration.ofMinutes(30);

    private final OrderStateStore states;
    private final Database db;
    /** Null: terminal orders stay in Redis. */
    private final com.orderconsole.service.follower.TerminalRetention retention;

    /**
     * @param states Redis order state
     * @param db MySQL
     */
    public OrderCreator(OrderStateStore states, Database db) {
        this(states, db, null);
    }

    /**
     * @param states Redis order state
     * @param db MySQL
     * @param retention when terminal orders (an import's finished ones) leave Redis; null to keep them
     */
    public OrderCreator(OrderStateStore states, Database db, com.orderconsole.service.follower.TerminalRetention retention) {
        this.states = states;
        this.db = db;
        this.retention = retention;
    }

    /**
     * A new order and the history that led to its status.
     *
     * @param row the MySQL row (its {@code redisReady} is ignored: rows start pending)
     * @param history its history entries, versions 1..row.version
     */
    public record NewOrder(OrderRow row, List<HistoryEntry> history) {
    }

    /**
     * What {@link #createAll} did.
     *
     * @param created ids stored now, in input order
     * @param existedInMysql orders skipped because MySQL had their id already
     * @param existedInRedis created orders whose Redis state existed already (left as it was)
     */
    public record Created(List<String> created, int existedInMysql, int existedInRedis) {
    }

    /**
     * Stores new orders (ids that exist in MySQL are skipped, nothing of them written).
     *
     * @param orders the orders; at most a few thousand per call (one transaction, one pipelined round)
     * @param batch true for bulk loads: the MySQL step uses a batch executor
     * @return what was stored
     * @throws com.orderconsole.redis.RedisUnavailableException when Redis stayed unavailable after the
     *     retries: the MySQL rows stand, marked pending, and maintenance completes them later
     */
    public Created createAll(List<NewOrder> orders, boolean batch) {
        List<String> ids = orders.stream().map(o -> o.row().orderId).toList();
        List<NewOrder> fresh = retryingDeadlocks(() -> batch ? db.inBatch(t -> insertNew(t, orders, ids, true))
                : db.inTransaction(t -> insertNew(t, orders, ids, false)));
        if (fresh.isEmpty()) {
            return new Created(List.of(), orders.size(), 0);
        }
        Map<OrderState, Long> toInit = new LinkedHashMap<>();
        fresh.forEach(o -> toInit.put(stateOf(o.row()), expiryOf(o.row())));
        int created = initWithRetries(toInit);
        List<String> freshIds = fresh.stream().map(o -> o.row().orderId).toList();
        try {
            retryingDeadlocks(() -> db.inTransaction(t -> {
                t.orders().markRedisReady(freshIds);
                return null;
            }));
        } catch (DatabaseBusyException e) {
            // The orders and their Redis state stand; maintenance marks them ready (finishPendingCreations).
            log.warn("{} orders created, but marking them ready in MySQL lost its lock conflicts; maintenance marks them", freshIds.size());
        }
        return new Created(freshIds, orders.size() - fresh.size(), fresh.size() - created);
    }

    /**
     * @param locked a bulk load's batch: its ids are looked up with a locking read (a batch session answers no row
     *     counts, so an order created meanwhile would go unseen); a single creation locks nothing and relies on the
     *     unique keys, so creations side by side never wait on each other's gaps
     */
    private static List<NewOrder> insertNew(Tables t, List<NewOrder> orders, List<String> ids, boolean locked) {
        OrderStore rows = t.orders();
        Set<String> existing = new HashSet<>(locked ? rows.existingIdsLocked(ids) : rows.existingIds(ids));
        List<NewOrder> fresh = new ArrayList<>();
        List<OrderRow> freshRows = new ArrayList<>();
        List<HistoryEntry> history = new ArrayList<>();
        for (NewOrder o : orders) {
            if (existing.add(o.row().orderId)) {
                o.row().redisReady = false;
                freshRows.add(o.row());
                history.addAll(o.history());
                fresh.add(o);
            }
        }
        rows.create(freshRows, history);
        return fresh;
    }

    /**
     * Runs a MySQL step again when MySQL rolled it back whole: InnoDB chose it as a deadlock victim or its lock wait timed
     * out, or another transaction created one of its orders since it found the id absent (the next run finds it). A
     * single creation takes no locking read, so creations side by side do not deadlock; a bulk load's locking read or
     * the follower's writes still may, rarely. Running it again creates nothing twice.
     *
     * @throws DatabaseBusyException when every try was rolled back: nothing of the step is stored
     */
    private static <T> T retryingDeadlocks(java.util.function.Supplier<T> step) {
        for (int attempt = 1; ; attempt++) {
            try {
                return step.get();
            } catch (CreatedMeanwhileException e) {
                if (attempt > DEADLOCK_RETRIES) {
                    throw e; // the order is there and yet its id reads absent: not a race, a defect
                }
                log.debug("an order of this creation was created meanwhile, looking again ({})", attempt);
            } catch (RuntimeException e) {
                if (!Database.lostDeadlock(e)) {
                    throw e;
                }
                if (attempt > DEADLOCK_RETRIES) {
                    throw DatabaseBusyException.rolledBack("the creation", attempt, e);
                }
                log.debug("an order creation lost a deadlock, trying again ({})", attempt);
                sleep(java.util.concurrent.ThreadLocalRandom.current().nextLong(1, 5L * attempt));
            }
        }
    }

    private int initWithRetries(Map<OrderState, Long> toInit) {
        RuntimeException last = null;
        for (int attempt = 0; attempt <= REDIS_RETRY_MS.length; attempt++) {
            try {
                return retention == null ? states.initOrders(toInit) : states.initOrders(toInit, retention.createdRetireAt(states.nowMs()));
            } catch (RuntimeException e) {
                last = e;
                if (attempt < REDIS_RETRY_MS.length) {
                    sleep(REDIS_RETRY_MS[attempt]);
                }
            }
        }
        log.warn("{} orders stored in MySQL but their Redis state could not be created yet; maintenance will retry: {}",
                toInit.size(), last.getMessage());
        throw last;
    }

    /** @return the Redis state a MySQL row describes */
    static OrderState stateOf(OrderRow row) {
        return new OrderState(row.orderId, OrderStatus.ofCode(row.status), row.version, row.statusSinceMs, row.createdAtMs);
    }

    /** @return the cancel-queue expiry of a row (epoch ms), null when it is not waiting for payment */
    static Long expiryOf(OrderRow row) {
        if (row.status != OrderStatus.WAIT_PAY.code()) {
            return null;
        }
        return row.expireAtMs != null ? row.expireAtMs : row.createdAtMs + DEFAULT_PAYMENT_TIMEOUT.toMillis();
    }

    private static void sleep(long ms) {
        try {
            Thread.sleep(ms);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
