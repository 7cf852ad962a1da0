package com.orderconsole.service.metrics;

import com.orderconsole.domain.ResultCode;
import com.orderconsole.domain.TransitionResult;
import com.orderconsole.service.follower.AppliedPositions;
import com.orderconsole.service.follower.Follower;
import com.orderconsole.service.follower.FollowerStatus;
import com.orderconsole.service.monitor.MonitorService;
import com.orderconsole.service.queue.QueueService;
import com.orderconsole.service.queue.QueueSummary;
import com.orderconsole.service.recon.ReconCategory;
import com.orderconsole.service.recon.ReconReport;
import com.orderconsole.service.recon.ReconciliationService;
import com.orderconsole.service.transition.TransitionObserver;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.FunctionCounter;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.Timer;
import com.orderconsole.service.deadletter.DeadLetterService;
import io.micrometer.core.instrument.binder.jvm.ClassLoaderMetrics;
import io.micrometer.core.instrument.binder.jvm.JvmGcMetrics;
import io.micrometer.core.instrument.binder.jvm.JvmInfoMetrics;
import io.micrometer.core.instrument.binder.jvm.JvmMemoryMetrics;
import io.micrometer.core.instrument.binder.system.FileDescriptorMetrics;
import io.micrometer.core.instrument.binder.system.UptimeMetrics;
import io.micrometer.core.instrument.binder.jvm.JvmThreadMetrics;
import io.micrometer.core.instrument.binder.system.ProcessorMetrics;
import io.micrometer.prometheusmetrics.PrometheusConfig;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;

import java.time.Duration;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.OptionalInt;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.function.ToDoubleFunction;

/**
 * The process's meters, in Prometheus text format (names as Prometheus shows them):
 * <ul>
 * <li>{@code orderconsole_transitions_total{result,code}}: transition calls of this process by outcome
 *     (result applied, rejected or failed; code the script's result code, "none" when Redis failed)</li>
 * <li>{@code orderconsole_transition_latency_seconds}: their wall time (histogram), rebuild and retry included</li>
 * <li>{@code orderconsole_results_recorded_total{code}}: result codes counted by transition.lua, every process</li>
 * <li>{@code orderconsole_sync_lag_seconds}, {@code orderconsole_sync_backlog}: the MySQL follower's lag
 *     (age of the oldest outbox entry not in MySQL) and entries waiting; measured against positions up to one
 *     sample period old, so while the follower keeps up they may read up to about a second high</li>
 * <li>{@code orderconsole_sweeper_tick_age_seconds}: time since a cancel sweeper last finished a tick that did its work
 *     (swept every bucket, or obeyed a pause; a tick that could not sweep, e.g. with MySQL down under its fence, does not
 *     count); NaN when none ever did; {@code orderconsole_sweeper_paused}: 1 while sweeping is paused</li>
 * <li>{@code orderconsole_queue_depth}, {@code orderconsole_queue_overdue},
 *     {@code orderconsole_queue_oldest_overdue_seconds}: the cancel queue</li>
 * <li>{@code orderconsole_reconciliation_findings{category}}: findings of this process's last full compare (NaN: none yet)</li>
 * <li>{@code orderconsole_store_up{store}}: 1 when the latest sample of Redis (store="redis") or MySQL
 *     (store="mysql") succeeded and is fresh; {@code orderconsole_reading_ok}: 1 when both are</li>
 * <li>{@code orderconsole_dead_letters_open}: dead letters waiting for a person (read from MySQL; NaN while it is not OK)</li>
 * <li>{@code orderconsole_follower_applied_total}: outbox entries this process's follower applied to MySQL</li>
 * <li>{@code orderconsole_build_info{version,java}}: 1, the labels say which build runs</li>
 * </ul>
 * plus Micrometer's binders: the process's start time and uptime ({@code process_start_time_seconds}), the JVM's memory,
 * GC pauses, threads, classes and CPU, open file descriptors; the connection pool (HikariCP's tracker, {@code hikaricp_*})
 * and Redis command latency (Lettuce's recorder, {@code lettuce_command_*}) once the wiring has bound them to {@link #registry()}.
 *
 * <p>Scrapes, alerts and {@code /health} never touch a server: a background sampler reads Redis and MySQL on two
 * threads of their own every {@value #SAMPLE_PERIOD_MS} ms (a hung MySQL blocks only its thread, up to the socket
 * timeout), and they show its latest reading. A part older than {@link #STALE_MS} ms counts as failed. Gauges read
 * from Redis are NaN while Redis is not OK; the sync lag and backlog are measured in Redis against the positions
 * MySQL last gave (they cannot move while MySQL is down), so they go on growing through a MySQL outage. The
 * sampler starts with the first reading asked for, so a one-shot command that never asks reads nothing.
 */
