package com.orderconsole.service;

import com.orderconsole.redis.DataSetStore;
import com.orderconsole.store.Database;

/**
 * The marker of the Redis data set MySQL follows ({@code dataset_identity.redis_marker}), held by this process, and the
 * check every transition makes with it (issue 33.5): a Redis whose marker ({@code osm:epoch}) is not the one MySQL
 * recorded is a copy from before the last restore (restored from an older snapshot, the same snapshot a second time
 * included), whatever its outbox holds, and nothing may move on it. A restore records its new marker in MySQL before it
 * sets it in Redis, so a live Redis never carries a marker MySQL has not recorded.
 *
 * <p>Cost: the marker is read from MySQL at start and again only when Redis shows another one (after another process
 * restored Redis, once; or while Redis is a stale copy, which is then fenced at once). The transition's own look costs no
 * command of its own on a single server: transition.lua compares {@code osm:epoch} with {@link #recorded()}, passed as an
 * argument; on a Redis Cluster it is one GET sent ahead of the script.
 */
public final class RecordedMarker {
    private final Database db;
    private final DataSetStore redis;
    private volatile String recorded;
    /** When MySQL was last read (System.nanoTime): with no marker recorded, MySQL is asked at most every 5 s. */
    private volatile long readAtNanos = System.nanoTime() - 10_000_000_000L;
    private static final long UNRECORDED_READ_EVERY_NANOS = 5_000_000_000L;

    /** Built by the wiring ({@code app.Services}). */
    public RecordedMarker(Database db, DataSetStore redis) {
        this.db = db;
        this.redis = redis;
    }

    /** @return the marker MySQL recorded, as last read or written by this process; null when none is recorded */
    public String recorded() {
        return recorded;
    }

    /**
     * Reads the recorded marker from MySQL again.
     *
     * @return it, or null when none is recorded
     * @throws com.orderconsole.store.DatabaseUnavailableException when MySQL does not answer
     */
    public String refresh() {
        String m = db.read(t -> t.dataset().redisMarker());
        recorded = m;
        readAtNanos = System.nanoTime();
        return m;
    }

    /**
     * With no marker held, reads MySQL's in the background (at most every 5 s): a transition never waits on MySQL for it
     * (the HTTP API answers transitions with MySQL hung, issue 32).
     */
    public void refreshSoon() {
        long now = System.nanoTime();
        long at = readAtNanos;
        if (recorded != null || now - at < UNRECORDED_READ_EVERY_NANOS) {
            return;
        }
        readAtNanos = now;
        java.util.concurrent.CompletableFuture.runAsync(() -> {
            try {
                refresh();
            } catch (RuntimeException e) {
                // MySQL does not answer: the next transition asks again in 5 s.
            }
        });
    }

    /**
     * Records the marker a restore of Redis is about to set (MySQL first: see the class comment).
     *
     * @param marker the new {@code osm:epoch}
     */
    public void record(String marker) {
        db.inTransaction(t -> t.dataset().recordRedisMarker(marker));
        recorded = marker;
    }

    /**
     * At start: reads MySQL's marker, and where none is recorded yet (a data set from before this check) records the
     * one Redis holds, when this session may write it ({@code mayRecord}: it runs the follower).
     */
    public void start(boolean mayRecord) {
        String m = refresh();
        String inRedis = redis.epoch();
        if (m == null && inRedis != null && mayRecord) {
            record(inRedis);
        }
    }

    /**
     * Is the Redis marker {@code inRedis} one MySQL does not follow? Reads MySQL once when it differs from what this
     * process holds (another process restored Redis since).
     *
     * @param inRedis {@code osm:epoch} as read, or null (Redis lost its data or is being restored: not this check's case)
     * @return why Redis is a stale copy, in words, or null when it is the data set MySQL follows (or nothing is recorded)
     */
    public String staleCopy(String inRedis) {
        if (inRedis == null) {
            return null;
        }
        String m = recorded;
        if (m == null && System.nanoTime() - readAtNanos < UNRECORDED_READ_EVERY_NANOS) {
            return null; // nothing recorded yet (no process that runs the follower started since the upgrade)
        }
        if (m == null || !m.equals(inRedis)) {
            m = refresh();
        }
        if (m == null || m.equals(inRedis)) {
            return null;
        }
        return "Redis carries data-set marker " + inRedis + ", but MySQL follows the data set of marker " + m
                + " (set by the last restore): Redis was restored from an older copy; maintenance restores it from MySQL";
    }

    /**
     * {@link #staleCopy} on Redis' marker now, and when Redis is a stale copy fences it (drops the marker, so that
     * maintenance restores the data set from MySQL and the follower and the sweeper wait).
     *
     * @return why Redis was fenced, or null when it is the data set MySQL follows
     */
    public String fenceIfStale() {
        String inRedis = redis.epoch();
        String why = staleCopy(inRedis);
        if (why != null) {
            fence(inRedis, why);
        }
        return why;
    }

    /**
     * Fences a stale copy: drops its marker when it still is {@code inRedis} and says why in {@code osm:fenced}.
     *
     * @param why from {@link #staleCopy}
     */
    public void fence(String inRedis, String why) {
        redis.forgetEpoch(inRedis, why);
    }
}
