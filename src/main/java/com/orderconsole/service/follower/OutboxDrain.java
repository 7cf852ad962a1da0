package com.orderconsole.service.follower;

import com.orderconsole.redis.DataSetStore;
import com.orderconsole.redis.RedisKeys;
import com.orderconsole.service.RecordedMarker;
import com.orderconsole.store.Database;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.locks.ReentrantLock;

/**
 * Applies the Redis outbox to MySQL bucket by bucket, one batch per MySQL transaction ({@link BatchApplier}), until a
 * batch comes back short of the batch size. One thread of this process drains a bucket at a time; the cursor row lock
 * ({@code FOR UPDATE}) keeps other processes out. A batch that lost an InnoDB deadlock was rolled back whole (rows and
 * cursor), so it is applied again, up to {@value #DEADLOCK_RETRIES} times. Nothing is applied while Redis has no
 * data-set marker, or holds a copy older than the one MySQL follows (that copy is fenced).
 */
final class OutboxDrain implements AutoCloseable {
    /** The follower's log lines keep the follower's name, whichever part of it writes them. */
    private static final Logger log = LoggerFactory.getLogger(Follower.class);

    private static final int DEADLOCK_RETRIES = 5;

    private final DataSetStore dataSet;
    private final Database db;
    private final RecordedMarker recorded;
    private final OutboxBacklog backlog;
    private final BatchApplier applier;
    private final Runnable answered;
    private final ReentrantLock[] bucketLocks = new ReentrantLock[RedisKeys.buckets()];
    /** Drains the buckets one after the other or several at once ({@link #tune}). */
    private final BucketWorkers workers = new BucketWorkers(FollowerSettings.THREADS);
    private final AtomicLong applied = new AtomicLong();
    private final List<Runnable> historyListeners = new CopyOnWriteArrayList<>();
    private volatile int batch = FollowerSettings.BATCH;
    private boolean cursorsEnsured;

    /**
     * @param backlog told, after each commit, the position the bucket's outbox was trimmed to (transitions check that
     *     the outbox still reaches it)
     * @param applier applies one batch of one bucket in one MySQL transaction
     * @param answered told after every batch, applied or failed: MySQL answered (the background's stall watch)
     */
    OutboxDrain(DataSetStore dataSet, Database db, RecordedMarker recorded, OutboxBacklog backlog, BatchApplier applier,
                Runnable answered) {
        this.dataSet = dataSet;
        this.db = db;
        this.recorded = recorded;
        this.backlog = backlog;
        this.applier = applier;
        this.answered = answered;
        for (int b = 0; b < RedisKeys.buckets(); b++) {
            bucketLocks[b] = new ReentrantLock();
        }
    }

    /**
     * Drains every bucket, until each is empty at the time it is read; every bucket is tried even when another fails.
     *
     * @return entries applied
     * @throws RuntimeException the first bucket's failure, e.g.
     *     {@link com.orderconsole.store.DatabaseUnavailableException} when MySQL is down
     */
    int everyBucket() {
        BucketWorkers.Outcome o = workers.eachBucket(this::bucket);
        if (o.failure() != null) {
            throw o.failure();
        }
        return o.total();
    }

    /**
     * Drains one bucket in the current data set.
     *
     * @return entries applied
     * @throws IllegalStateException when Redis has no data-set marker, or holds an older copy (now fenced)
     */
    int bucket(int bucket) {
        ensureCursors();
        bucketLocks[bucket].lock();
        try {
            return untilShort(bucket, currentEpoch(), null);
        } finally {
            bucketLocks[bucket].unlock();
        }
    }

    /**
     * Drains every bucket while a lost data set is restored (Redis holds no marker yet).
     *
     * @param epoch the marker the restore will set
     * @return entries applied
     */
    int forRecovery(String epoch) {
        ensureCursors();
        int total = 0;
        for (int b = 0; b < RedisKeys.buckets(); b++) {
            bucketLocks[b].lock();
            try {
                int bucket = b;
                String before = db.read(t -> t.cursors().read(bucket)).epoch();
                total += untilShort(b, epoch, before);
            } finally {
                bucketLocks[b].unlock();
            }
        }
        return total;
    }

