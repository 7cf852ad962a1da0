package com.orderconsole.service.follower;

import com.orderconsole.domain.HistoryEntry;
import com.orderconsole.domain.Operator;
import com.orderconsole.domain.OrderStatus;
import com.orderconsole.domain.PermissionDeniedException;
import com.orderconsole.domain.Role;
import com.orderconsole.domain.TransitionRules;
import com.orderconsole.redis.DataSetStore;
import com.orderconsole.redis.OrderStateStore;
import com.orderconsole.redis.OutboxStore;
import com.orderconsole.redis.RedisConnection;
import com.orderconsole.redis.RedisKeys;
import com.orderconsole.service.Access;
import com.orderconsole.service.RecordedMarker;
import com.orderconsole.store.Database;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.function.Supplier;

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
public final class Follower implements MySqlSync, AutoCloseable {
    private static final Logger log = LoggerFactory.getLogger(Follower.class);

    /** The database role an account must hold to run the follower on a server that checks accounts. */
    public static final String SERVICE_ROLE = com.orderconsole.store.ConsoleRoles.FOLLOWER;

    private final OutboxStore outbox;
    private final DataSetStore dataSet;
    private final Database db;
    private final Access access;
    private volatile String lastError;
    /** The background drain and its watch (started by {@link #start}). */
    private final FollowerLoop loop;
    /** What is pending, read without changing anything, and the fence. */
    private final OutboxBacklog backlog;
    /** Applies one batch of one bucket in one MySQL transaction. */
    private final BatchApplier applier;
    /** Applies every pending batch of a bucket, one bucket per thread at a time. */
    private final OutboxDrain drain;
    /**
     * This session writes history in other people's names only when it holds order_console_follower, or is the owner's
     * session of local servers. Otherwise it never applies: it reads, and waits for the follower of 'serve'.
     */
    private final boolean applies;

    /**
     * Built by the wiring ({@code app.Services}); {@code clock} gives Redis {@code TIME}, {@code states} tells
     * an order MySQL lacks but Redis has (MySQL restored from an older backup) from one neither has (invented);
     * {@code inForce} gives the rules in force (the sequence check: an applied move is one of their edges or an
     * admin's override); after each commit terminal orders get their Redis expiry from {@code retention} (null: they
     * stay); {@code recorded}, the marker of the data set MySQL follows, tells an older copy of it, from which the
     * follower applies nothing.
     */
    public Follower(RedisConnection clock, OutboxStore outbox, DataSetStore dataSet, OrderStateStore states, Database db, Access access,
                    Supplier<TransitionRules> inForce, TerminalRetention retention, RecordedMarker recorded) {
        this.backlog = new OutboxBacklog(clock, outbox, dataSet, db, recorded);
        this.applier = new BatchApplier(outbox, dataSet, states, db, new SequenceCheck(inForce, clock::nowMs), retention,
                new SetAsideConvergence(states, db, backlog, retention));
        this.applies = db.mayFollow();
        this.loop = new FollowerLoop(db.where(), this::drainOnce, this::countQuietly, e -> lastError = e,
                () -> clock.ping() ? null : "Redis at " + clock.where() + " does not answer");
        this.drain = new OutboxDrain(dataSet, db, recorded, backlog, applier, loop::answered);
        this.outbox = outbox;
        this.dataSet = dataSet;
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
        if (!applies) {
            throw new PermissionDeniedException(operator.name() + " may not run the MySQL follower: "
                    + "the account does not hold role " + SERVICE_ROLE + "; the follower runs "
                    + "under the service account of 'serve', which writes history in other people's names "
                    + "(docs/dba-guide.md, the follower's service account)");
        }
        return drainOnce();
    }

    /**
     * @return true when this session applies the outbox; false for a person's session on a server that checks accounts,
     *     where the follower of 'serve' does and this session only reads and waits
     */
    public boolean appliesHere() {
        return applies;
    }

    /**
     * Applies every pending entry of every bucket (until each is empty at the time it is read).
     *
     * @return entries applied (0 where this session does not apply)
     * @throws com.orderconsole.store.DatabaseUnavailableException when MySQL is down (nothing is lost; retry later)
     */
    public int drainOnce() {
        if (!applies) {
            return 0;
        }
        int n = drain.everyBucket();
        lastError = null;
        return n;
    }

    /**
     * Applies every pending entry while a lost data set is being restored (the marker is not set yet).
     *
     * @param epoch the marker the restore will set
     * @return entries applied (0 where this session does not apply)
     */
    public int drainForRecovery(String epoch) {
        return applies ? drain.forRecovery(epoch) : 0;
    }

