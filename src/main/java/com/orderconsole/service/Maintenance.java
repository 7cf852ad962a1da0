package com.orderconsole.service;

import com.orderconsole.redis.RedisConnection;
import com.orderconsole.redis.RulesStore;
import com.orderconsole.service.order.OrderService;
import com.orderconsole.service.rules.RulesService;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.time.Duration;
import java.util.UUID;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;

/**
 * Periodic self-healing: notices that Redis lost its data (the epoch marker is gone) and restores the
 * rules and every unpaid order's state and cancel-queue entry from MySQL; completes order creations
 * interrupted between the MySQL and the Redis step; reloads scripts missing from the Redis script cache. Other orders come back lazily on lookup or
 * transition, or all at once by reconciliation.
 */
public final class Maintenance implements AutoCloseable {
    private static final Logger log = LoggerFactory.getLogger(Maintenance.class);

    private final RedisConnection redis;
    private final RulesStore marker;
    private final RulesService rules;
    private final OrderService orders;
    private ScheduledExecutorService scheduler;

    Maintenance(RedisConnection redis, RulesStore marker, RulesService rules, OrderService orders) {
        this.redis = redis;
        this.marker = marker;
        this.rules = rules;
        this.orders = orders;
    }

    /**
     * Checks the epoch marker; when it is missing, this process claims the recovery (SETNX, so one of
     * several processes does it), restores the rules and rebuilds the unpaid orders.
     *
     * @return unpaid orders rebuilt (0 when Redis had not lost its data)
     */
    public long recoverIfRedisLostData() {
        if (marker.epoch() != null) {
            return 0;
        }
        if (!marker.setEpochIfAbsent(UUID.randomUUID().toString())) {
            return 0;
        }
        rules.ensureSeeded();
        long n = orders.rebuildUnpaid();
        if (n > 0) {
            log.warn("Redis had lost its data: restored the rules and {} unpaid orders with their cancel-queue entries from MySQL; "
                    + "run reconciliation to rebuild the rest now (they also come back on first use)", n);
        }
        return n;
    }

    /** One round of every check; failures are logged and retried next round. */
    public void runOnce() {
        try {
            recoverIfRedisLostData();
            if (redis.scriptsCached().containsValue(false)) {
                redis.loadScripts();
            }
            orders.finishPendingCreations();
        } catch (RuntimeException e) {
            log.warn("maintenance round failed, will retry: {}", e.getMessage());
        }
    }

    /** Runs {@link #runOnce} every {@code period} on a daemon thread. */
    public synchronized void start(Duration period) {
        if (scheduler != null) {
            return;
        }
        scheduler = DaemonScheduler.create("maintenance");
        scheduler.scheduleWithFixedDelay(this::runOnce, period.toMillis(), period.toMillis(), TimeUnit.MILLISECONDS);
    }

    @Override
    public synchronized void close() {
        if (scheduler != null) {
            scheduler.shutdownNow();
            scheduler = null;
        }
    }
}
