package com.orderconsole.app;

import com.orderconsole.service.rules.StuckThresholds;
import com.orderconsole.service.follower.TerminalRetention;
import com.orderconsole.service.maintenance.Maintenance;
import com.orderconsole.service.maintenance.DataSetIdentity;
import com.orderconsole.service.Access;
import com.orderconsole.service.RecordedMarker;
import com.orderconsole.service.AuditTrail;

import com.orderconsole.redis.RedisConnection;
import com.orderconsole.redis.RedisStores;
import com.orderconsole.service.audit.AuditService;
import com.orderconsole.service.bulk.BulkService;
import com.orderconsole.service.deadletter.DeadLetterService;
import com.orderconsole.service.follower.Follower;
import com.orderconsole.service.importer.OlistImporter;
import com.orderconsole.service.metrics.Alerts;
import com.orderconsole.service.metrics.MetricsService;
import com.orderconsole.service.monitor.HealthService;
import com.orderconsole.service.monitor.MonitorService;
import com.orderconsole.service.order.OrderCreator;
import com.orderconsole.service.order.OrderRebuilder;
import com.orderconsole.service.order.OrderService;
import com.orderconsole.service.queue.CancelSweeper;
import com.orderconsole.service.queue.QueueService;
import com.orderconsole.service.recon.ReconciliationService;
import com.orderconsole.service.rules.RulesService;
import com.orderconsole.service.rules.RulesWhatIf;
import com.orderconsole.service.traffic.TrafficSimulator;
import com.orderconsole.service.transition.TransitionService;
import com.orderconsole.store.Database;

import java.time.Duration;

/**
 * The service layer as one object: what the console and the CLI are given. Built by the engine from
 * a Redis store and a database; nothing above this layer sees either.
 */
public final class Services implements ConsoleServices, AutoCloseable {
    /**
     * Cancels per pipelined round and rounds per bucket per tick (at most 10,000 per bucket per second).
     * 100, not 500: in the sweep-storm benchmark 500 in flight held concurrent payments back (p99 31 ms);
     * 100 kept their p99 at 7 ms and still cancelled 100,000 orders in 8 s (docs/benchmarks-history.md, sweep storm).
     */
    static final int SWEEP_BATCH = 100;
    /** Rounds per bucket per tick, see {@link #SWEEP_BATCH}. */
    static final int SWEEP_ROUNDS = 100;

    private final Access access = new Access();
    private final AuditTrail audit;
    private final StuckThresholds stuck;
    private final RulesService rules;
    private final RulesWhatIf rulesWhatIf;
    private final OrderService orders;
    private final OrderRebuilder rebuilder;
    private final TransitionService transitions;
    private final Follower follower;
    private final CancelSweeper sweeper;
    private final QueueService queue;
    private final MonitorService monitor;
    private final HealthService health;
    private final ReconciliationService reconciliation;
    private final Maintenance maintenance;
    private final RecordedMarker marker;
    private final DeadLetterService deadLetters;
    private final DataSetIdentity dataset;
    private final OlistImporter importer;
    private final TrafficSimulator simulator;
    private final Duration paymentTimeout;
    private final TerminalRetention retention;
    private final BulkService bulk;
    private final AuditService auditView;
    private final MetricsService metrics;
    private final com.orderconsole.service.client.ApiClients apiClients;
    private final com.orderconsole.service.identity.SignedInPeople people;
    private final com.orderconsole.service.idempotency.IdempotencyKeys idempotency;
    private final Database db;