    /**
     * Applies every pending entry of one bucket (before an order of it is rebuilt from MySQL, so that
     * the rebuild sees every transition Redis accepted).
     *
     * @return entries applied (0 where this session does not apply)
     */
    public int drainBucket(int bucket) {
        return applies ? drain.bucket(bucket) : 0;
    }

    /**
     * Changes how the follower applies (benchmarks compare settings in one run; the defaults come from
     * system properties {@code orderconsole.follower.threads} and {@code orderconsole.follower.batch}).
     *
     * @param threads buckets applied at the same time, 1..{@value FollowerSettings#THREADS_MAX}
     * @param batch entries per MySQL transaction, at least 1
     * @throws IllegalArgumentException when either is out of range
     */
    public void tune(int threads, int batch) {
        if (threads < 1 || threads > FollowerSettings.THREADS_MAX || batch < 1) {
            throw new IllegalArgumentException("threads 1.." + FollowerSettings.THREADS_MAX + " and batch >= 1, not " + threads + " and " + batch);
        }
        drain.tune(threads, batch);
    }

    /** The benchmark's what-if only (BenchFollowers): the sequence check off, to measure what it costs. */
    void sequenceCheck(boolean on) {
        applier.sequenceCheck(on);
    }

    /**
     * Moves an order row forward to a version its own history records as applied (reconciliation, when a
     * row is found behind its history); the same version guard as the outbox path.
     *
     * @param version the version to bring the row to
     * @param status the status MySQL's history must record at that version
     * @return true when the history records that version and status (the row is there now), false when not
     */
    public boolean reapplyHistory(String orderId, long version, OrderStatus status) {
        return db.inTransaction(t -> {
            HistoryEntry h = t.history().appliedAt(orderId, version);
            if (h == null || h.to() != status) {
                return false;
            }
            // Through the same statement a person's session calls as a procedure: the row takes what its history says.
            t.orders().followHistory(h);
            return true;
        });
    }

    /**
     * @param listener told after each of this process's commits that recorded history rows, on the follower's thread: it
     *     must return at once
     * @return what stops telling it
     */
    public Runnable afterHistoryCommitted(Runnable listener) {
        return drain.afterHistoryCommitted(listener);
    }

    /** Wakes the background follower now (called after each transition). */
    public void nudge() {
        loop.nudge();
    }

    /**
     * Starts the background follower: drains when nudged and at least every {@code idle}; backs off
     * while MySQL or Redis is down, and says in the log when MySQL stops answering.
     */
    public void start(Duration idle) {
        if (!applies) {
            log.info("this account does not hold {}: the MySQL follower is not started here (it runs in 'serve')",
                    SERVICE_ROLE);
            return;
        }
        loop.start(idle);
    }