public final class MetricsService implements TransitionObserver, AlertCheck, AutoCloseable {
    /** How often each part is sampled, ms (system property {@code orderconsole.metrics.sampleMs}). */
    static final long SAMPLE_PERIOD_MS = Long.getLong("orderconsole.metrics.sampleMs", 1000);
    /**
     * Age past which a part's latest successful sample no longer counts, ms (system property
     * {@code orderconsole.metrics.staleMs}, default 5,000: five periods, more than a sample takes under load and less
     * than the 30 s socket timeout a hung MySQL would take to fail).
     */
    static final long STALE_MS = Long.getLong("orderconsole.metrics.staleMs", 5000);
    /** How long the first reading waits for the first samples, ms. */
    private static final long FIRST_WAIT_MS = 3000;

    private final Follower follower;
    private final QueueService queue;
    private final MonitorService monitor;
    private final ReconciliationService reconciliation;
    private final DeadLetterService deadLetters;
    private final JvmGcMetrics gc = new JvmGcMetrics();
    private final PrometheusMeterRegistry registry = new PrometheusMeterRegistry(PrometheusConfig.DEFAULT);
    private final Map<ResultCode, Counter> byCode = new EnumMap<>(ResultCode.class);
    private final Counter failed;
    private final Timer latencyApplied;
    private final Timer latencyRejected;
    private final Timer latencyFailed;
    private final Alerts alerts;
    private final CountDownLatch firstRedis = new CountDownLatch(1);
    private final CountDownLatch firstMySql = new CountDownLatch(1);
    private volatile RedisSample redisSample;
    private volatile MySqlSample mysqlSample;
    private ScheduledExecutorService redisSampler;
    private ScheduledExecutorService mysqlSampler;
    private MetricsEndpoint endpoint;

    /** What Redis said at one sample, or why it did not; {@code okAtNanos} is the last success (0: none). */
    private record RedisSample(QueueSummary queue, FollowerStatus sync, Map<ResultCode, Long> results, long okAtNanos, String error) { }

    /**
     * The applied positions MySQL last gave and when (0: never), and why the latest attempt failed (null when it did
     * not). While MySQL hangs no attempt ends: the success only grows old.
     */
    private record MySqlSample(AppliedPositions positions, long deadLettersOpen, long okAtNanos, String error) { }

    /** As the full constructor, without dead letters (the gauge reads NaN) and with the version unknown. */
    public MetricsService(Follower follower, QueueService queue, MonitorService monitor, ReconciliationService reconciliation,
                          Alerts.Thresholds thresholds) {
        this(follower, queue, monitor, reconciliation, null, thresholds, "unknown");
    }

