package com.orderconsole.service.maintenance;

import com.orderconsole.service.follower.TerminalRetention;
import com.orderconsole.service.DaemonScheduler;
import com.orderconsole.service.LogLimiter;

import com.orderconsole.redis.RedisConnection;
import com.orderconsole.redis.DataSetStore;
import com.orderconsole.service.RecordedMarker;
import com.orderconsole.service.follower.Follower;
import com.orderconsole.service.order.OrderRebuilder;
import com.orderconsole.service.rules.RulesJson;
import com.orderconsole.service.rules.RulesService;
import com.orderconsole.store.DatabaseUnavailableException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.time.Duration;
import java.util.UUID;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;

/**
 * Periodic self-healing: notices that Redis lost its data (the epoch marker is gone, or on a cluster the
 * keys of some buckets: {@link DataSetStore#bucketsLost}) and restores the
 * rules and every unpaid order's state and cancel-queue entry from MySQL; completes order creations
 * interrupted between the MySQL and the Redis step; puts back overdue unpaid orders whose Redis state
 * alone was lost; reloads scripts missing from the Redis script cache. Other orders come back lazily on lookup or
 * transition, or all at once by reconciliation.
 */
public final class Maintenance implements AutoCloseable {
    private static final Logger log = LoggerFactory.getLogger(Maintenance.class);
    /**
     * How long a restore claim holds, ms, when its owner dies without giving it back (SIGKILL): a second
     * restore running beside a slow first one is harmless (every step is idempotent), a long wait is not.
     */
    private static final long RECOVERY_CLAIM_MS = 60_000;
    private final LogLimiter failures = new LogLimiter(60_000);

    private final RedisConnection redis;
    private final DataSetStore marker;
    private final RulesService rules;
    private final OrderRebuilder rebuilder;
    private final Follower follower;
    private final DataSetIdentity dataset;
    /** The marker of the Redis data set MySQL follows: a restore records its new one there before it sets it in Redis. */
    private final RecordedMarker recorded;
    private ScheduledExecutorService scheduler;
    private ScheduledExecutorService passes;
    /** Null: no pass over terminal orders without an expiry. */
    /** Null: no retention pass (terminal orders stay in Redis). */
    private final TerminalRetention retention;
    /** How often terminal orders without an expiry are looked for (the first pass 30 s after start). */
    static final Duration UNTRACKED_PASS_EVERY = Duration.ofHours(6);
    /**
     * When the next pass runs after one that failed: soon, so that a pass that met MySQL hung for a moment does not wait
     * the full {@link #UNTRACKED_PASS_EVERY} for its next try.
     */
    static final Duration UNTRACKED_PASS_RETRY = Duration.ofMinutes(1);

    /**
     * Built by the wiring ({@code app.Services}); {@code retention} also gives terminal orders stored without an expiry theirs;
     * {@code recorded} is where a restore records the marker of the data set MySQL follows from then on.
     */
    public Maintenance(RedisConnection redis, DataSetStore marker, DataSetIdentity dataset, RulesService rules, OrderRebuilder rebuilder,
                       Follower follower, TerminalRetention retention, RecordedMarker recorded) {
        this.recorded = recorded;
        this.retention = retention;
        this.redis = redis;
        this.dataset = dataset;
        this.follower = follower;
        this.marker = marker;
        this.rules = rules;
        this.rebuilder = rebuilder;
    }

    /**
     * Checks the data-set marker; when it is missing (Redis lost its data, or the follower found it
     * restored from an old snapshot), this process claims the restore (one of several processes does it;
     * the claim expires if it dies) and, in this order: restores the newest rules, applies what the outbox
     * still holds, replaces every order state older than MySQL's, rebuilds the unpaid orders with their
     * queue entries, and only then sets the new marker (until then the sweeper and the follower wait).
     *
     * @return order states restored (0 when Redis had not lost its data)
     */
    public long recoverIfRedisLostData() {
        String current = marker.epoch();
        // A marker MySQL does not follow is an older copy of Redis (the same one restored twice included).
        if (current != null && recorded.fenceIfStale() != null) {
            log.warn("Redis carries data-set marker {}, not the one MySQL recorded at the last restore: restored from an older "
                    + "copy; restoring the data set from MySQL", current);
            current = null;
        }
        if (current != null) {
            // A cluster master restarted empty loses only its slots' keys; the marker may live on another one.
            java.util.List<Integer> lost = marker.bucketsLost();
            if (lost.isEmpty()) {
                return 0;
            }
            log.warn("Redis lost the keys of buckets {} (a cluster master restarted empty?): restoring the data set from MySQL",
                    lost);
            marker.forgetEpoch(current, "Redis lost the keys of buckets " + lost);
        }
        String epoch = UUID.randomUUID().toString();
        if (!marker.claimRecovery(epoch, RECOVERY_CLAIM_MS)) {
            return 0;
        }
        long stale;
        long unpaid;
        try {
            dataset.verifyPairing();
            rules.ensureSeeded();
            follower.drainForRecovery(epoch);
            stale = rebuilder.restoreStale();
            unpaid = rebuilder.rebuildUnpaid();
        } catch (RuntimeException e) {
            // MySQL or Redis failed half-way: give the claim back, so the next round (here or elsewhere)
            // restores at once instead of everyone waiting for the claim to expire.
            marker.releaseRecovery(epoch);
            throw e;
        }
        // MySQL first: a process that sees the new marker in Redis finds it recorded; one that sees the old marker after
        // this (a stale copy restored again) is refused and fenced.
        try {
            recorded.record(epoch);
        } catch (RuntimeException e) {
            marker.releaseRecovery(epoch);
            throw e;
        }
        marker.finishRecovery(epoch);
        if (stale + unpaid > 0) {
            log.warn("Redis had lost its data or gone back in time: restored the rules, {} order states older than MySQL "
                    + "and {} unpaid orders with their cancel-queue entries from MySQL; other orders come back on first use "
                    + "or by reconciliation", stale, unpaid);
        }
        return stale + unpaid;
    }

