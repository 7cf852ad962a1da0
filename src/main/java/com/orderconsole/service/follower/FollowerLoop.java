package com.orderconsole.service.follower;

import com.orderconsole.service.LogLimiter;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.time.Duration;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;
import java.util.function.Supplier;

/**
 * The follower's background: one thread drains when nudged (after each transition) and at least every idle period,
 * at most once per {@link FollowerSettings#LINGER_MS}, and backs off a second while MySQL or Redis fails; a second
 * thread watches for a drain that gets no answer from MySQL (a hang raises no error until the socket timeout) and says
 * so in the log. Both log under the follower's name, one line per incident and one when it syncs again.
 */
final class FollowerLoop implements AutoCloseable {
    private static final Logger log = LoggerFactory.getLogger(Follower.class);

    private final String where;
    private final Runnable drain;
    private final Runnable countOutbox;
    private final Consumer<String> lastError;
    private final Semaphore wake = new Semaphore(0);
    private final Object stallLock = new Object();
    private volatile boolean running;
    private Thread thread;
    private final Supplier<String> redisSilent;
    /**
     * Wall-clock ms: when the background loop's current drain began (0 between drains), when a batch of it last
     * finished or failed, and when the loop's current run of failures began (0 while syncing).
     */
    private volatile long drainingSinceMs;
    private volatile long answeredMs;
    private volatile long failingSinceMs;
    /** When the current drain stopped making progress, once the watch has said so (0 otherwise); guarded by stallLock. */
    private long stalledSinceMs;

    /**
     * @param where MySQL's address, for the log
     * @param drain one drain of every bucket; throws when MySQL or Redis fails
     * @param countOutbox counts the outbox while the drain fails (the counts go on during an outage)
     * @param lastError told the failure in words (the follower's status shows it)
     * @param redisSilent asked when a drain stalls, on the watch's thread: words naming Redis when it does not answer now
     *     (a drain reads the outbox from Redis as well as writing MySQL), else null
     */
    FollowerLoop(String where, Runnable drain, Runnable countOutbox, Consumer<String> lastError, Supplier<String> redisSilent) {
        this.redisSilent = redisSilent;
        this.where = where;
        this.drain = drain;
        this.countOutbox = countOutbox;
        this.lastError = lastError;
    }

    /** Wakes the loop now. */
    void nudge() {
        if (wake.availablePermits() == 0) {
            wake.release();
        }
    }

    /** Starts the loop and its watch, once. @param idle the longest wait between two drains */
    synchronized void start(Duration idle) {
        if (running) {
            return;
        }
        running = true;
        thread = new Thread(() -> loop(idle), "follower");
        thread.setDaemon(true);
        thread.start();
        Thread watch = new Thread(this::watchForStall, "follower-watch");
        watch.setDaemon(true);
        watch.start();
    }

    /** A batch finished or failed: MySQL answered. */
    void answered() {
        answeredMs = System.currentTimeMillis();
    }

    private void loop(Duration idle) {
        // One line per 30 s while failing, one when syncing again: a MySQL outage is read by on-call in the log.
        LogLimiter failures = new LogLimiter(30_000);
        long lastStart = 0;
        while (running) {
            try {
                wake.tryAcquire(idle.toMillis(), TimeUnit.MILLISECONDS);
                long since = (System.nanoTime() - lastStart) / 1_000_000;
                if (since < FollowerSettings.LINGER_MS) {
                    Thread.sleep(FollowerSettings.LINGER_MS - since);
                }
                wake.drainPermits();
                if (!running) {
                    break;
                }
                lastStart = System.nanoTime();
                answeredMs = System.currentTimeMillis();
                drainingSinceMs = answeredMs;
                long stalledSince;
                try {
                    drain.run();
                } finally {
                    stalledSince = drainEnded();
                }
                long from = failingSinceMs != 0 ? failingSinceMs : stalledSince;
                if (from != 0) {
                    log.info("MySQL follower syncing again after {} s: the transitions that waited in the Redis "
                            + "outbox are being applied to MySQL", (System.currentTimeMillis() - from) / 1000);
                    failingSinceMs = 0;
                }
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                break;
            } catch (RuntimeException e) {
                lastError.accept(e.getMessage());
                countOutbox.run();
                if (failingSinceMs == 0) {
                    failingSinceMs = System.currentTimeMillis();
                }
                long held = failures.occurrence("sync");
                if (held >= 0) {
                    log.warn("MySQL follower cannot sync now, transitions stay in the Redis outbox, retrying every second: {}{}",
                            e.getMessage(), failures.more(held));
                }
                sleepQuietly(1000);
            }
        }
    }

    private void watchForStall() {
        while (running) {
            sleepQuietly(1000);
            if (quietFrom() == 0) {
                continue; // a look without the lock, confirmed under it below
            }
            // A drain waits on Redis (the outbox) as well as on MySQL: the fresh-user tester's Redis hang was logged as a
            // MySQL one. Redis is asked before MySQL is blamed, outside the lock: the ping may take its command timeout,
            // and the loop takes the lock when a drain ends.
            String redis = redisSilent.get();
            synchronized (stallLock) {
                long quietFrom = quietFrom();
                if (quietFrom == 0) {
                    continue; // the drain moved on while Redis was asked
                }
                long quiet = System.currentTimeMillis() - quietFrom;
                stalledSinceMs = quietFrom;
                if (redis != null) {
                    lastError.accept(redis + " for " + quiet / 1000 + " s");
                    log.warn("MySQL follower has waited {} s for its batch: {} (transitions stay in the Redis outbox and are "
                            + "applied once it answers)", quiet / 1000, redis);
                } else {
                    lastError.accept("MySQL at " + where + " has not answered for " + quiet / 1000 + " s");
                    log.warn("MySQL follower has waited {} s for MySQL at {} to answer (a hung server, or a lock held by another "
                            + "session): transitions stay in the Redis outbox and are applied once it answers", quiet / 1000, where);
                }
            }
        }
    }

    /**
     * @return when the current drain last made progress, if it has made none for longer than the stall warning and
     *     neither this stall nor an outage was told yet; else 0
     */
    private long quietFrom() {
        long since = drainingSinceMs;
        if (since == 0 || stalledSinceMs != 0 || failingSinceMs != 0) {
            return 0; // an outage already in the log is not told again as a wait
        }
        long quietFrom = Math.max(since, answeredMs);
        return System.currentTimeMillis() - quietFrom > FollowerSettings.STALL_WARN_MS ? quietFrom : 0;
    }

    /** Ends the loop's drain; @return when it stopped making progress if the watch said so, else 0. */
    private long drainEnded() {
        synchronized (stallLock) {
            drainingSinceMs = 0;
            long s = stalledSinceMs;
            stalledSinceMs = 0;
            return s;
        }
    }

    static void sleepQuietly(long ms) {
        try {
            Thread.sleep(ms);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    /** Stops the loop, waiting up to 5 s for its current drain. */
    @Override
    public void close() {
        running = false;
        wake.release();
        Thread t;
        synchronized (this) {
            t = thread;
        }
        if (t != null) {
            try {
                t.join(5000);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }
    }
}