    private Services(RedisStores redis, Database db, Duration paymentTimeout, Duration terminalRetention) {
        RedisConnection clock = redis.connection();
        this.db = db;
        this.apiClients = new com.orderconsole.service.client.ApiClients(db, redis.apiRevocations(), access);
        this.people = new com.orderconsole.service.identity.SignedInPeople(db);
        this.idempotency = new com.orderconsole.service.idempotency.IdempotencyKeys(db);
        this.audit = new AuditTrail(db);
        this.paymentTimeout = paymentTimeout;
        this.rules = new RulesService(redis.rules(), db, access, audit);
        this.stuck = new StuckThresholds(rules::current);
        this.retention = new TerminalRetention(terminalRetention, rules::current, redis.orders(), db);
        OrderCreator creator = new OrderCreator(redis.orders(), db, retention);
        this.marker = new RecordedMarker(db, redis.dataSet());
        this.follower = new Follower(clock, redis.outbox(), redis.dataSet(), redis.orders(), db, access,
                rules::current, retention, marker);
        com.orderconsole.service.MalformedIds malformedIds = new com.orderconsole.service.MalformedIds(db);
        this.rebuilder = new OrderRebuilder(clock, redis.orders(), db, follower, retention, malformedIds);
        this.orders = new OrderService(clock, redis.orders(), redis.queue(), db, creator, rebuilder, follower, access, rules, stuck,
                retention);
        this.transitions = new TransitionService(clock, redis.orders(), db, rebuilder, rules, follower, audit, access, marker);
        // The sweeper's cancels go over a Redis connection of their own: a storm's batches never queue in front of payments.
        TransitionService sweeps = new TransitionService(clock, redis.orders().onOwnConnection(), db, rebuilder, rules, follower, audit, access, marker);
        this.sweeper = new CancelSweeper(clock, redis.queue(), redis.dataSet(), sweeps, follower::fenceHolds, access, audit, malformedIds,
                SWEEP_BATCH, SWEEP_ROUNDS);
        this.queue = new QueueService(clock, redis.queue(), redis.orders(), transitions, sweeper, orders, access, audit);
        this.monitor = new MonitorService(clock, redis.stats(), db, stuck, retention);
        this.rulesWhatIf = new RulesWhatIf(rules, clock, redis.stats(), db, stuck);
        this.health = new HealthService(clock, redis.queue(), db, rules, follower);
        this.reconciliation = new ReconciliationService(clock, redis.orders(), redis.queue(), redis.stats(), db, orders, rebuilder, follower, access,
                audit, retention);
        this.dataset = new DataSetIdentity(clock, redis.dataSet(), db);
        this.maintenance = new Maintenance(clock, redis.dataSet(), dataset, rules, rebuilder, follower, retention, marker);
        this.deadLetters = new DeadLetterService(db, rebuilder, access, audit);
        this.importer = new OlistImporter(creator, db, access, paymentTimeout);
        this.simulator = new TrafficSimulator(orders, transitions, access);
        // Bulk moves keep 500 calls in flight: on a Redis connection of their own, like the sweeper's, they never queue in
        // front of single moves (run 2 of issue 13 in docs/benchmarks-history.md: single-move p99 16 -> 83 ms on the shared connection).
        TransitionService bulkMoves = new TransitionService(clock, redis.orders().onOwnConnection(), db, rebuilder, rules, follower, audit, access, marker);
        this.bulk = new BulkService(clock, redis.orders(), db, orders, bulkMoves, rules, access, follower, audit);
        this.auditView = new AuditService(db, rules);
        this.metrics = new MetricsService(follower, queue, monitor, reconciliation, deadLetters, Alerts.Thresholds.fromSystemProperties(),
                BuildInfo.version());
        // The client libraries' own meters: HikariCP's pool tracker and Lettuce's command latency recorder.
        db.recordPoolMetrics(metrics.registry());
        clock.recordCommandLatency(metrics.registry());
        transitions.observe(metrics);
        sweeps.observe(metrics);
        bulkMoves.observe(metrics);
    }

    /**
     * @param redis connected Redis stores
     * @param db connected, migrated database
     * @param paymentTimeout default payment deadline for new orders
     */
    public static Services create(RedisStores redis, Database db, Duration paymentTimeout) {
        return new Services(redis, db, paymentTimeout, DEFAULT_TERMINAL_RETENTION);
    }

    /**
     * @param redis connected Redis stores
     * @param db connected, migrated database
     * @param paymentTimeout default payment deadline for new orders
     * @param terminalRetention how long a terminal order stays in Redis after it became terminal
     */
    public static Services create(RedisStores redis, Database db, Duration paymentTimeout, Duration terminalRetention) {
        return new Services(redis, db, paymentTimeout, terminalRetention);
    }

    /** Default terminal retention: 7 days (the engine's {@code --terminal-retention} changes it). */
    public static final Duration DEFAULT_TERMINAL_RETENTION = Duration.ofDays(7);

    /** @return when terminal orders leave Redis */
    public TerminalRetention retention() {
        return retention;
    }

    public RulesService rules() {
        return rules;
    }

    /** @return the what-if of a rules change (read-only) */
    public RulesWhatIf rulesWhatIf() {
        return rulesWhatIf;
    }

    public OrderService orders() {
        return orders;
    }

    /** @return what puts orders' Redis state back from MySQL (interrupted creations, lost or stale states) */
    public OrderRebuilder rebuilder() {
        return rebuilder;
    }

