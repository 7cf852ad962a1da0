package com.orderconsole.service.metrics;

import com.orderconsole.domain.ResultCode;
import com.orderconsole.service.follower.Follower;
import com.orderconsole.service.recon.ReconCategory;
import io.micrometer.core.instrument.FunctionCounter;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;

import java.util.Locale;
import java.util.function.ToDoubleFunction;

/**
 * Registers the meters that show {@link MetricsService#reading()} (names and meanings in {@link MetricsService}), plus
 * what the follower applied and the build. Each meter asks the service for its latest reading when scraped and holds
 * the service only weakly, as Micrometer's gauges do; a figure read from Redis is NaN while Redis is not OK.
 */
final class ReadingMeters {
    private ReadingMeters() {
    }

    /**
     * @param registry the process's registry, which the meters are added to
     * @param metrics the service whose reading the meters show
     * @param follower counts the outbox entries this process applied to MySQL
     * @param version the build's version, the label of {@code orderconsole_build_info}
     */
    static void register(MeterRegistry registry, MetricsService metrics, Follower follower, String version) {
        registerSampled(registry, metrics);
        registerStoresAndBuild(registry, metrics, follower, version);
    }

    /**
     * The meters read from the latest samples of Redis and MySQL: result codes counted by transition.lua, the follower's
     * lag and backlog, the cancel sweeper and queue, the last reconciliation's findings.
     */
    private static void registerSampled(MeterRegistry registry, MetricsService metrics) {
        for (ResultCode c : ResultCode.values()) {
            FunctionCounter.builder("orderconsole.results.recorded", metrics, m -> m.reading().results().getOrDefault(c, 0L))
                    .description("result codes counted by transition.lua in Redis, every process since the counters began")
                    .tag("code", Integer.toString(c.code())).register(registry);
        }
        Gauge.builder("orderconsole.sync.lag", metrics, m -> {
                    Reading r = m.reading();
                    return r.syncKnown() ? r.syncLagMs() / 1000.0 : Double.NaN;
                }).description("age of the oldest outbox entry not yet applied to MySQL (measured in Redis, grows while MySQL is down)")
                .baseUnit("seconds").register(registry);
        Gauge.builder("orderconsole.sync.backlog", metrics, m -> {
            Reading r = m.reading();
            return r.syncKnown() ? r.syncBacklog() : Double.NaN;
        }).description("outbox entries not yet applied to MySQL").register(registry);
        redisGauge(registry, metrics, "orderconsole.sweeper.tick.age", "seconds", "time since any cancel sweeper last ticked",
                r -> r.sweeperTickAgeMs() < 0 ? Double.NaN : r.sweeperTickAgeMs() / 1000.0);
        redisGauge(registry, metrics, "orderconsole.sweeper.paused", null, "1 while the cancel sweeper is paused (every sweeper obeys)",
                r -> r.sweeperPaused() ? 1 : 0);
        redisGauge(registry, metrics, "orderconsole.queue.depth", null, "entries in the cancel queue", Reading::queueDepth);
        redisGauge(registry, metrics, "orderconsole.queue.overdue", null, "cancel-queue entries past their payment deadline",
                Reading::queueOverdue);
        redisGauge(registry, metrics, "orderconsole.queue.oldest.overdue", "seconds",
                "how long ago the oldest overdue entry's deadline passed", r -> r.oldestOverdueMs() / 1000.0);
        for (ReconCategory c : ReconCategory.values()) {
            Gauge.builder("orderconsole.reconciliation.findings", metrics, m -> {
                        Reading r = m.reading();
                        return r.findings() == null ? Double.NaN : r.findings().getOrDefault(c, 0L);
                    }).description("findings of this process's last full reconciliation")
                    .tag("category", c.name().toLowerCase(Locale.ROOT)).register(registry);
        }
    }

    /** Whether each store's latest sample is fresh, the open dead letters, what the follower applied, the build. */
    private static void registerStoresAndBuild(MeterRegistry registry, MetricsService metrics, Follower follower, String version) {
        Gauge.builder("orderconsole.store.up", metrics, m -> m.reading().redisOk() ? 1 : 0)
                .description("1 when the latest sample of the store succeeded and is fresh").tag("store", "redis").register(registry);
        Gauge.builder("orderconsole.store.up", metrics, m -> m.reading().mysqlOk() ? 1 : 0)
                .description("1 when the latest sample of the store succeeded and is fresh").tag("store", "mysql").register(registry);
        Gauge.builder("orderconsole.reading.ok", metrics, m -> m.reading().ok() ? 1 : 0)
                .description("1 when the latest samples of Redis and MySQL succeeded and are fresh").register(registry);
        Gauge.builder("orderconsole.dead.letters.open", metrics, MetricsService::deadLettersOpen)
                .description("dead letters waiting for a person (retry or discard), read from MySQL").register(registry);
        FunctionCounter.builder("orderconsole.follower.applied", follower, Follower::appliedTotal)
                .description("outbox entries this process's MySQL follower applied since it started").register(registry);
        Gauge.builder("orderconsole.build.info", () -> 1).description("the build that runs, in its labels")
                .tags("version", version, "java", System.getProperty("java.version", "unknown")).register(registry);
    }

    /** A gauge of a Redis figure: NaN while Redis is not OK. */
    private static void redisGauge(MeterRegistry registry, MetricsService metrics, String name, String unit, String description,
                                   ToDoubleFunction<Reading> f) {
        Gauge.Builder<MetricsService> b = Gauge.builder(name, metrics, m -> {
            Reading r = m.reading();
            return r.redisOk() ? f.applyAsDouble(r) : Double.NaN;
        }).description(description);
        if (unit != null) {
            b.baseUnit(unit);
        }
        b.register(registry);
    }
}