    /** One round of every check; failures are logged and retried next round. */
    public void runOnce() {
        try {
            recoverIfRedisLostData();
            if (redis.scriptsCached().containsValue(false)) {
                redis.loadScripts();
            }
            rebuilder.finishPendingCreations();
            if (marker.epoch() != null) {
                // While a data-set restore is under way (marker absent) that restore rebuilds the unpaid orders itself.
                rebuilder.restoreOverdueUnpaid();
            }
        } catch (DatabaseUnavailableException e) {
            // The follower, which runs wherever this job does, says so once in words: a second line would
            // make one MySQL outage read as two incidents.
        } catch (RuntimeException e) {
            long held = failures.occurrence("round");
            if (held >= 0) {
                log.warn("maintenance round failed, will retry every 5 s: {}{}", e.getMessage(), failures.more(held));
            }
        }
    }

    /**
     * Runs {@link #runOnce} every {@code period} on a daemon thread, and every
     * {@link #UNTRACKED_PASS_EVERY} (first 30 s after start; 1 minute after one that failed) {@link TerminalRetention#retireUntracked}: a
     * data set from before the retention keeps every terminal order until that pass.
     */
    public synchronized void start(Duration period) {
        if (scheduler != null) {
            return;
        }
        scheduler = DaemonScheduler.create("maintenance");
        scheduler.scheduleWithFixedDelay(this::runOnce, period.toMillis(), period.toMillis(), TimeUnit.MILLISECONDS);
        TerminalRetention r = retention;
        if (r != null) {
            // A thread of its own: a pass over millions of orders must not hold back the 5 s data-loss checks.
            passes = DaemonScheduler.create("terminal-retention");
            schedulePasses(passes, () -> r.retireUntracked(() -> Thread.currentThread().isInterrupted()),
                    Duration.ofSeconds(30), UNTRACKED_PASS_EVERY, UNTRACKED_PASS_RETRY);
        }
    }

    /**
     * Runs {@code pass} on {@code on} after {@code first}, then {@code every} after each pass that ended normally, or
     * {@code retry} after one that threw (logged in one line with the time of the next try). Stops when {@code on}
     * is shut down.
     */
    static void schedulePasses(ScheduledExecutorService on, Runnable pass, Duration first, Duration every, Duration retry) {
        on.schedule(new Runnable() {
            @Override
            public void run() {
                Duration next = every;
                try {
                    pass.run();
                } catch (RuntimeException e) {
                    next = retry;
                    log.warn("pass over terminal orders without an expiry failed, next try in {}: {}", RulesJson.duration(next),
                            e.getMessage());
                }
                if (!on.isShutdown()) {
                    on.schedule(this, next.toMillis(), TimeUnit.MILLISECONDS);
                }
            }
        }, first.toMillis(), TimeUnit.MILLISECONDS);
    }

    @Override
    public synchronized void close() {
        if (scheduler != null) {
            // A round in progress finishes (at most a few seconds): interrupting it mid-JDBC-call leaves a broken
            // connection for the pool to log, and the engine closes the pool right after.
            scheduler.shutdown();
            try {
                if (!scheduler.awaitTermination(10, TimeUnit.SECONDS)) {
                    scheduler.shutdownNow();
                }
            } catch (InterruptedException e) {
                scheduler.shutdownNow();
                Thread.currentThread().interrupt();
            }
            scheduler = null;
        }
        if (passes != null) {
            passes.shutdownNow();
            passes = null;
        }
    }
}
