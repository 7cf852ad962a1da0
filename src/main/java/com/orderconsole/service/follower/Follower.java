package com.orderconsole.service.follower;

import com.orderconsole.domain.HistoryEntry;
import com.orderconsole.domain.Operator;
import com.orderconsole.domain.ResultCode;
import com.orderconsole.domain.Role;
import com.orderconsole.redis.OutboxEntry;
import com.orderconsole.redis.OutboxStore;
import com.orderconsole.redis.RedisConnection;
import com.orderconsole.redis.RedisKeys;
import com.orderconsole.service.Access;
import com.orderconsole.store.Database;
import com.orderconsole.store.OrderStore;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;

/**
 * The MySQL follower: applies the Redis outbox streams to MySQL.
 *
 * <p>How nothing is lost: transition.lua appends every outcome to its bucket's outbox stream in the
 * same atomic step as the state change. The follower reads entries after the bucket's cursor, and in
 * ONE MySQL transaction inserts the history rows (unique event key: a replay inserts nothing), applies
 * status/version with a version guard ({@code WHERE version < new}) and moves the cursor. Only after
 * that commit are the covered entries trimmed from the stream. A crash anywhere leaves either the
 * entries in Redis with the old cursor (re-applied, idempotently) or the cursor moved with the rows
 * committed. While MySQL is down, entries simply accumulate in Redis. The cursor row is locked
 * ({@code FOR UPDATE}), so several followers (console and CLI) never apply one bucket concurrently.
 */
public final class Follower implements AutoCloseable {
    private static final Logger log = LoggerFactory.getLogger(Follower.class);
    /** Entries per MySQL transaction. */
    static final int BATCH = 500;

    private final RedisConnection clock;
    private final OutboxStore outbox;
    private final Database db;
    private final Access access;
    private final Semaphore wake = new Semaphore(0);
    private final AtomicLong applied = new AtomicLong();
    /** Per bucket, the stream id this process last trimmed up to; drainOnce is synchronized. */
    private final String[] trimmedUpTo = new String[RedisKeys.BUCKETS];
    private volatile String lastError;
    private volatile boolean running;
    private Thread thread;
    private boolean cursorsEnsured;

    /** Built by {@link com.orderconsole.service.Services}; {@code clock} gives Redis {@code TIME}. */
    public Follower(RedisConnection clock, OutboxStore outbox, Database db, Access access) {
        this.clock = clock;
        this.outbox = outbox;
        this.db = db;
        this.access = access;
    }

    /**
     * {@link #drainOnce} on an operator's request (role support or higher; read-only operators only look).
     *
     * @return entries applied
     */
    public int runOnce(Operator operator) {
        access.require(operator, Role.SUPPORT, "run the MySQL follower");
        return drainOnce();
    }

    /**
     * Applies every pending entry of every bucket (until each is empty at the time it is read).
     *
     * @return entries applied
     * @throws com.orderconsole.store.DatabaseUnavailableException when MySQL is down (nothing is lost; retry later)
     */
    public synchronized int drainOnce() {
        ensureCursors();
        int total = 0;
        for (int b = 0; b < RedisKeys.BUCKETS; b++) {
            int n;
            do {
                n = drainBatch(b);
                total += n;
            } while (n == BATCH);
        }
        applied.addAndGet(total);
        lastError = null;
        return total;
    }

    private void ensureCursors() {
        if (!cursorsEnsured) {
            db.inTransaction(t -> {
                for (int b = 0; b < RedisKeys.BUCKETS; b++) {
                    t.cursors().ensure(b);
                }
                return null;
            });
            cursorsEnsured = true;
        }
    }

    private int drainBatch(int bucket) {
        String[] last = new String[1];
        int n = db.inBatch(t -> {
            String cursor = t.cursors().lock(bucket);
            List<OutboxEntry> batch = outbox.read(bucket, cursor, BATCH);
            if (batch.isEmpty()) {
                last[0] = cursor;
                return 0;
            }
            List<HistoryEntry> rows = new ArrayList<>(batch.size());
            OrderStore orders = t.orders();
            for (OutboxEntry e : batch) {
                rows.add(e.entry());
                if (e.entry().code() == ResultCode.APPLIED) {
                    orders.applyIfNewer(e.entry().orderId(), e.entry().to().code(), e.entry().version(), e.entry().atMs());
                }
            }
            t.history().append(rows);
            last[0] = batch.get(batch.size() - 1).streamId();
            t.cursors().save(bucket, last[0], System.currentTimeMillis());
            return batch.size();
        });
        if (!"0-0".equals(last[0]) && !last[0].equals(trimmedUpTo[bucket])) {
            // After the commit only: entries up to the cursor are durable in MySQL now. Also trims what a
            // follower that died between its commit and its trim left behind.
            outbox.trim(bucket, last[0]);
            trimmedUpTo[bucket] = last[0];
        }
        return n;
    }