    /**
     * Built by the wiring ({@code app.Services}); registers every meter.
     *
     * @param deadLetters counted on the MySQL sampler's thread, or null for none
     * @param version the build's version, the label of {@code orderconsole_build_info}
     */
    public MetricsService(Follower follower, QueueService queue, MonitorService monitor, ReconciliationService reconciliation,
                          DeadLetterService deadLetters, Alerts.Thresholds thresholds, String version) {
        this.deadLetters = deadLetters;
        this.follower = follower;
        this.queue = queue;
        this.monitor = monitor;
        this.reconciliation = reconciliation;
        this.alerts = new Alerts(thresholds);
        for (ResultCode c : ResultCode.values()) {
            byCode.put(c, Counter.builder("orderconsole.transitions").description("transition calls of this process by outcome")
                    .tags("result", c.applied() ? "applied" : "rejected", "code", Integer.toString(c.code())).register(registry));
        }
        failed = Counter.builder("orderconsole.transitions").description("transition calls of this process by outcome")
                .tags("result", "failed", "code", "none").register(registry);
        latencyApplied = latency("applied");
        latencyRejected = latency("rejected");
        latencyFailed = latency("failed");
        registerSampledMeters();
        registerStoreAndBuildMeters(follower, version);
        bindProcessMeters();
    }

    /**
     * The meters read from the latest samples of Redis and MySQL: result codes counted by transition.lua, the follower's
     * lag and backlog, the cancel sweeper and queue, the last reconciliation's findings.
     */
    private void registerSampledMeters() {
        for (ResultCode c : ResultCode.values()) {
            FunctionCounter.builder("orderconsole.results.recorded", this, m -> m.reading().results().getOrDefault(c, 0L))
                    .description("result codes counted by transition.lua in Redis, every process since the counters began")
                    .tag("code", Integer.toString(c.code())).register(registry);
        }
        Gauge.builder("orderconsole.sync.lag", this, m -> {
                    Reading r = m.reading();
                    return r.syncKnown() ? r.syncLagMs() / 1000.0 : Double.NaN;
                }).description("age of the oldest outbox entry not yet applied to MySQL (measured in Redis, grows while MySQL is down)")
                .baseUnit("seconds").register(registry);
        Gauge.builder("orderconsole.sync.backlog", this, m -> {
            Reading r = m.reading();
            return r.syncKnown() ? r.syncBacklog() : Double.NaN;
        }).description("outbox entries not yet applied to MySQL").register(registry);
        gauge("orderconsole.sweeper.tick.age", "seconds", "time since any cancel sweeper last ticked",
                r -> r.sweeperTickAgeMs() < 0 ? Double.NaN : r.sweeperTickAgeMs() / 1000.0);
        gauge("orderconsole.sweeper.paused", null, "1 while the cancel sweeper is paused (every sweeper obeys)",
                r -> r.sweeperPaused() ? 1 : 0);
        gauge("orderconsole.queue.depth", null, "entries in the cancel queue", Reading::queueDepth);
        gauge("orderconsole.queue.overdue", null, "cancel-queue entries past their payment deadline", Reading::queueOverdue);
        gauge("orderconsole.queue.oldest.overdue", "seconds", "how long ago the oldest overdue entry's deadline passed",
                r -> r.oldestOverdueMs() / 1000.0);
        for (ReconCategory c : ReconCategory.values()) {
            Gauge.builder("orderconsole.reconciliation.findings", this, m -> {
                        Reading r = m.reading();
                        return r.findings() == null ? Double.NaN : r.findings().getOrDefault(c, 0L);
                    }).description("findings of this process's last full reconciliation")
                    .tag("category", c.name().toLowerCase(Locale.ROOT)).register(registry);
        }
    }

    /** Whether each store's latest sample is fresh, the open dead letters, what the follower applied, the build. */
    private void registerStoreAndBuildMeters(Follower follower, String version) {
        Gauge.builder("orderconsole.store.up", this, m -> m.reading().redisOk() ? 1 : 0)
                .description("1 when the latest sample of the store succeeded and is fresh").tag("store", "redis").register(registry);
        Gauge.builder("orderconsole.store.up", this, m -> m.reading().mysqlOk() ? 1 : 0)
                .description("1 when the latest sample of the store succeeded and is fresh").tag("store", "mysql").register(registry);
        Gauge.builder("orderconsole.reading.ok", this, m -> m.reading().ok() ? 1 : 0)
                .description("1 when the latest samples of Redis and MySQL succeeded and are fresh").register(registry);
        Gauge.builder("orderconsole.dead.letters.open", this, m -> {
                    MySqlSample sample = m.mysqlSample;
                    return m.reading().mysqlOk() && sample != null && sample.deadLettersOpen() >= 0 ? sample.deadLettersOpen() : Double.NaN;
                }).description("dead letters waiting for a person (retry or discard), read from MySQL").register(registry);
        FunctionCounter.builder("orderconsole.follower.applied", follower, Follower::appliedTotal)
                .description("outbox entries this process's MySQL follower applied since it started").register(registry);
        Gauge.builder("orderconsole.build.info", () -> 1).description("the build that runs, in its labels")
                .tags("version", version, "java", System.getProperty("java.version", "unknown")).register(registry);
    }