    public TransitionService transitions() {
        return transitions;
    }

    /** @return the MySQL follower: applies the Redis outbox to MySQL */
    public Follower follower() {
        return follower;
    }

    public CancelSweeper sweeper() {
        return sweeper;
    }

    public QueueService queue() {
        return queue;
    }

    /** @return counts for the state graph, the Monitor page and {@code stats} */
    public MonitorService monitor() {
        return monitor;
    }

    public HealthService health() {
        return health;
    }

    public ReconciliationService reconciliation() {
        return reconciliation;
    }

    public RecordedMarker marker() {
        return marker;
    }

    /** @return periodic self-healing (restores of Redis) */
    public Maintenance maintenance() {
        return maintenance;
    }

    /** @return the dead-letter list: records set aside because they could not be processed */
    public DeadLetterService deadLetters() {
        return deadLetters;
    }

    /** @return the pairing check of this Redis with this MySQL */
    public DataSetIdentity dataset() {
        return dataset;
    }

    /** @return the Olist CSV importer */
    public OlistImporter importer() {
        return importer;
    }

    /** @return the live-traffic simulator (stopped until started) */
    public TrafficSimulator simulator() {
        return simulator;
    }

    /** @return bulk transitions: preview, apply with compare-and-set, batch records */
    public BulkService bulk() {
        return bulk;
    }

    /** @return the audit view: every recorded action across orders */
    public AuditService audit() {
        return auditView;
    }

    public StuckThresholds stuckThresholds() {
        return stuck;
    }

    /** @return the meters for monitoring (Prometheus endpoint) and the alert thresholds */
    public MetricsService metrics() {
        return metrics;
    }

    /** @return the clients of the HTTP API: credentials and the in-memory copy that authenticates requests */
    public com.orderconsole.service.client.ApiClients apiClients() {
        return apiClients;
    }

    /** @return the people serve verified with the identity provider and recorded in MySQL */
    public com.orderconsole.service.identity.SignedInPeople people() {
        return people;
    }

    /** @return the API's answers kept per Idempotency-Key */
    public com.orderconsole.service.idempotency.IdempotencyKeys idempotency() {
        return idempotency;
    }

    /**
     * @param gapGrace how long a gap in the history's ids must have existed before the feed passes it
     *     ({@link com.orderconsole.service.feed.ChangeFeed#DEFAULT_GAP_GRACE}; tests shorten it)
     * @return a change feed of applied transitions read from MySQL's history (one per API server: it remembers ids seen)
     */
    public com.orderconsole.service.feed.ChangeFeed newChangeFeed(Duration gapGrace) {
        return new com.orderconsole.service.feed.ChangeFeed(db, gapGrace);
    }

    /**
     * @param feed the feed whose long polls it wakes
     * @return a watcher of the feed's head, nudged whenever this process's follower commits history rows; close it with
     *     the API server
     */
    public com.orderconsole.service.feed.FeedWatcher newFeedWatcher(com.orderconsole.service.feed.ChangeFeed feed) {
        com.orderconsole.service.feed.FeedWatcher w = new com.orderconsole.service.feed.FeedWatcher(feed,
                com.orderconsole.service.feed.FeedWatcher.DEFAULT_INTERVAL);
        w.whenClosed(follower.afterHistoryCommitted(w::nudge));
        return w;
    }

    /** @return the alert notices: the meters' readings judged against the alert thresholds */
    @Override
    public MetricsService alerts() {
        return metrics;
    }

    /** @return the MySQL follower, as the wait for MySQL to catch up */
    @Override
    public Follower mysqlSync() {
        return follower;
    }

    /** @return this process's Prometheus endpoint (always present in-process) */
    @Override
    public java.util.Optional<MetricsService> metricsEndpoint() {
        return java.util.Optional.of(metrics);
    }

    /** @return this process's traffic simulator (always present in-process) */
    @Override
    public java.util.Optional<TrafficSimulator> trafficSimulator() {
        return java.util.Optional.of(simulator);
    }

    /** @return this process's Olist importer (always present in-process) */
    @Override
    public java.util.Optional<OlistImporter> olistImporter() {
        return java.util.Optional.of(importer);
    }

    /** @return the default payment deadline of new orders */
    @Override
    public Duration paymentTimeout() {
        return paymentTimeout;
    }

    @Override
    public void close() {
        apiClients.close();
        metrics.close();
        maintenance.close();
        simulator.close();
        sweeper.close();
        follower.close();
    }
}
