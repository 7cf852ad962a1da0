package com.orderconsole.service.metrics;

import com.orderconsole.domain.ResultCode;
import com.orderconsole.service.deadletter.DeadLetterService;
import com.orderconsole.service.follower.AppliedPositions;
import com.orderconsole.service.follower.Follower;
import com.orderconsole.service.follower.FollowerStatus;
import com.orderconsole.service.monitor.MonitorService;
import com.orderconsole.service.queue.QueueService;
import com.orderconsole.service.queue.QueueSummary;

import java.util.Map;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;

/**
 * Reads Redis and MySQL for the meters on two daemon threads of their own, every {@value #SAMPLE_PERIOD_MS} ms, and
 * keeps the latest sample of each, so that whoever shows them never waits on a server: a hung MySQL blocks only its
 * thread, up to the socket timeout. The threads start with the first sample asked for, so a one-shot command that
 * never asks reads nothing.
 */
final class StoreSampler implements AutoCloseable {
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

    /**
     * What Redis said at one sample, or why it did not.
     *
     * @param okAtNanos {@link System#nanoTime()} of the last success, 0 for none
     * @param error why the latest attempt failed, null when it did not
     */
    record RedisSample(QueueSummary queue, FollowerStatus sync, Map<ResultCode, Long> results, long okAtNanos, String error) { }

    /**
     * The applied positions MySQL last gave and when, and why the latest attempt failed (null when it did not). While
     * MySQL hangs no attempt ends: the success only grows old.
     *
     * @param deadLettersOpen dead letters waiting for a person, -1 when not counted
     * @param okAtNanos {@link System#nanoTime()} of the last success, 0 for none
     */
    record MySqlSample(AppliedPositions positions, long deadLettersOpen, long okAtNanos, String error) { }

    private final Follower follower;
    private final QueueService queue;
    private final MonitorService monitor;
    private final DeadLetterService deadLetters;
    private final CountDownLatch firstRedis = new CountDownLatch(1);
    private final CountDownLatch firstMySql = new CountDownLatch(1);
    private volatile RedisSample redisSample;
    private volatile MySqlSample mysqlSample;
    private ScheduledExecutorService redisSampler;
    private ScheduledExecutorService mysqlSampler;

    /**
     * @param follower gives MySQL's applied positions and measures the outbox against them in Redis
     * @param deadLetters counted on the MySQL thread, or null for none
     */
    StoreSampler(Follower follower, QueueService queue, MonitorService monitor, DeadLetterService deadLetters) {
        this.follower = follower;
        this.queue = queue;
        this.monitor = monitor;
        this.deadLetters = deadLetters;
    }

    /** Starts the two sampler threads unless running; the first call waits up to 4 s for their first samples. */
    void start() {
        boolean first;
        synchronized (this) {
            first = redisSampler == null;
            if (first) {
                mysqlSampler = thread("metrics-mysql-sampler", this::sampleMySql);
                redisSampler = thread("metrics-redis-sampler", this::sampleRedis);
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

    /** @return the latest sample of Redis, null before the first ended */
    RedisSample redis() {
        return redisSample;
    }

    /** @return the latest sample of MySQL, null before the first ended */
    MySqlSample mysql() {
        return mysqlSample;
    }

    private static ScheduledExecutorService thread(String name, Runnable sample) {
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

    /** Stops both threads; one blocked in a hung read is a daemon thread and, interrupted, ends when the read gives up. */
    @Override
    public synchronized void close() {
        if (redisSampler != null) {
            redisSampler.shutdownNow();
            mysqlSampler.shutdownNow();
        }
    }
}