    /**
     * Counts every bucket's outbox while the follower cannot apply it (MySQL down). transition.lua counts no move, so
     * readers add up what is not counted yet: counting on during an outage leaves them little to add.
     */
    private void countQuietly() {
        try {
            for (int b = 0; b < RedisKeys.buckets(); b++) {
                outbox.count(b);
            }
        } catch (RuntimeException e) {
            log.debug("cannot count the outbox now: {}", e.getMessage()); // Redis down too: the loop says what failed
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
                    + (st.lastError() == null ? "" : " (" + st.lastError() + ")")
                    + (applies ? "" : "; this account does not apply them: is 'serve' running under an account holding "
                    + SERVICE_ROLE + "?"));
        } catch (RuntimeException e) {
            return new CatchUp(false, "changes wait in the Redis outbox (" + e.getMessage() + ")");
        }
    }

    /**
     * Blocks until no entry is pending or the timeout passes, draining meanwhile (or, where this session does not
     * apply, waiting for the follower that does).
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
            FollowerLoop.sleepQuietly(100);
        }
        return false;
    }

    /**
     * @return true when Redis has no data-set marker (it lost its data or went back in time): the follower and the
     *     sweeper wait until an ops or admin process (console or serve) restores the data set from MySQL
     */
    public boolean waitingForRestore() {
        return dataSet.epoch() == null;
    }

    /**
     * @return how far MySQL lags; a few constant-time reads per bucket (XLEN, and XRANGE of one or two
     *     entries), whatever the backlog, after one MySQL read per bucket ({@link #appliedPositions})
     */
    public FollowerStatus status() {
        return status(appliedPositions());
    }

    /**
     * Reads (changes nothing) the outbox entries of one bucket that MySQL does not have yet: for each
     * order, the highest version an applied entry will bring it to.
     *
     * @param cap read at most this many entries
     * @return order id to version (empty when Redis lost its data-set marker and the bucket's outbox with it), or null when
     *     more than {@code cap} entries are pending or Redis lost its marker but the outbox still holds entries
     */
    public Map<String, Long> pendingVersions(int bucket, int cap) {
        return backlog.pendingVersions(bucket, cap);
    }

    /**
     * Reads (changes nothing) what the outbox still holds for one order: accepted by Redis, not yet in
     * MySQL (the story of an order shows these as "sync pending").
     *
     * @param cap read at most this many entries of the order's bucket
     * @return the order's pending entries, oldest first; empty when none or when more than {@code cap} are pending
     */
    public List<HistoryEntry> pendingFor(String orderId, int cap) {
        return backlog.pendingFor(orderId, cap);
    }

    /**
     * The follower's fence, asked by the cancel sweeper before it acts on a bucket: is the outbox entry
     * MySQL applied last for this bucket still in Redis? When it is not, Redis went back in time (restored from an
     * older copy) and its WAIT_PAY states may be orders MySQL has as paid; the data set is fenced at once, as the
     * follower would on its next batch, and maintenance restores it from MySQL.
     *
     * @param bucket a bucket
     * @param epoch the data-set marker the caller read
     * @return true when the bucket may be acted on; false when Redis is behind MySQL (now fenced)
     * @throws com.orderconsole.store.DatabaseUnavailableException when MySQL does not answer (then nothing can tell)
     */
    public boolean fenceHolds(int bucket, String epoch) {
        return backlog.fenceHolds(bucket, epoch);
    }

    /** @return outbox entries this process's follower applied to MySQL since it started (the applied-total metric) */
    public long appliedTotal() {
        return drain.appliedTotal();
    }

    /** {@link #fenceHolds(int, String)} asked by {@code foundBy} (words kept in the fence key, e.g. "a transition"). */
    public boolean fenceHolds(int bucket, String epoch, String foundBy) {
        return backlog.fenceHolds(bucket, epoch, foundBy);
    }

    /**
     * Where MySQL had applied a bucket's outbox when this process last read its cursor (at start, for the status, by the
     * sweeper's fence): a transition checks that Redis' outbox still reaches it, so that a Redis restored from an older
     * copy is found even when no follower runs. A position older than MySQL's only looks less far.
     *
     * @param epoch the data-set marker the caller expects
     * @return the stream id, or null when none was read for that data set yet
     */
    public String appliedThrough(int bucket, String epoch) {
        return backlog.appliedThrough(bucket, epoch);
    }

    /**
     * Should this transition look whether the bucket's outbox still reaches {@link #appliedThrough}? At once after the
     * known position moved, else at most every 100 ms per bucket: the look is an {@code XRANGE} (measured 2 µs of Redis
     * time, against 0.9 µs for a GET and 15 µs for the script's applied path), too dear for every call; a data set found
     * behind is fenced, and every later call refused by the fence key.
     *
     * @return true when the caller is to look now (the next 100 ms belong to it)
     */
    public boolean fenceLookDue(int bucket) {
        return backlog.fenceLookDue(bucket);
    }

    /**
     * The fence on every bucket at once, asked by a process when it starts: a command run while no follower
     * runs (serve stopped) finds a Redis restored from an older copy before it moves anything. The marker compared with
     * MySQL's, then one MySQL read of the cursor and one {@code XRANGE} per bucket; a stale copy is fenced.
     *
     * @return why Redis is behind MySQL (now fenced), or null when the fence holds (or Redis has no marker: a restore runs)
     */
    public String checkFences() {
        return backlog.checkFences();
    }

    /**
     * The MySQL half of {@link #status()}: how far MySQL has applied each bucket's outbox (its sync cursor). Blocks
     * while MySQL does not answer (up to the socket timeout), so a caller that must answer at once (the metrics
     * sampler) reads it on a thread of its own.
     *
     * @return every bucket's applied position, as MySQL holds it now
     */
    public AppliedPositions appliedPositions() {
        return backlog.appliedPositions();
    }

    /**
     * The Redis half of {@link #status()}: the outbox measured against positions read from MySQL before. Positions
     * live in MySQL, so while MySQL is down or hung none can move, and positions read before the outage give the
     * exact backlog and a lag that grows with the outage, from Redis alone.
     *
     * @param positions from {@link #appliedPositions()}
     * @return how far MySQL lags those positions
     */
    public FollowerStatus status(AppliedPositions positions) {
        return backlog.status(positions, drain.appliedTotal(), lastError);
    }

    @Override
    public void close() {
        drain.close();
        loop.close();
    }
}
