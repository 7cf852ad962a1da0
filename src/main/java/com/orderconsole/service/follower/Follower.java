package com.orderconsole.service.follower;

import com.orderconsole.domain.HistoryEntry;
import com.orderconsole.domain.Operator;
import com.orderconsole.domain.OrderStatus;
import com.orderconsole.domain.ResultCode;
import com.orderconsole.domain.Role;
import com.orderconsole.redis.OrderStateStore;
import com.orderconsole.redis.OutboxEntry;
import com.orderconsole.redis.OutboxStore;
import com.orderconsole.redis.RedisConnection;
import com.orderconsole.redis.RedisKeys;
import com.orderconsole.redis.RulesStore;
import com.orderconsole.service.Access;
import com.orderconsole.service.LogLimiter;
import com.orderconsole.store.CursorStore;
import com.orderconsole.store.Database;
import com.orderconsole.store.DeadLetterRow;
import com.orderconsole.store.HistoryStore;
import com.orderconsole.store.OrderStore;
import com.orderconsole.store.Tables;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
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

    /** The database role an account must hold to run the follower on a server that checks accounts. */
    public static final String SERVICE_ROLE = com.orderconsole.store.ConsoleRoles.FOLLOWER;

    /** A batch that lost a deadlock (InnoDB rolled it back whole) is tried again this many times. */
    private static final int DEADLOCK_RETRIES = 5;

    private final RedisConnection clock;
    private final OutboxStore outbox;
    private final RulesStore rules;
    /** Asked only about orders MySQL lacks: whether Redis has them (real) or not (invented). */
    private final OrderStateStore states;
    private final Database db;
    private final Access access;
    private final AtomicLong applied = new AtomicLong();
    /** Per bucket, the stream id this process last trimmed up to; guarded by that bucket's lock. */
    private final String[] trimmedUpTo = new String[RedisKeys.buckets()];
    /** One bucket is drained by one thread of this process at a time (the cursor row lock does so across processes). */
    private final java.util.concurrent.locks.ReentrantLock[] bucketLocks = new java.util.concurrent.locks.ReentrantLock[RedisKeys.buckets()];
    private java.util.concurrent.ExecutorService pool;
    private volatile int threads = FollowerSettings.THREADS;
    private volatile int batch = FollowerSettings.BATCH;
    private volatile String lastError;
    private boolean cursorsEnsured;
    /** One line an hour that MySQL lacks orders Redis has: after a MySQL restore every batch would say it. */
    private final LogLimiter redisOnlyLog = new LogLimiter(3_600_000);
    /** Lets terminal orders leave Redis after MySQL has them (issue 16); null: they stay. */
    private final TerminalRetention retention;
    /** The background drain and its watch (started by {@link #start}). */
    private final FollowerLoop loop;
    /** Every entry must follow MySQL's history (issue 25). */
    private final SequenceCheck sequence;
    private volatile boolean sequenceCheck = true;
    /** Logins seen in console_account: only added to (a login is never removed). */
    private final java.util.Set<String> knownActors = java.util.concurrent.ConcurrentHashMap.newKeySet();
    /**
     * This session may write history in other people's names: it holds order_console_follower, or it is the owner's
     * session of local servers (issue 25). Otherwise it never applies; it reads, and waits for the follower elsewhere.
     */
    private final boolean applies;

    /**
     * Built by the wiring ({@code app.Services}); {@code clock} gives Redis {@code TIME}, {@code states} tells
     * an order MySQL lacks but Redis has (MySQL restored from an older backup) from one neither has (invented);
     * {@code terminal} gives the terminal statuses of the rules in force (the sequence check); after each commit
     * terminal orders get their Redis expiry from {@code retention} (null: they stay).
     */
    public Follower(RedisConnection clock, OutboxStore outbox, RulesStore rules, OrderStateStore states, Database db, Access access,
                    java.util.function.Supplier<java.util.Set<OrderStatus>> terminal, TerminalRetention retention) {
        this.sequence = new SequenceCheck(terminal);
        this.applies = db.mayFollow();
        this.loop = new FollowerLoop(db.where(), () -> drainOnce(), this::countQuietly, e -> lastError = e);
        this.retention = retention;
        this.clock = clock;
        this.outbox = outbox;
        this.rules = rules;
        this.states = states;
        this.db = db;
        this.access = access;
        for (int b = 0; b < RedisKeys.buckets(); b++) {
            bucketLocks[b] = new java.util.concurrent.locks.ReentrantLock();
        }
    }

    /**
     * {@link #drainOnce} on an operator's request (role support or higher; read-only operators only look).
     *
     * @return entries applied
     */
    public int runOnce(Operator operator) {
        access.require(operator, Role.SUPPORT, "run the MySQL follower");
        if (!applies) {
            throw new com.orderconsole.domain.PermissionDeniedException(operator.name() + " may not run the MySQL follower: "
                    + "the account does not hold role " + com.orderconsole.store.ConsoleRoles.FOLLOWER + "; the follower runs "
                    + "under the service account of 'serve', which writes history in other people's names (README, Accounts)");
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
     * @return entries applied
     * @throws com.orderconsole.store.DatabaseUnavailableException when MySQL is down (nothing is lost; retry later)
     */
    public int drainOnce() {
        if (!applies) {
            return 0;
        }
        ensureCursors();
        int total = 0;
        if (threads == 1) {
            for (int b = 0; b < RedisKeys.buckets(); b++) {
                total += drainBucket(b);
            }
        } else {
            // Buckets in parallel: each its own transactions on its own connection. Every bucket is tried
            // even when another fails; the first failure is reported after all have finished.
            List<java.util.concurrent.Future<Integer>> fs = new ArrayList<>(RedisKeys.buckets());
            java.util.concurrent.ExecutorService p = pool();
            if (p == null) { // closed: finish this call on the caller's thread
                for (int b = 0; b < RedisKeys.buckets(); b++) {
                    total += drainBucket(b);
                }
                applied.addAndGet(total);
                lastError = null;
                return total;
            }
            for (int b = 0; b < RedisKeys.buckets(); b++) {
                int bucket = b;
                fs.add(p.submit(() -> drainBucket(bucket)));
            }
            RuntimeException failure = null;
            for (java.util.concurrent.Future<Integer> f : fs) {
                try {
                    total += f.get();
                } catch (java.util.concurrent.ExecutionException e) {
                    if (failure == null) {
                        failure = e.getCause() instanceof RuntimeException r ? r : new IllegalStateException(e.getCause());
                    }
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                    if (failure == null) {
                        failure = new IllegalStateException("interrupted while draining the outbox", e);
                    }
                }
            }
            if (failure != null) {
                applied.addAndGet(total);
                throw failure;
            }
        }
        applied.addAndGet(total);
        lastError = null;
        return total;
    }

    private boolean closed;

    private synchronized java.util.concurrent.ExecutorService pool() {
        if (closed) {
            return null;
        }
        if (pool == null) {
            java.util.concurrent.atomic.AtomicInteger n = new java.util.concurrent.atomic.AtomicInteger();
            pool = java.util.concurrent.Executors.newFixedThreadPool(threads, r -> {
                Thread t = new Thread(r, "follower-" + n.incrementAndGet());
                t.setDaemon(true);
                return t;
            });
        }
        return pool;
    }

    /**
     * Applies every pending entry while a lost data set is being restored (the marker is not set yet).
     *
     * @param epoch the marker the restore will set
     * @return entries applied
     */
    public int drainForRecovery(String epoch) {
        if (!applies) {
            return 0;
        }
        ensureCursors();
        int total = 0;
        for (int b = 0; b < RedisKeys.buckets(); b++) {
            bucketLocks[b].lock();
            try {
                int bucket = b;
                String before = db.read(t -> t.cursors().read(bucket)).epoch();
                int n;
                do {
                    n = drainBatch(b, epoch, before);
                    total += n;
                } while (n == batch);
            } finally {
                bucketLocks[b].unlock();
            }
        }
        applied.addAndGet(total);
        return total;
    }

    /**
     * Applies every pending entry of one bucket (before an order of it is rebuilt from MySQL, so that
     * the rebuild sees every transition Redis accepted).
     *
     * @return entries applied
     */
    public int drainBucket(int bucket) {
        if (!applies) {
            return 0;
        }
        ensureCursors();
        bucketLocks[bucket].lock();
        try {
            int total = 0;
            int n;
            do {
                n = drainBatch(bucket, currentEpoch(), null);
                total += n;
            } while (n == batch);
            return total;
        } finally {
            bucketLocks[bucket].unlock();
        }
    }

    /**
     * Changes how the follower applies (benchmarks compare settings in one run; the defaults come from
     * system properties {@code orderconsole.follower.threads} and {@code orderconsole.follower.batch}).
     *
     * @param threads buckets applied at the same time, 1..{@value FollowerSettings#THREADS_MAX}
     * @param batch entries per MySQL transaction, at least 1
     */
    public void tune(int threads, int batch) {
        if (threads < 1 || threads > FollowerSettings.THREADS_MAX || batch < 1) {
            throw new IllegalArgumentException("threads 1.." + FollowerSettings.THREADS_MAX + " and batch >= 1, not " + threads + " and " + batch);
        }
        synchronized (this) {
            if (pool != null && threads != this.threads) {
                pool.shutdown();
                pool = null;
            }
            this.threads = threads;
        }
        this.batch = batch;
    }

    private synchronized void ensureCursors() {
        if (!cursorsEnsured) {
            // Recorded once, by the database: the audit view tells this login's rows as the follower's work.
            db.recordSignIn(true);
            db.inTransaction(t -> {
                for (int b = 0; b < RedisKeys.buckets(); b++) {
                    t.cursors().ensure(b);
                }
                return null;
            });
            cursorsEnsured = true;
        }
    }

    /**
     * One MySQL transaction: lock the cursor, read entries after it in the current Redis data set,
     * write their history rows (set aside what cannot be read or contradicts MySQL's history), move
     * order rows forward under the version guard and move the cursor. Trims only after the commit.
     */
    private String currentEpoch() {
        String epoch = rules.epoch();
        if (epoch == null) {
            // Redis lost its data (or went back in time): maintenance restores it and sets a new marker.
            throw new IllegalStateException("Redis has no data-set marker (it lost its data or went back in time); "
                    + "the follower waits for maintenance to restore it");
        }
        return epoch;
    }

    /** @param before the data set the bucket's cursor belonged to before a restore (null outside one) */
    private int drainBatch(int bucket, String epoch, String before) {
        for (int attempt = 1; ; attempt++) {
            try {
                int n = drainBatchOnce(bucket, epoch, before);
                loop.answered();
                return n;
            } catch (RuntimeException e) {
                loop.answered(); // an error is an answer: the loop's failure line tells of it
                // InnoDB rolled the whole transaction back (rows, cursor): nothing of it happened, so
                // trying again is safe. Anything else goes to the caller.
                if (attempt > DEADLOCK_RETRIES || !Database.lostDeadlock(e)) {
                    throw e;
                }
                log.debug("bucket {}: batch lost a deadlock, trying again ({})", bucket, attempt);
            }
        }
    }

    /** The benchmark's what-if only (BenchFollowers): the sequence check off, to measure what it costs. */
    void sequenceCheck(boolean on) {
        this.sequenceCheck = on;
    }

    private int drainBatchOnce(int bucket, String epoch, String before) {
        String[] last = new String[1];
        List<HistoryEntry> committed = new ArrayList<>();
        // Plain transaction, few statements: the cursor lock, a SAVEPOINT, one multi-row history INSERT, the conflict
        // check only when a row was ignored, one multi-row guarded UPDATE of the orders, the order check only when the
        // batch suggests a missing order, the cursor.
        int n = db.inTransaction(t -> {
            committed.clear();
            CursorStore.Cursor cursor = t.cursors().lock(bucket);
            String after = cursor.epoch() == null ? cursor.lastId() : cursor.after(epoch);
            boolean fenced = cursor.epoch() != null && after.equals(cursor.lastId()) && !"0-0".equals(after);
            List<OutboxEntry> batch = fenced ? outbox.readFenced(bucket, after, this.batch, epoch) : outbox.read(bucket, after, this.batch, epoch);
            if (batch == null) {
                // The fence: the outbox always keeps the entry MySQL applied last (the trim deletes only entries
                // before it). Without it, this Redis was restored from a copy older than what MySQL has: its order
                // states are stale and the entries after the copy are gone. It becomes a new data set, restored
                // from MySQL by maintenance.
                String why = "Redis outbox of bucket " + bucket + " no longer holds entry " + after
                        + ", the last one MySQL applied: Redis went back in time; maintenance restores it from MySQL";
                // Logged here, once per data set (the marker is gone now): the follower's loop logs one failure
                // per 30 s, and the cluster soak saw a CLUSTERDOWN logged 2 s before hide why a restore ran.
                rules.forgetEpoch(epoch, why);
                log.warn("{}", why);
                throw new IllegalStateException(why);
            }
            if (batch.isEmpty()) {
                last[0] = after;
                return 0;
            }
            // transition.lua counts no move (issue 15.3): the batch is counted here, from the entries as read, whatever
            // MySQL then does with it (counted once: a batch read again starts where the counting no longer stands).
            outbox.count(bucket, after, batch);
            // A restore reads the stream from its start under the new marker: what was recorded under the data set
            // before (the last applied entry a trim keeps, an older copy's backlog) is the same event, not a new one.
            java.util.Set<String> recordedBefore = before == null || before.equals(epoch) ? java.util.Set.of()
                    : recordedBefore(t, bucket, before, batch);
            List<HistoryEntry> rows = new ArrayList<>(batch.size());
            for (OutboxEntry e : batch) {
                if (recordedBefore.contains(e.streamId())) {
                    continue;
                }
                if (e.readable()) {
                    rows.add(e.entry());
                } else {
                    setAside(t, DeadLetterRow.OUTBOX_ENTRY, e, orderIdOf(e.body()), "outbox entry cannot be read: " + e.problem());
                }
            }
            if (db.writesStamped()) {
                java.util.Set<String> strangers = setAsideUnknownActors(t, batch, recordedBefore);
                if (!strangers.isEmpty()) {
                    recordedBefore = without(recordedBefore, strangers);
                    rows = rowsOf(batch, recordedBefore);
                }
            }
            // The sequence check (issue 25), cheap on the common path: the batch's own entries are checked against each
            // other here (no statement), each order's first move against MySQL by the guarded UPDATE itself
            // (applyAllInSequence). Only when that fails, or for orders the UPDATE cannot vouch for (refused attempts
            // only), MySQL is read and each entry judged (outOfSequence).
            boolean sequenced = false;
            if (sequenceCheck) {
                java.util.Set<String> unvouched = new java.util.HashSet<>();
                sequenced = sequence.chainHolds(batch, recordedBefore, unvouched);
                java.util.Set<String> forged = sequenced ? (unvouched.isEmpty() ? java.util.Set.of() : setAsideOutOfSequence(t, batch, recordedBefore, unvouched))
                        : setAsideOutOfSequence(t, batch, recordedBefore, null);
                if (!forged.isEmpty()) {
                    recordedBefore = without(recordedBefore, forged);
                    rows = rowsOf(batch, recordedBefore);
                }
            }
            // The history rows of an invented order (one neither MySQL nor Redis has) must not be written, and the
            // table allows no DELETE: when the check below finds one, the batch's writes from here are undone and
            // made again without its entries. Costs one SAVEPOINT statement per batch when nothing is found.
            Tables.Mark beforeHistory = t.mark();
            java.util.Set<String> invented = java.util.Set.of();
            while (true) {
                Applied a = apply(t, batch, rows, recordedBefore, invented, committed, sequenced);
                if (sequenced && a.changed() < a.moved().size()) {
                    // An order's first move did not start from MySQL's state (a forged entry, a replay, an order MySQL
                    // lacks): undone, judged entry by entry against MySQL, and applied again under the version guard.
                    beforeHistory.undo();
                    sequenced = false;
                    java.util.Set<String> forged = setAsideOutOfSequence(t, batch, recordedBefore, null);
                    if (!forged.isEmpty()) {
                        recordedBefore = without(recordedBefore, forged);
                        rows = rowsOf(batch, recordedBefore);
                    }
                    beforeHistory = t.mark(); // the dead letters just made stay if an invented order is undone next
                    continue;
                }
                java.util.Set<String> found = invented.isEmpty() ? invented(t, rows, a) : java.util.Set.of();
                if (found.isEmpty()) {
                    break;
                }
                beforeHistory.undo();
                invented = found;
                List<HistoryEntry> kept = new ArrayList<>(rows.size());
                for (HistoryEntry h : rows) {
                    if (!invented.contains(h.orderId())) {
                        kept.add(h);
                    }
                }
                rows = kept;
                for (OutboxEntry e : batch) {
                    if (e.readable() && invented.contains(e.entry().orderId()) && !recordedBefore.contains(e.streamId())) {
                        setAside(t, DeadLetterRow.UNKNOWN_ORDER, e, e.entry().orderId(), "order " + e.entry().orderId()
                                + " is in neither MySQL nor Redis, so no recorded order explains this outbox entry (orders are "
                                + "written to MySQL before Redis): kept out of the history");
                    }
                }
            }
            OutboxEntry lastEntry = batch.get(batch.size() - 1);
            last[0] = lastEntry.streamId();
            t.cursors().save(bucket, last[0], epoch, System.currentTimeMillis());
            return batch.size();
        });
        if (!"0-0".equals(last[0]) && !last[0].equals(trimmedUpTo[bucket])) {
            // After the commit only: entries up to the cursor are durable in MySQL now. Also trims what a
            // follower that died between its commit and its trim left behind.
            outbox.trim(bucket, last[0]);
            trimmedUpTo[bucket] = last[0];
        }
        TerminalRetention r = retention;
        if (r != null) {
            r.afterCommit(committed); // after the commit only: until then the hash is the newest state's one copy
        }
        return n;
    }

    /**
     * The actor check (issue 25), on servers that check accounts: every entry must name a login the database saw sign in
     * ({@code console_account}, stamped by the database), or be the cancel sweeper's one move. A well-formed entry
     * XADDed in a made-up name was applied before. The logins are read once and again only when a name is new.
     *
     * @return stream ids of the entries set aside as UNKNOWN_ACTOR dead letters
     */
    private java.util.Set<String> setAsideUnknownActors(Tables t, List<OutboxEntry> batch, java.util.Set<String> recordedBefore) {
        java.util.Set<String> ids = new java.util.HashSet<>();
        boolean reread = false;
        for (OutboxEntry oe : batch) {
            if (!oe.readable() || recordedBefore.contains(oe.streamId())) {
                continue;
            }
            HistoryEntry e = oe.entry();
            String why = null;
            if (Operator.CANCEL_SWEEPER.equals(e.actor())) {
                if (e.from() != OrderStatus.WAIT_PAY || e.to() != OrderStatus.CANCELLED) {
                    why = "it names the cancel sweeper, whose only move is WAIT_PAY → CANCELLED, for a move from "
                            + e.from() + " to " + e.to();
                }
            } else if (!knownActors.contains(e.actor())) {
                if (!reread) {
                    knownActors.addAll(t.accounts().logins());
                    reread = true;
                }
                if (!knownActors.contains(e.actor())) {
                    why = "its actor '" + e.actor() + "' never signed in to this database, so no console wrote it";
                }
            }
            if (why != null) {
                ids.add(oe.streamId());
                setAside(t, DeadLetterRow.UNKNOWN_ACTOR, oe, e.orderId(), "outbox entry not applied: " + why);
            }
        }
        return ids;
    }

    /** @return stream ids of the entries {@link SequenceCheck#outOfSequence} found, each set aside as a dead letter */
    private java.util.Set<String> setAsideOutOfSequence(Tables t, List<OutboxEntry> batch, java.util.Set<String> recordedBefore,
                                                         java.util.Set<String> only) {
        Map<OutboxEntry, String> found = sequence.outOfSequence(t, batch, recordedBefore, only);
        java.util.Set<String> ids = new java.util.HashSet<>();
        found.forEach((oe, why) -> {
            ids.add(oe.streamId());
            setAside(t, DeadLetterRow.OUT_OF_SEQUENCE, oe, oe.entry().orderId(), "outbox entry does not follow MySQL's history: " + why
                    + "; transition.lua never writes such an entry, so it was not applied");
        });
        return ids;
    }

    private static java.util.Set<String> without(java.util.Set<String> recordedBefore, java.util.Set<String> forged) {
        java.util.Set<String> skip = new java.util.HashSet<>(recordedBefore);
        skip.addAll(forged); // entries not to be applied, like those recorded before
        return skip;
    }

    private static List<HistoryEntry> rowsOf(List<OutboxEntry> batch, java.util.Set<String> skip) {
        List<HistoryEntry> kept = new ArrayList<>(batch.size());
        for (OutboxEntry e : batch) {
            if (e.readable() && !skip.contains(e.streamId())) {
                kept.add(e.entry());
            }
        }
        return kept;
    }

    /** What {@link #apply} did: distinct orders it moved under the version guard, and rows the guard changed. */
    private record Applied(java.util.Set<String> moved, int changed) {
    }

    /**
     * The apply part of one batch: history rows, the conflict check, the guarded UPDATE. Entries of
     * {@code invented} orders are left out (set aside by the caller); {@code committed} is filled anew.
     */
    private Applied apply(Tables t, List<OutboxEntry> batch, List<HistoryEntry> rows, java.util.Set<String> recordedBefore,
                          java.util.Set<String> invented, List<HistoryEntry> committed, boolean sequenced) {
        committed.clear();
        int inserted = t.history().append(rows);
        // Every row went in: no other row holds any of these versions, so nothing to compare with.
        Map<String, HistoryEntry> recorded = inserted == rows.size() ? Map.of() : t.history().appliedAt(rows);
        // Several entries of one order in a batch collapse into one UPDATE to its newest version (the
        // version guard makes the result the same as applying them one by one, in any order).
        Map<String, HistoryEntry> newest = new java.util.LinkedHashMap<>();
        for (OutboxEntry oe : batch) {
            HistoryEntry e = oe.entry();
            if (e == null || e.code() != ResultCode.APPLIED || recordedBefore.contains(oe.streamId()) || invented.contains(e.orderId())) {
                continue;
            }
            HistoryEntry there = recorded.get(HistoryStore.versionKey(e.orderId(), e.version()));
            if (there != null && !there.eventKey().equals(e.eventKey()) && there.to() != e.to()) {
                // MySQL's history says this version is another status: the durable record wins; Redis
                // acted on a stale copy (e.g. restored from an old snapshot). Set aside for a person.
                setAside(t, DeadLetterRow.HISTORY_CONFLICT, oe, e.orderId(), "version " + e.version() + " of order "
                        + e.orderId() + " is " + there.to() + " in MySQL's history but " + e.to() + " in the outbox");
                continue;
            }
            newest.merge(e.orderId(), e, (a, b) -> b.version() > a.version() ? b : a);
            committed.add(e);
        }
        List<OrderStore.Apply> applies = new ArrayList<>(newest.size());
        for (HistoryEntry e : newest.values()) {
            applies.add(new OrderStore.Apply(e.orderId(), e.to().code(), e.version(), e.atMs()));
        }
        if (!sequenced) {
            return new Applied(newest.keySet(), t.orders().applyAllIfNewer(applies));
        }
        // Each order's first applied entry of the batch: the state MySQL must hold for the order to move.
        Map<String, HistoryEntry> first = new java.util.HashMap<>(newest.size() * 2);
        for (HistoryEntry e : committed) {
            first.merge(e.orderId(), e, (a, b) -> b.version() < a.version() ? b : a);
        }
        long[] fromVersion = new long[applies.size()];
        int[] fromStatus = new int[applies.size()];
        for (int i = 0; i < applies.size(); i++) {
            HistoryEntry f = first.get(applies.get(i).orderId());
            fromVersion[i] = f.version() - 1;
            fromStatus[i] = f.from() == null ? 0 : f.from().code();
        }
        return new Applied(newest.keySet(), t.orders().applyAllInSequence(applies, fromVersion, fromStatus));
    }

    /**
     * Which orders of a batch neither MySQL nor Redis has. Orders are created in MySQL first, so an order
     * MySQL lacks but Redis has is one a MySQL restored from an older backup lost: real, kept (and said).
     *
     * <p>Asked lazily, not for every batch: only when the guarded UPDATE changed fewer rows than it moved
     * orders (an order missing, or an entry MySQL already has: a replay, a row moved on by a repair), then
     * about every order of the batch; and about the orders with only refused attempts in the batch, which no
     * UPDATE can vouch for. Why not one JSON_TABLE anti-join per batch, always: measured on the embedded MariaDB
     * of the 2-core test host, it costs 7.5-15 ms for a batch of 2,000 orders, against 150-240 ms for draining that
     * batch on one thread there (4-7 %), and would be 10-20 % of the ~71 ms a batch takes at issue 15's ~28,000
     * entries/s. Asked lazily, a batch with nothing missing pays the SAVEPOINT alone: 0.15-0.45 ms (0.1-0.3 %).
     */
    private java.util.Set<String> invented(Tables t, List<HistoryEntry> rows, Applied a) {
        java.util.Set<String> ask = new java.util.LinkedHashSet<>();
        boolean allMoved = a.changed() >= a.moved().size();
        for (HistoryEntry h : rows) {
            if (!allMoved || !a.moved().contains(h.orderId())) {
                ask.add(h.orderId());
            }
        }
        if (ask.isEmpty()) {
            return java.util.Set.of();
        }
        List<String> missing = t.orders().missing(new ArrayList<>(ask));
        if (missing.isEmpty()) {
            return java.util.Set.of();
        }
        java.util.Set<String> inRedis = states.present(missing);
        java.util.Set<String> out = new java.util.LinkedHashSet<>(missing);
        out.removeAll(inRedis);
        if (!inRedis.isEmpty()) {
            long held = redisOnlyLog.occurrence("redis-only");
            if (held >= 0) {
                boolean one = inRedis.size() == 1;
                log.warn("MySQL lacks {} order{} Redis has ({}{}), as after MySQL was restored from an older backup: {} "
                                + "transitions are kept in MySQL's history; reconciliation lists such orders under \"Missing in MySQL\", "
                                + "where an admin copies them into MySQL{}", inRedis.size(), one ? "" : "s", one ? "" : "e.g. ",
                        inRedis.iterator().next(), one ? "its" : "their", redisOnlyLog.more(held));
            }
        }
        return out;
    }

    /**
     * @return stream ids of the readable entries recorded under data set {@code before} with the same content (order,
     *     statuses, version, outcome, time, actor, source, reason): an entry with only its stream id in common is new
     */
    private static java.util.Set<String> recordedBefore(Tables t, int bucket, String before, List<OutboxEntry> batch) {
        Map<String, OutboxEntry> byOldKey = new java.util.HashMap<>();
        for (OutboxEntry e : batch) {
            if (e.readable()) {
                byOldKey.put(OutboxStore.eventKey(bucket, before, e.streamId()), e);
            }
        }
        java.util.Set<String> out = new java.util.HashSet<>();
        t.history().byEventKeys(new ArrayList<>(byOldKey.keySet())).forEach((key, h) -> {
            HistoryEntry e = byOldKey.get(key).entry();
            if (e.orderId().equals(h.orderId()) && e.from() == h.from() && e.to() == h.to() && e.version() == h.version()
                    && e.code() == h.code() && e.atMs() == h.atMs() && e.actor().equals(h.actor()) && e.source().equals(h.source())
                    && e.reason().equals(h.reason())) {
                out.add(byOldKey.get(key).streamId());
            }
        });
        if (!out.isEmpty()) {
            log.info("bucket {}: {} outbox entries read again after a data-set restore were recorded before; not recorded twice",
                    bucket, out.size());
        }
        return out;
    }

    private static void setAside(Tables t, String kind, OutboxEntry e, String orderId, String reason) {
        DeadLetterRow d = DeadLetterRow.open(kind, orderId, e.bucket(), e.streamId(), reason, e.body(),
                System.currentTimeMillis(), "outbox:b" + e.bucket() + "/" + e.streamId());
        if (t.deadLetters().add(d)) {
            log.warn("set aside outbox entry {} of bucket {} ({}): {}", e.streamId(), e.bucket(),
                    orderId == null ? "no order id could be read" : "order " + orderId, reason);
        }
    }

    private static String orderIdOf(String body) {
        // Any outbox form: "o=<id> …" (before issue 15), "k=<id>,<from>,… …" (compact), "e=<id>,<from>,…" (one field).
        for (String part : body.split("[ \n]")) {
            if (part.startsWith("o=") || part.startsWith("k=") || part.startsWith("e=")) {
                String id = part.substring(2);
                int comma = part.startsWith("o=") ? -1 : id.indexOf(',');
                if (!part.startsWith("o=") && comma < 0) {
                    return null; // not an outcome line ("e=not an outcome at all" named an order "not")
                }
                id = comma >= 0 ? id.substring(0, comma) : id;
                return com.orderconsole.domain.OrderId.isValid(id) ? id : null;
            }
        }
        return null;
    }

    /**
     * Reads (changes nothing) the outbox entries of one bucket that MySQL does not have yet: for each
     * order, the highest version an applied entry will bring it to.
     *
     * @param cap read at most this many entries
     * @return order id to version, or null when more than {@code cap} entries are pending
     */
    public Map<String, Long> pendingVersions(int bucket, int cap) {
        String epoch = rules.epoch();
        if (epoch == null) {
            return null;
        }
        CursorStore.Cursor c = db.read(t -> t.cursors().read(bucket));
        String after = c.epoch() == null ? c.lastId() : c.after(epoch);
        List<OutboxEntry> pending = outbox.read(bucket, after, cap + 1, epoch);
        if (pending.size() > cap) {
            return null;
        }
        Map<String, Long> out = new java.util.HashMap<>();
        for (OutboxEntry e : pending) {
            if (e.readable() && e.entry().code() == ResultCode.APPLIED) {
                out.merge(e.entry().orderId(), e.entry().version(), Math::max);
            }
        }
        return out;
    }

    /**
     * Reads (changes nothing) what the outbox still holds for one order: accepted by Redis, not yet in
     * MySQL (the story of an order shows these as "sync pending").
     *
     * @param cap read at most this many entries of the order's bucket
     * @return the order's pending entries, oldest first; empty when none or when more than {@code cap} are pending
     */
    public List<HistoryEntry> pendingFor(String orderId, int cap) {
        String epoch = rules.epoch();
        if (epoch == null) {
            return List.of();
        }
        int bucket = RedisKeys.bucket(orderId);
        CursorStore.Cursor c = db.read(t -> t.cursors().read(bucket));
        String after = c.epoch() == null ? c.lastId() : c.after(epoch);
        List<OutboxEntry> pending = outbox.read(bucket, after, cap + 1, epoch);
        if (pending.size() > cap) {
            return List.of();
        }
        return pending.stream().filter(e -> e.readable() && e.entry().orderId().equals(orderId)).map(OutboxEntry::entry).toList();
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
            HistoryEntry probe = new HistoryEntry(orderId, null, status, version, ResultCode.APPLIED, "", "", "", 0, "");
            HistoryEntry h = t.history().appliedAt(List.of(probe)).get(HistoryStore.versionKey(orderId, version));
            if (h == null || h.to() != status) {
                return false;
            }
            // Through the same statement a person's session calls as a procedure: the row takes what its history says.
            t.orders().followHistory(h);
            return true;
        });
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
                    com.orderconsole.store.ConsoleRoles.FOLLOWER);
            return;
        }
        loop.start(idle);
    }

    /**
     * Counts every bucket's outbox while the follower cannot apply it (MySQL down): the counts go on, and readers, who
     * add up what is not counted yet, have little to add (transition.lua counts no move, issue 15.3).
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
                    + com.orderconsole.store.ConsoleRoles.FOLLOWER + "?"));
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
     * The follower's fence, asked by the cancel sweeper before it acts on a bucket (issue 25): is the outbox entry
     * MySQL applied last for this bucket still in Redis? When it is not, Redis went back in time (restored from an
     * older copy) and its WAIT_PAY states may be orders MySQL has as paid; the data set is fenced at once, as the
     * follower would on its next batch, and maintenance restores it from MySQL. A follower elsewhere that applies and
     * trims between the cursor read and the look in Redis moves the cursor: the look is made again with the new one.
     *
     * @param bucket a bucket
     * @param epoch the data-set marker the caller read
     * @return true when the bucket may be acted on; false when Redis is behind MySQL (now fenced)
     * @throws com.orderconsole.store.DatabaseUnavailableException when MySQL does not answer (then nothing can tell)
     */
    public boolean fenceHolds(int bucket, String epoch) {
        String seen = null;
        for (int attempt = 0; attempt < 3; attempt++) {
            CursorStore.Cursor c = db.read(t -> t.cursors().read(bucket));
            String after = c.epoch() == null ? c.lastId() : c.after(epoch);
            if (c.epoch() == null || !after.equals(c.lastId()) || "0-0".equals(after) || outbox.holds(bucket, after)) {
                return true;
            }
            if (after.equals(seen)) {
                break; // the same cursor twice, its entry gone both times: not a trim that raced this look
            }
            seen = after;
        }
        String why = "Redis outbox of bucket " + bucket + " no longer holds entry " + seen
                + ", the last one MySQL applied: Redis went back in time; maintenance restores it from MySQL (found by the cancel sweeper)";
        rules.forgetEpoch(epoch, why);
        log.warn("{}", why);
        return false;
    }

    /**
     * @return true when Redis has no data-set marker (it lost its data or went back in time): the follower and the
     *     sweeper wait until an ops or admin process (console or serve) restores the data set from MySQL
     */
    public boolean waitingForRestore() {
        return rules.epoch() == null;
    }

    /**
     * @return how far MySQL lags; a few constant-time reads per bucket (XLEN, and XRANGE of one or two
     *     entries), whatever the backlog, after one MySQL read per bucket ({@link #appliedPositions})
     */
    public FollowerStatus status() {
        return status(appliedPositions());
    }

    /**
     * The MySQL half of {@link #status()}: how far MySQL has applied each bucket's outbox (its sync cursor). Blocks
     * while MySQL does not answer (up to the socket timeout), so a caller that must answer at once (the metrics
     * sampler) reads it on a thread of its own.
     *
     * @return every bucket's applied position, as MySQL holds it now
     */
    public AppliedPositions appliedPositions() {
        List<CursorStore.Cursor> cursors = new ArrayList<>(RedisKeys.buckets());
        for (int b = 0; b < RedisKeys.buckets(); b++) {
            int bucket = b;
            cursors.add(db.read(t -> t.cursors().read(bucket)));
        }
        return new AppliedPositions(cursors);
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
        long pending = 0;
        boolean approximate = false;
        Long oldest = null;
        long now = clock.nowMs();
        String epoch = rules.epoch();
        for (int b = 0; b < RedisKeys.buckets() && b < positions.cursors().size(); b++) {
            CursorStore.Cursor c = positions.cursors().get(b);
            String cursor = epoch == null || c.epoch() == null ? c.lastId() : c.after(epoch);
            Long first = outbox.oldestAfterMs(b, cursor);
            if (first == null) {
                continue;
            }
            // Entries up to the cursor are applied; normally only the cursor entry itself is left of them.
            int done = "0-0".equals(cursor) ? 0 : outbox.countUpTo(b, cursor, 1001);
            approximate |= done > 1000;
            pending += Math.max(1, outbox.length(b) - done);
            long age = now - first;
            oldest = oldest == null ? age : Math.max(oldest, age);
        }
        return new FollowerStatus(pending, approximate, oldest, applied.get(), lastError, FollowerSettings.backlogWarning(pending, approximate, oldest));
    }

    @Override
    public void close() {
        synchronized (this) {
            closed = true;
            if (pool != null) {
                pool.shutdown();
            }
        }
        loop.close();
    }
}
