package com.orderconsole.service.metrics;

import com.orderconsole.domain.ResultCode;
import com.orderconsole.domain.TransitionResult;
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
import io.micrometer.core.instrument.binder.jvm.JvmMemoryMetrics;
import io.micrometer.core.instrument.binder.jvm.JvmThreadMetrics;
import io.micrometer.core.instrument.binder.system.ProcessorMetrics;
import io.micrometer.prometheusmetrics.PrometheusConfig;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;

import java.time.Duration;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import java.util.OptionalInt;
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
 *     (age of the oldest outbox entry not in MySQL) and entries waiting</li>
 * <li>{@code orderconsole_sweeper_tick_age_seconds}: time since any cancel sweeper ticked (NaN: never)</li>
 * <li>{@code orderconsole_queue_depth}, {@code orderconsole_queue_overdue},
 *     {@code orderconsole_queue_oldest_overdue_seconds}: the cancel queue</li>
 * <li>{@code orderconsole_reconciliation_findings{category}}: findings of this process's last full compare (NaN: none yet)</li>
 * <li>{@code orderconsole_reading_ok}: 1 when the last reading of Redis and MySQL succeeded; the gauges
 *     above read NaN while it is 0</li>
 * </ul>
 * plus the JVM's memory, threads and CPU. Gauges come from one {@link Reading} taken at most once per
 * second (a scrape costs a few Redis reads per bucket and one MySQL read per bucket, whatever the data).
 * The same readings feed {@link Alerts}.
 */
public final class MetricsService implements TransitionObserver, AutoCloseable {
    /** How long a reading is reused, ms. */
    static final long READING_TTL_MS = 1000;

    private final Follower follower;
    private final QueueService queue;
    private final MonitorService monitor;
    private final ReconciliationService reconciliation;
    private final PrometheusMeterRegistry registry = new PrometheusMeterRegistry(PrometheusConfig.DEFAULT);
    private final Map<ResultCode, Counter> byCode = new EnumMap<>(ResultCode.class);
    private final Counter failed;
    private final Timer latencyApplied;
    private final Timer latencyRejected;
    private final Timer latencyFailed;
    private final Alerts alerts;
    private volatile Reading last;
    private volatile long lastAtNanos;
    private MetricsEndpoint endpoint;

    /** Built by {@link com.orderconsole.service.Services}; registers every meter. */
    public MetricsService(Follower follower, QueueService queue, MonitorService monitor, ReconciliationService reconciliation,
                          Alerts.Thresholds thresholds) {
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
        for (ResultCode c : ResultCode.values()) {
            FunctionCounter.builder("orderconsole.results.recorded", this, m -> m.reading().results().getOrDefault(c, 0L))
                    .description("result codes counted by transition.lua in Redis, every process since the counters began")
                    .tag("code", Integer.toString(c.code())).register(registry);
        }
        gauge("orderconsole.sync.lag", "seconds", "age of the oldest outbox entry not yet applied to MySQL", r -> r.syncLagMs() / 1000.0);
        gauge("orderconsole.sync.backlog", null, "outbox entries not yet applied to MySQL", Reading::syncBacklog);
        gauge("orderconsole.sweeper.tick.age", "seconds", "time since any cancel sweeper last ticked",
                r -> r.sweeperTickAgeMs() < 0 ? Double.NaN : r.sweeperTickAgeMs() / 1000.0);
        gauge("orderconsole.queue.depth", null, "entries in the cancel queue", Reading::queueDepth);
        gauge("orderconsole.queue.overdue", null, "cancel-queue entries past their payment deadline", Reading::queueOverdue);
        gauge("orderconsole.queue.oldest.overdue", "seconds", "how long ago the oldest overdue entry's deadline passed",
                r -> r.oldestOverdueMs() / 1000.0);
        for (ReconCategory c : ReconCategory.values()) {
            Gauge.builder("orderconsole.reconciliation.findings", this, m -> {
                        Reading r = m.reading();
                        return r.findings() == null ? Double.NaN : r.findings().getOrDefault(c, 0L);
                    }).description("findings of this process's last full reconciliation")
                    .tag("category", c.name().toLowerCase(java.util.Locale.ROOT)).register(registry);
        }
        Gauge.builder("orderconsole.reading.ok", this, m -> m.reading().ok() ? 1 : 0)
                .description("1 when the last reading of Redis and MySQL succeeded").register(registry);
        new JvmMemoryMetrics().bindTo(registry);
        new JvmThreadMetrics().bindTo(registry);
        new ProcessorMetrics().bindTo(registry);
    }

    private Timer latency(String result) {
        return Timer.builder("orderconsole.transition.latency").description("wall time of a transition call, rebuild and retry included")
                .tag("result", result).publishPercentileHistogram().minimumExpectedValue(Duration.ofMillis(1))
                .maximumExpectedValue(Duration.ofSeconds(10)).register(registry);
    }

    private void gauge(String name, String unit, String description, ToDoubleFunction<Reading> f) {
        Gauge.Builder<MetricsService> b = Gauge.builder(name, this, m -> {
            Reading r = m.reading();
            return r.ok() ? f.applyAsDouble(r) : Double.NaN;
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

    /**
     * @return the current reading: reused for {@value #READING_TTL_MS} ms, else taken now; never throws
     *     (a failed reading says why and has {@code ok} false)
     */
    public synchronized Reading reading() {
        long now = System.nanoTime();
        if (last != null && now - lastAtNanos < TimeUnit.MILLISECONDS.toNanos(READING_TTL_MS)) {
            return last;
        }
        Map<ReconCategory, Long> findings = reconciliation.lastFullReport().map(ReconReport::counts).orElse(null);
        Reading r;
        try {
            QueueSummary q = queue.summary();
            FollowerStatus f = follower.status();
            Map<ResultCode, Long> results = monitor.resultCounts();
            Long tick = q.sweeper().lastTickMs();
            r = new Reading(true, q.nowMs(), f.pending(), f.oldestPendingAgeMs() == null ? 0 : f.oldestPendingAgeMs(),
                    tick == null ? -1 : Math.max(0, q.nowMs() - tick), q.sweeper().paused(), q.depth(), q.overdue(),
                    q.oldestOverdueAgeMs() == null ? 0 : q.oldestOverdueAgeMs(), results, findings, null);
        } catch (RuntimeException e) {
            r = new Reading(false, System.currentTimeMillis(), 0, 0, -1, false, 0, 0, 0, Map.of(), findings,
                    e.getMessage() == null ? e.getClass().getSimpleName() : e.getMessage());
        }
        last = r;
        lastAtNanos = now;
        return r;
    }

    /** @return every meter in Prometheus text format (version 0.0.4), with a fresh reading */
    public String scrape() {
        reading();
        return registry.scrape();
    }

    /**
     * Takes a reading and judges it against the alert thresholds.
     *
     * @return incidents that began or cleared since the last call (each once)
     */
    public List<Alert> checkAlerts() {
        return alerts.evaluate(reading());
    }

    /** @return the alert thresholds in force */
    public Alerts.Thresholds alertThresholds() {
        return alerts.thresholds();
    }

    /**
     * Serves {@link #scrape()} at {@code http://127.0.0.1:PORT/metrics} (loopback only); a second call
     * moves it to the new port.
     *
     * @param port TCP port, 0 for any free one
     * @return the port it listens on
     * @throws java.io.UncheckedIOException when the port cannot be bound (e.g. in use), in words
     */
    public synchronized int startEndpoint(int port) {
        stopEndpoint();
        endpoint = MetricsEndpoint.start(port, this::scrape);
        return endpoint.port();
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
        registry.close();
    }
}