    /**
     * @param threads buckets drained at the same time, 1..{@value FollowerSettings#THREADS_MAX}
     * @param batch entries per MySQL transaction, at least 1
     */
    void tune(int threads, int batch) {
        workers.resize(threads);
        this.batch = batch;
    }

    /** @return outbox entries applied to MySQL by this process since it started */
    long appliedTotal() {
        return applied.get();
    }

    /**
     * @param listener told after each commit that recorded history rows, on the draining thread
     * @return what stops telling it
     */
    Runnable afterHistoryCommitted(Runnable listener) {
        historyListeners.add(listener);
        return () -> historyListeners.remove(listener);
    }

    @Override
    public void close() {
        workers.close();
    }

    /** Once per process: every bucket has a cursor row, and the database records this login as the follower's. */
    private synchronized void ensureCursors() {
        if (cursorsEnsured) {
            return;
        }
        // The audit view tells this login's rows as the follower's work.
        db.recordSignIn(true);
        db.inTransaction(t -> {
            for (int b = 0; b < RedisKeys.buckets(); b++) {
                t.cursors().ensure(b);
            }
            return null;
        });
        cursorsEnsured = true;
    }

    /**
     * The data set the follower applies from now.
     *
     * @throws IllegalStateException when Redis has no marker (it lost its data or went back in time: maintenance
     *     restores it and sets a new one), or holds an older copy of the data set MySQL follows (fenced here)
     */
    private String currentEpoch() {
        String epoch = dataSet.epoch();
        if (epoch == null) {
            throw new IllegalStateException("Redis has no data-set marker (it lost its data or went back in time); "
                    + "the follower waits for maintenance to restore it");
        }
        // The trimmed-entry fence of BatchApplier cannot see an older copy whose marker the cursors no longer name (the
        // same snapshot restored a second time): it would read it as a new data set. MySQL's recorded marker can.
        String why = recorded.staleCopy(epoch);
        if (why != null) {
            recorded.fence(epoch, why);
            log.warn("{}", why);
            throw new IllegalStateException(why);
        }
        return epoch;
    }

    /** Applies batches of one bucket (its lock held) until one comes back short. @return entries applied */
    private int untilShort(int bucket, String epoch, String before) {
        int total = 0;
        BatchApplier.Counts n;
        do {
            n = oneBatch(bucket, epoch, before);
            total += n.applied();
        } while (n.read() == batch);
        return total;
    }

    /**
     * One MySQL transaction: lock the cursor, read the entries after it in the data set {@code epoch}, write their
     * history rows (setting aside what cannot be read or contradicts MySQL's history), move order rows forward under
     * the version guard and move the cursor. The outbox is trimmed only after the commit.
     *
     * @param before the data set the bucket's cursor belonged to before a restore (null outside one)
     */
    private BatchApplier.Counts oneBatch(int bucket, String epoch, String before) {
        for (int attempt = 1; ; attempt++) {
            try {
                BatchApplier.Counts n = applier.applyOne(bucket, epoch, before, batch);
                answered.run();
                applied.addAndGet(n.applied());
                if (n.applied() > 0) {
                    historyListeners.forEach(Runnable::run);
                }
                String trimmed = applier.trimmedUpTo(bucket);
                if (trimmed != null) {
                    backlog.applied(bucket, epoch, trimmed);
                }
                return n;
            } catch (RuntimeException e) {
                answered.run(); // an error is an answer: the background's failure line tells of it
                // InnoDB rolled the whole transaction back (rows, cursor): nothing of it happened, so trying again is
                // safe. Anything else goes to the caller.
                if (attempt > DEADLOCK_RETRIES || !Database.lostDeadlock(e)) {
                    throw e;
                }
                log.debug("bucket {}: batch lost a deadlock, trying again ({})", bucket, attempt);
            }
        }
    }
}