    /** Wakes the background follower now (called after each transition). */
    public void nudge() {
        if (wake.availablePermits() == 0) {
            wake.release();
        }
    }

    /**
     * Starts the background follower: drains when nudged and at least every {@code idle}; backs off
     * while MySQL or Redis is down.
     */
    public synchronized void start(Duration idle) {
        if (running) {
            return;
        }
        running = true;
        thread = new Thread(() -> loop(idle), "follower");
        thread.setDaemon(true);
        thread.start();
    }

    private void loop(Duration idle) {
        long lastLoggedFailure = 0;
        while (running) {
            try {
                wake.tryAcquire(idle.toMillis(), TimeUnit.MILLISECONDS);
                wake.drainPermits();
                if (!running) {
                    break;
                }
                drainOnce();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                break;
            } catch (RuntimeException e) {
                lastError = e.getMessage();
                if (System.currentTimeMillis() - lastLoggedFailure > 30_000) {
                    lastLoggedFailure = System.currentTimeMillis();
                    log.warn("MySQL follower cannot sync now, will retry (transitions stay in the Redis outbox): {}", e.getMessage());
                }
                sleepQuietly(1000);
            }
        }
    }

    /**
     * Drains until nothing is pending or the wait is over, and says which it was. The changes stay in
     * the Redis outbox when MySQL does not catch up; the background follower applies them later.
     *
     * @param timeout how long to keep trying, e.g. 30 s
     * @return whether MySQL caught up, and what is pending when it did not
     */
    public CatchUp catchUp(Duration timeout) {
        if (awaitCaughtUp(timeout)) {
            return new CatchUp(true, "");
        }
        try {
            FollowerStatus st = status();
            return new CatchUp(false, st.pending() + (st.pendingCapped() ? "+" : "") + " changes wait in the Redis outbox"
                    + (st.lastError() == null ? "" : " (" + st.lastError() + ")"));
        } catch (RuntimeException e) {
            return new CatchUp(false, "changes wait in the Redis outbox (" + e.getMessage() + ")");
        }
    }

    /**
     * Blocks until no entry is pending or the timeout passes, draining meanwhile.
     *
     * @return true when caught up
     */
    public boolean awaitCaughtUp(Duration timeout) {
        long end = System.nanoTime() + timeout.toNanos();
        while (System.nanoTime() < end) {
            try {
                drainOnce();
                if (status().pending() == 0) {
                    return true;
                }
            } catch (RuntimeException e) {
                lastError = e.getMessage();
            }
            sleepQuietly(100);
        }
        return false;
    }

    /**
     * @return how far MySQL lags; a few constant-time reads per bucket (XLEN, and XRANGE of one or two
     *     entries), whatever the backlog
     */
    public FollowerStatus status() {
        long pending = 0;
        boolean approximate = false;
        Long oldest = null;
        long now = clock.nowMs();
        for (int b = 0; b < RedisKeys.BUCKETS; b++) {
            int bucket = b;
            String cursor = db.read(t -> t.cursors().read(bucket));
            OutboxEntry first = outbox.oldestAfter(b, cursor);
            if (first == null) {
                continue;
            }
            // Entries up to the cursor are applied; normally only the cursor entry itself is left of them.
            int done = "0-0".equals(cursor) ? 0 : outbox.countUpTo(b, cursor, 1001);
            approximate |= done > 1000;
            pending += Math.max(1, outbox.length(b) - done);
            long age = now - first.entry().atMs();
            oldest = oldest == null ? age : Math.max(oldest, age);
        }
        return new FollowerStatus(pending, approximate, oldest, applied.get(), lastError);
    }

    private static void sleepQuietly(long ms) {
        try {
            Thread.sleep(ms);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    @Override
    public void close() {
        running = false;
        wake.release();
        if (thread != null) {
            try {
                thread.join(5000);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }
    }
}
