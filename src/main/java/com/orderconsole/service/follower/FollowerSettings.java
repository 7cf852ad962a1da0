package com.orderconsole.service.follower;

import com.orderconsole.redis.RedisKeys;

import java.util.Locale;

/**
 * The follower's settings, each a system property read once at start: batch size, threads, the loop's linger, and
 * the thresholds past which it warns (backlog, a MySQL that stopped answering). {@link Follower#tune} changes the
 * first two at run time.
 */
public final class FollowerSettings {
    private FollowerSettings() {
    }

    /** Entries per MySQL transaction (system property {@code orderconsole.follower.batch}). */
    static final int BATCH = Integer.getInteger("orderconsole.follower.batch", 2000);
    /**
     * Buckets applied at the same time, each on its own thread and connection (system property
     * {@code orderconsole.follower.threads}). Safe: a bucket's cursor row is locked for its transaction,
     * and in this process a bucket is drained by one thread at a time (the follower's bucket locks).
     */
    static final int THREADS_MAX = RedisKeys.buckets();
    static final int THREADS = Math.max(1, Math.min(THREADS_MAX, Integer.getInteger("orderconsole.follower.threads", 4)));
    /** @return buckets applied at the same time unless {@link Follower#tune} says otherwise */
    public static int defaultThreads() {
        return THREADS;
    }

    /** @return entries per MySQL transaction unless {@link Follower#tune} says otherwise */
    public static int defaultBatch() {
        return BATCH;
    }

    /**
     * Least time between the starts of two drains of the background loop, ms (system property
     * {@code orderconsole.follower.lingerMs}). Nudged after every transition, the loop would otherwise start a drain
     * the moment the last one ended, with a few entries per bucket, each batch paying its own transaction.
     */
    static final long LINGER_MS = Long.getLong("orderconsole.follower.lingerMs", 100);

    /**
     * Outbox backlog past which {@link Follower#status} warns: entries pending (system property
     * {@code orderconsole.follower.warnPending}, default 100,000) or age of the oldest (ms,
     * {@code orderconsole.follower.warnAgeMs}, default 10,000).
     */
    static final long WARN_PENDING = Long.getLong("orderconsole.follower.warnPending", 100_000);
    static final long WARN_AGE_MS = Long.getLong("orderconsole.follower.warnAgeMs", 10_000);

    static String backlogWarning(long pending, boolean approximate, Long oldestMs) {
        boolean many = pending > WARN_PENDING;
        boolean old = oldestMs != null && oldestMs > WARN_AGE_MS;
        if (!many && !old) {
            return null;
        }
        return String.format(Locale.ROOT, "MySQL sync backlog: %,d%s changes wait in the Redis outbox, the oldest %,d s old "
                        + "(warns past %,d changes or %,d s; they are applied when MySQL keeps up, nothing is lost)",
                pending, approximate ? "+" : "", oldestMs == null ? 0 : oldestMs / 1000, WARN_PENDING, WARN_AGE_MS / 1000);
    }

    /**
     * How long the background follower may wait on MySQL with no batch done before it says so in the log (ms; system
     * property {@code orderconsole.follower.stallWarnMs}, default 5,000). A MySQL that hangs (stopped, or a lock held by
     * another session) raises no error until the 30 s socket timeout, and a shorter hang raised none at all: the log
     * was silent while the outbox grew.
     */
    static final long STALL_WARN_MS = Long.getLong("orderconsole.follower.stallWarnMs", 5_000);
}