    /** Micrometer's binders for the process: uptime, the JVM's memory, GC, threads, classes and CPU, file descriptors. */
    private void bindProcessMeters() {
        new UptimeMetrics().bindTo(registry);
        new JvmInfoMetrics().bindTo(registry);
        new JvmMemoryMetrics().bindTo(registry);
        gc.bindTo(registry);
        new JvmThreadMetrics().bindTo(registry);
        new ClassLoaderMetrics().bindTo(registry);
        new ProcessorMetrics().bindTo(registry);
        new FileDescriptorMetrics().bindTo(registry);
    }

    /**
     * The process's meter registry, for client libraries' own binders (HikariCP's tracker, Lettuce's latency recorder)
     * wired by {@code app.Services}.
     *
     * @return the registry scraped at /metrics
     */
    public io.micrometer.core.instrument.MeterRegistry registry() {
        return registry;
    }

    private Timer latency(String result) {
        return Timer.builder("orderconsole.transition.latency").description("wall time of a transition call, rebuild and retry included")
                .tag("result", result).publishPercentileHistogram().minimumExpectedValue(Duration.ofMillis(1))
                .maximumExpectedValue(Duration.ofSeconds(10)).register(registry);
    }

    /** A gauge of a Redis figure: NaN while Redis is not OK. */
    private void gauge(String name, String unit, String description, ToDoubleFunction<Reading> f) {
        Gauge.Builder<MetricsService> b = Gauge.builder(name, this, m -> {
            Reading r = m.reading();
            return r.redisOk() ? f.applyAsDouble(r) : Double.NaN;
        }).description(description);
        if (unit != null) {
            b.baseUnit(unit);
        }
        b.register(registry);
    }

    @Override
    public void transitionEnded(TransitionResult result, Throwable failure, long nanos) {
        if (result == null) {
            failed.increment();
            latencyFailed.record(nanos, TimeUnit.NANOSECONDS);
            return;
        }
        byCode.get(result.code()).increment();
        (result.applied() ? latencyApplied : latencyRejected).record(nanos, TimeUnit.NANOSECONDS);
    }

