package com.orderconsole.service;

import com.orderconsole.redis.RedisStateStore;
import com.orderconsole.store.Database;

import java.time.Duration;

/**
 * The service layer as one object: what the console and the CLI are given. Built by the engine from
 * a Redis store and a database; nothing above this layer sees either.
 */
public final class Services implements AutoCloseable {
    /**
     * Cancels per pipelined round and rounds per bucket per tick (at most 10,000 per bucket per second).
     * 100, not 500: in the sweep-storm benchmark 500 in flight held concurrent payments back (p99 31 ms);
     * 100 kept their p99 at 7 ms and still cancelled 100,000 orders in 8 s (BENCHMARKS.md).
     */
    static final int SWEEP_BATCH = 100;
    static final int SWEEP_ROUNDS = 100;

    private final Access access = new Access();
    private final StuckThresholds stuck = new StuckThresholds();
    private final RulesService rules;
    private final OrderService orders;
    private final TransitionService transitions;
    private final OutboxRelay sync;
    private final CancelSweeper sweeper;
    private final QueueService queue;
    private final MetricsService metrics;
    private final HealthService health;
    private final ReconciliationService reconciliation;
    private final Maintenance maintenance;
    private final OlistImporter importer;
    private final TrafficSimulator simulator;
    private final Duration paymentTimeout;

    private Services(RedisStateStore redis, Database db, Duration paymentTimeout) {
        this.paymentTimeout = paymentTimeout;
        this.rules = new RulesService(redis, db, access);
        this.orders = new OrderService(redis, db, access, rules, stuck);
        OutboxRelay[] relay = new OutboxRelay[1];
        this.transitions = new TransitionService(redis, orders, rules, access, () -> relay[0].nudge());
        this.sync = new OutboxRelay(redis, db, access);
        relay[0] = sync;
        this.sweeper = new CancelSweeper(redis, transitions, access, SWEEP_BATCH, SWEEP_ROUNDS);
        this.queue = new QueueService(redis, transitions, sweeper, orders, access);
        this.metrics = new MetricsService(redis, db, stuck);
        this.health = new HealthService(redis, db, rules, sync);
        this.reconciliation = new ReconciliationService(redis, db, orders, sync, access);
        this.maintenance = new Maintenance(redis, rules, orders);
        this.importer = new OlistImporter(redis, db, access, paymentTimeout);
        this.simulator = new TrafficSimulator(orders, transitions, access);
    }

    /**
     * @param redis connected Redis store
     * @param db connected, migrated database
     * @param paymentTimeout default payment deadline for new orders
     */
    public static Services create(RedisStateStore redis, Database db, Duration paymentTimeout) {
        return new Services(redis, db, paymentTimeout);
    }

    public RulesService rules() {
        return rules;
    }

    public OrderService orders() {
        return orders;
    }

    public TransitionService transitions() {
        return transitions;
    }

    public OutboxRelay sync() {
        return sync;
    }

    public CancelSweeper sweeper() {
        return sweeper;
    }

    public QueueService queue() {
        return queue;
    }

    public MetricsService metrics() {
        return metrics;
    }

    public HealthService health() {
        return health;
    }

    public ReconciliationService reconciliation() {
        return reconciliation;
    }

    public Maintenance maintenance() {
        return maintenance;
    }

    /** @return the Olist CSV importer */
    public OlistImporter importer() {
        return importer;
    }

    /** @return the live-traffic simulator (stopped until started) */
    public TrafficSimulator simulator() {
        return simulator;
    }

    public StuckThresholds stuckThresholds() {
        return stuck;
    }

    /** @return the default payment deadline of new orders */
    public Duration paymentTimeout() {
        return paymentTimeout;
    }

    @Override
    public void close() {
        maintenance.close();
        simulator.close();
        sweeper.close();
        sync.close();
    }
}