    /** Starts the two sampler threads unless running; the first call waits up to 4 s for their first samples. */
    private void ensureSampling() {
        boolean first;
        synchronized (this) {
            first = redisSampler == null;
            if (first) {
                mysqlSampler = sampler("metrics-mysql-sampler", this::sampleMySql);
                redisSampler = sampler("metrics-redis-sampler", this::sampleRedis);
            }
        }
        if (first) {
            try {
                firstRedis.await(FIRST_WAIT_MS + 1000, TimeUnit.MILLISECONDS);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }
    }

    private static ScheduledExecutorService sampler(String name, Runnable sample) {
        ScheduledExecutorService s = Executors.newSingleThreadScheduledExecutor(r -> {
            Thread t = new Thread(r, name);
            t.setDaemon(true);
            return t;
        });
        s.scheduleWithFixedDelay(sample, 0, SAMPLE_PERIOD_MS, TimeUnit.MILLISECONDS);
        return s;
    }

    private void sampleMySql() {
        try {
            AppliedPositions positions = follower.appliedPositions();
            long open = deadLetters == null ? -1 : deadLetters.countOpen();
            mysqlSample = new MySqlSample(positions, open, System.nanoTime(), null);
        } catch (RuntimeException e) {
            MySqlSample before = mysqlSample;
            mysqlSample = before == null ? new MySqlSample(null, -1, 0, words(e))
                    : new MySqlSample(before.positions(), before.deadLettersOpen(), before.okAtNanos(), words(e));
        } finally {
            firstMySql.countDown();
        }
    }

    private void sampleRedis() {
        RedisSample before = redisSample;
        try {
            if (before == null) {
                // The first sample measures the lag against MySQL's positions: give MySQL its first answer.
                firstMySql.await(FIRST_WAIT_MS, TimeUnit.MILLISECONDS);
            }
            MySqlSample m = mysqlSample;
            QueueSummary q = queue.summary();
            FollowerStatus f = m == null || m.positions() == null ? null : follower.status(m.positions());
            redisSample = new RedisSample(q, f, monitor.resultCounts(), System.nanoTime(), null);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        } catch (RuntimeException e) {
            redisSample = before == null ? new RedisSample(null, null, Map.of(), 0, words(e))
                    : new RedisSample(before.queue(), before.sync(), before.results(), before.okAtNanos(), words(e));
        } finally {
            firstRedis.countDown();
        }
    }

    private static String words(RuntimeException e) {
        return e.getMessage() == null ? e.getClass().getSimpleName() : e.getMessage();
    }

    /**
     * @return the sampler's latest reading (never waits on a server: at most 4 s for the very first samples);
     *     a part that failed or is older than {@link #STALE_MS} ms is not OK, and {@link Reading#problems} says why
     */
    public Reading reading() {
        ensureSampling();
        long now = System.nanoTime();
        Map<ReconCategory, Long> findings = reconciliation.lastFullReport().map(ReconReport::counts).orElse(null);
        List<String> problems = new ArrayList<>();
        RedisSample r = redisSample;
        MySqlSample m = mysqlSample;
        boolean redisOk = r != null && r.error() == null && fresh(r.okAtNanos(), now);
        boolean mysqlOk = m != null && m.error() == null && m.positions() != null && fresh(m.okAtNanos(), now);
        if (!redisOk) {
            problems.add(problem("Redis", r == null ? null : r.error(), r == null ? 0 : r.okAtNanos(), now));
        }
        if (!mysqlOk) {
            problems.add(problem("MySQL", m == null ? null : m.error(), m == null ? 0 : m.okAtNanos(), now));
        }
        if (r == null || r.queue() == null) {
            return new Reading(false, mysqlOk, System.currentTimeMillis(), -1, -1, -1, false, 0, 0, 0, Map.of(), findings, problems);
        }
        QueueSummary q = r.queue();
        FollowerStatus f = r.sync();
        Long tick = q.sweeper().lastTickMs();
        return new Reading(redisOk, mysqlOk, q.nowMs(), f == null ? -1 : f.pending(),
                f == null ? -1 : f.oldestPendingAgeMs() == null ? 0 : f.oldestPendingAgeMs(),
                tick == null ? -1 : Math.max(0, q.nowMs() - tick), q.sweeper().paused(), q.depth(), q.overdue(),
                q.oldestOverdueAgeMs() == null ? 0 : q.oldestOverdueAgeMs(), r.results(), findings, problems);
    }

    private static boolean fresh(long okAtNanos, long now) {
        return okAtNanos != 0 && now - okAtNanos <= TimeUnit.MILLISECONDS.toNanos(STALE_MS);
    }

    private static String problem(String store, String error, long okAtNanos, long now) {
        String since = okAtNanos == 0 ? "never answered the metrics sampler"
                : "last answered the metrics sampler " + TimeUnit.NANOSECONDS.toSeconds(now - okAtNanos) + " s ago";
        return store + " " + since + (error == null ? "" : " (" + error + ")");
    }

    /** @return what /health/ready answers, from the latest reading (never waits on a server) */
    public Readiness readiness() {
        return Readiness.of(reading());
    }

    /** @return every meter in Prometheus text format (version 0.0.4), from the latest reading */
    public String scrape() {
        return registry.scrape();
    }

    /**
     * Judges the latest reading against the alert thresholds; never waits on a server.
     *
     * @return incidents that began or cleared since the last call (each once)
     */
    public List<Alert> checkAlerts() {
        return alerts.evaluate(reading());
    }

    /** @return the incidents open now (as of the last {@link #checkAlerts()}) */
    public List<Alert.Kind> openIncidents() {
        return alerts.openIncidents();
    }

    /** @return the alert thresholds in force */
    public Alerts.Thresholds alertThresholds() {
        return alerts.thresholds();
    }

    /**
     * Serves the meters at {@code http://127.0.0.1:PORT/metrics} and the reading's health at {@code /health}
     * (loopback only); a second call moves them to the new port.
     *
     * @param port TCP port, 0 for any free one
     * @return the port it listens on
     * @throws java.io.UncheckedIOException when the port cannot be bound (e.g. in use), in words
     */
    public synchronized int startEndpoint(int port) {
        return startEndpoint(java.net.InetAddress.getLoopbackAddress(), port);
    }

    /**
     * Serves the meters at {@code http://BIND:PORT/metrics} and the reading's health at {@code /health}; a second call
     * moves them.
     *
     * @param bind the address to listen on: loopback keeps the endpoint on this host, 0.0.0.0 opens it on every interface
     * @param port TCP port, 0 for any free one
     * @return the port it listens on
     * @throws java.io.UncheckedIOException when the address and port cannot be bound (in use, not this host's), in words
     */
    public synchronized int startEndpoint(java.net.InetAddress bind, int port) {
        stopEndpoint();
        ensureSampling();
        endpoint = MetricsEndpoint.start(bind, port, registry.getPrometheusRegistry(), this::reading, alerts::openIncidents);
        return endpoint.port();
    }

    /**
     * A store found down or back by {@link #checkStores()}.
     *
     * @param store "redis" or "mysql"
     * @param up false when it went down, true when it came back
     * @param reason why it counts as down (the sampler's words), "" when up
     */
    public record StoreChange(String store, boolean up, String reason) { }

    private final Map<String, Boolean> storesUp = new java.util.HashMap<>();

    /**
     * Judges whether Redis and MySQL answer, from the latest reading (never waits on a server): a store that stopped
     * answering is reported once, and once more when it answers again. Before the first call both count as up, so a store
     * down at start is reported at once. {@code serve} logs these as alerts beside {@link #checkAlerts()} (which judges
     * figures and says nothing while Redis is down).
     *
     * @return the stores that went down or came back since the last call
     */
    public synchronized List<StoreChange> checkStores() {
        Reading r = reading();
        List<StoreChange> changes = new ArrayList<>();
        judgeStore(changes, "redis", r.redisOk(), r.problems(), "Redis");
        judgeStore(changes, "mysql", r.mysqlOk(), r.problems(), "MySQL");
        return changes;
    }

    private void judgeStore(List<StoreChange> changes, String store, boolean up, List<String> problems, String prefix) {
        boolean was = storesUp.getOrDefault(store, true);
        if (up != was) {
            storesUp.put(store, up);
            String reason = up ? "" : problems.stream().filter(p -> p.startsWith(prefix + " ")).findFirst().orElse(prefix + " is not OK");
            changes.add(new StoreChange(store, up, reason));
        }
    }

    /** Stops serving the endpoint; nothing when it is not served. */
    public synchronized void stopEndpoint() {
        if (endpoint != null) {
            endpoint.stop();
            endpoint = null;
        }
    }

    /** @return the port the endpoint listens on, empty when it is not served */
    public synchronized OptionalInt endpointPort() {
        return endpoint == null ? OptionalInt.empty() : OptionalInt.of(endpoint.port());
    }

    @Override
    public void close() {
        stopEndpoint();
        synchronized (this) {
            if (redisSampler != null) {
                // A sampler blocked in a hung read is a daemon thread: interrupted, it ends when the read gives up.
                redisSampler.shutdownNow();
                mysqlSampler.shutdownNow();
            }
        }
        gc.close();
        registry.close();
    }
}
