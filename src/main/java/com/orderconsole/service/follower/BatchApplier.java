package com.orderconsole.service.follower;

import com.orderconsole.domain.HistoryEntry;
import com.orderconsole.domain.ResultCode;
import com.orderconsole.redis.DataSetStore;
import com.orderconsole.redis.OrderStateStore;
import com.orderconsole.redis.OutboxEntry;
import com.orderconsole.redis.OutboxStore;
import com.orderconsole.redis.RedisKeys;
import com.orderconsole.store.CursorStore;
import com.orderconsole.store.Database;
import com.orderconsole.store.DeadLetterRow;
import com.orderconsole.store.HistoryStore;
import com.orderconsole.store.OrderStore;
import com.orderconsole.store.Tables;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Applying one batch of one bucket's outbox to MySQL, in one transaction: the history rows, the checks that keep an
 * entry no transition script wrote out of them (unreadable, unknown actor, out of sequence, invented order, history
 * conflict: each set aside as a dead letter), the guarded UPDATE of the orders, the cursor, and the trim after the
 * commit. {@link OutboxDrain} schedules the batches and holds each bucket's lock while one runs.
 */
final class BatchApplier {
    /** The follower's log lines keep the follower's name, whichever part of it writes them. */
    private static final Logger log = LoggerFactory.getLogger(Follower.class);

    private final OutboxStore outbox;
    private final DataSetStore dataSet;
    /** Orders of a batch neither MySQL nor Redis has. */
    private final InventedOrders inventedOrders;
    private final Database db;
    /** Every entry must follow MySQL's history (issue 25). */
    private final SequenceCheck sequence;
    private volatile boolean sequenceCheck = true;
    /** Lets terminal orders leave Redis after MySQL has them (issue 16); null: they stay. */
    private final TerminalRetention retention;
    /** Per bucket, the stream id this process last trimmed up to; guarded by that bucket's lock (held by the caller). */
    private final String[] trimmedUpTo = new String[RedisKeys.buckets()];
    /**
     * What one batch came to: entries read (the caller reads again while a batch was full) and entries recorded in MySQL's
     * history now (applied moves and refused attempts; not those set aside, nor those recorded before a restore).
     */
    record Counts(int read, int applied) {
    }

    /** Sets aside entries in a made-up name or a revoked client's (servers that check accounts). */
    private final ActorCheck actors = new ActorCheck();
    /** Sets aside entries dated far from Redis' clock. */
    private final EntryClock clock = new EntryClock();

    /** Brings an order whose entry was set aside back to one state in Redis and MySQL. */
    private final SetAsideConvergence convergence;

    BatchApplier(OutboxStore outbox, DataSetStore dataSet, OrderStateStore states, Database db, SequenceCheck sequence,
                 TerminalRetention retention, SetAsideConvergence convergence) {
        this.convergence = convergence;
        this.outbox = outbox;
        this.dataSet = dataSet;
        this.inventedOrders = new InventedOrders(states);
        this.db = db;
        this.sequence = sequence;
        this.retention = retention;
    }

    /** The benchmark's what-if only (BenchFollowers): the sequence check off, to measure what it costs. */
    void sequenceCheck(boolean on) {
        this.sequenceCheck = on;
    }

    /** @return where this process last trimmed the bucket's outbox to (MySQL applied it), or null; the caller holds its lock */
    String trimmedUpTo(int bucket) {
        return trimmedUpTo[bucket];
    }

    /**
     * One MySQL transaction: lock the cursor, read entries after it in the current Redis data set, write their history
     * rows (set aside what cannot be read or contradicts MySQL's history), move order rows forward under the version
     * guard and move the cursor. Trims only after the commit. The caller holds the bucket's lock.
     *
     * @param before the data set the bucket's cursor belonged to before a restore (null outside one)
     * @param size entries to read at most
     * @return entries read (0: the bucket is drained) and entries recorded in the history
     * @throws IllegalStateException when Redis went back in time (the data set is fenced now)
     */
    Counts applyOne(int bucket, String epoch, String before, int size) {
        return drainBatchOnce(bucket, epoch, before, size);
    }

    private Counts drainBatchOnce(int bucket, String epoch, String before, int size) {
        Batch b = new Batch(bucket, epoch);
        // Plain transaction, few statements: the cursor lock, a SAVEPOINT, one multi-row history INSERT, the conflict
        // check only when a row was ignored, one multi-row guarded UPDATE of the orders, the order check only when the
        // batch suggests a missing order, the cursor.
        int n = db.inTransaction(t -> {
            b.t = t;
            CursorStore.Cursor cursor = t.cursors().lock(bucket);
            String after = cursor.epoch() == null ? cursor.lastId() : cursor.after(epoch);
            b.entries = readBatch(b, before, cursor, after, size);
            if (b.entries.isEmpty()) {
                clock.read(b, after, size);
                b.last = after;
                return 0;
            }
            judgeEntries(b, before);
            clock.read(b, after, size); // after the judging: this batch is judged by the reads before it
            applyGuarded(b);
            acknowledge(b, after);
            return b.entries.size();
        });
        trimApplied(bucket, b.last);
        convergence.afterCommit(bucket, b.asideByOrder);
        TerminalRetention r = retention;
        if (r != null) {
            r.afterCommit(b.committed); // after the commit only: until then the hash is the newest state's one copy
        }
        return new Counts(n, b.recorded);
    }

    /**
     * Reading the batch: the entries after the cursor in the current data set, or none (drained). Refuses, and forgets
     * the data set's marker so that maintenance restores Redis from MySQL, when Redis went back in time.
     */
    private List<OutboxEntry> readBatch(Batch b, String before, CursorStore.Cursor cursor, String after, int size) {
        String epoch = b.epoch;
        boolean fenced = cursor.epoch() != null && after.equals(cursor.lastId()) && !"0-0".equals(after);
        // Issue 33.5: the same old copy restored a second time carries the marker of a data set MySQL already
        // left behind (the first restore set a new one): its stream would be read from its start as if new.
        String older = before == null ? OutboxBacklog.olderDataSet(b.t, b.bucket, cursor, epoch) : null;
        if (older != null) {
            throw forgetDataSet(epoch, older);
        }
        OutboxStore.ClockedRead read = outbox.readClocked(b.bucket, after, size, epoch, fenced);
        List<OutboxEntry> batch = read.entries();
        b.redisNowMs = read.redisNowMs();
        if (batch == null) {
            // The fence: the outbox always keeps the entry MySQL applied last (the trim deletes only entries
            // before it). Without it, this Redis was restored from a copy older than what MySQL has: its order
            // states are stale and the entries after the copy are gone. It becomes a new data set, restored
            // from MySQL by maintenance.
            throw forgetDataSet(epoch, OutboxBacklog.wentBack(b.bucket, after));
        }
        return batch;
    }

    /** Fences the data set and forgets its marker, so that maintenance restores Redis from MySQL. @return what ends the batch */
    private IllegalStateException forgetDataSet(String epoch, String why) {
        // Logged here, once per data set (the marker is gone now): the follower's loop logs one failure
        // per 30 s, and the cluster soak saw a CLUSTERDOWN logged 2 s before hide why a restore ran.
        dataSet.forgetEpoch(epoch, why);
        log.warn("{}", why);
        return new IllegalStateException(why);
    }

    /**
     * Judging each entry before anything is written: what was recorded before a restore is skipped; what cannot be
     * read, is dated far from Redis' clock, names an actor no console had, or does not follow the order's history is set
     * aside as a dead letter.
     */
    private void judgeEntries(Batch b, String before) {
        // A restore reads the stream from its start under the new marker: what was recorded under the data set
        // before (the last applied entry a trim keeps, an older copy's backlog) is the same event, not a new one.
        b.skip = before == null || before.equals(b.epoch) ? Set.of() : recordedBefore(b.t, b.bucket, before, b.entries);
        b.rows = new ArrayList<>(b.entries.size());
        for (OutboxEntry e : b.entries) {
            if (b.skip.contains(e.streamId())) {
                continue;
            }
            if (e.readable()) {
                b.rows.add(e.entry());
            } else {
                b.setAside(DeadLetterRow.OUTBOX_ENTRY, e, Batch.orderIdOf(e.body()), "outbox entry cannot be read: " + e.problem());
            }
        }
        // Times first: an entry dated far from Redis' clock is set aside for that, whatever else it claims.
        b.skipAlso(clock.setAsideOffClock(b));
        if (db.writesStamped()) {
            b.skipAlso(actors.setAsideUnknown(b));
        }
        // The sequence check (issue 25), cheap on the common path: the batch's own entries are checked against each
        // other here (no statement), each order's first move against MySQL by the guarded UPDATE itself
        // (applyAllInSequence). Only when that fails, or for orders the UPDATE cannot vouch for (refused attempts
        // only), MySQL is read and each entry judged (outOfSequence).
        b.sequenced = false;
        if (sequenceCheck) {
            Set<String> unvouched = new HashSet<>();
            b.sequenced = sequence.chainHolds(b.entries, b.skip, unvouched);
            b.skipAlso(b.sequenced ? (unvouched.isEmpty() ? Set.of() : setAsideOutOfSequence(b, unvouched))
                    : setAsideOutOfSequence(b, null));
        }
    }

    /**
     * Applying in one transaction: the history rows and the guarded UPDATE of the orders, undone to a savepoint and made
     * again when MySQL's state shows an entry out of sequence, or an order neither MySQL nor Redis has (its entries set
     * aside as dead letters).
     */
    private void applyGuarded(Batch b) {
        // The history rows of an invented order (one neither MySQL nor Redis has) must not be written, and the
        // table allows no DELETE: when the check below finds one, the batch's writes from here are undone and
        // made again without its entries. Costs one SAVEPOINT statement per batch when nothing is found.
        Tables.Mark beforeHistory = b.t.mark();
        Set<String> invented = Set.of();
        while (true) {
            Applied a = apply(b, invented);
            if (b.sequenced && a.changed() < a.moved().size()) {
                // An order's first move did not start from MySQL's state (a forged entry, a replay, an order MySQL
                // lacks): undone, judged entry by entry against MySQL, and applied again under the version guard.
                beforeHistory.undo();
                b.sequenced = false;
                b.skipAlso(setAsideOutOfSequence(b, null));
                beforeHistory = b.t.mark(); // the dead letters just made stay if an invented order is undone next
                continue;
            }
            Set<String> found = invented.isEmpty() ? inventedOrders.find(b.t, b.rows, a.moved(), a.changed()) : Set.of();
            if (found.isEmpty()) {
                return;
            }
            beforeHistory.undo();
            invented = found;
            InventedOrders.setAside(b, invented);
        }
    }

    /** Acknowledging the batch: the cursor moves past it, and what it applied is counted. */
    private void acknowledge(Batch b, String after) {
        OutboxEntry lastEntry = b.entries.get(b.entries.size() - 1);
        b.last = lastEntry.streamId();
        b.t.cursors().save(b.bucket, b.last, b.epoch, System.currentTimeMillis());
        // transition.lua counts no move (issue 15.3): the batch is counted here, from the entries as read, less those
        // set aside, which moved nothing MySQL records (issue 33: a forged entry moved the live counters). Counted
        // once: a batch read again starts where the counting no longer stands.
        List<OutboxEntry> counted = new ArrayList<>(b.entries.size());
        for (OutboxEntry e : b.entries) {
            if (!b.aside.contains(e.streamId())) {
                counted.add(e);
                if (e.readable() && !b.skip.contains(e.streamId())) {
                    b.recorded++;
                }
            }
        }
        outbox.count(b.bucket, after, b.last, counted);
    }

    /**
     * After the commit only: entries up to the cursor are durable in MySQL now. Also trims what a follower that died
     * between its commit and its trim left behind.
     */
    private void trimApplied(int bucket, String last) {
        if (!"0-0".equals(last) && !last.equals(trimmedUpTo[bucket])) {
            outbox.trim(bucket, last);
            trimmedUpTo[bucket] = last;
        }
    }

    /** @return stream ids of the entries {@link SequenceCheck#outOfSequence} found, each set aside as a dead letter */
    private Set<String> setAsideOutOfSequence(Batch b, Set<String> only) {
        Map<OutboxEntry, String> found = sequence.outOfSequence(b.t, b.entries, b.skip, only);
        Set<String> ids = new HashSet<>();
        found.forEach((oe, why) -> {
            ids.add(oe.streamId());
            b.setAside(DeadLetterRow.OUT_OF_SEQUENCE, oe, oe.entry().orderId(), "outbox entry does not follow MySQL's history: " + why
                    + "; transition.lua never writes such an entry, so it was not applied");
        });
        return ids;
    }

    /** What {@link #apply} did: distinct orders it moved under the version guard, and rows the guard changed. */
    private record Applied(Set<String> moved, int changed) {
    }

    /**
     * The apply part of one batch: history rows, the conflict check, the guarded UPDATE. Entries of
     * {@code invented} orders are left out (set aside by the caller); {@code committed} is filled anew.
     */
    private Applied apply(Batch b, Set<String> invented) {
        Tables t = b.t;
        List<HistoryEntry> rows = b.rows;
        List<HistoryEntry> committed = b.committed;
        committed.clear();
        int inserted = t.history().append(rows);
        // Every row went in: no other row holds any of these versions, so nothing to compare with.
        Map<String, HistoryEntry> recorded = inserted == rows.size() ? Map.of() : t.history().appliedAt(rows);
        // Several entries of one order in a batch collapse into one UPDATE to its newest version (the
        // version guard makes the result the same as applying them one by one, in any order).
        Map<String, HistoryEntry> newest = new LinkedHashMap<>();
        for (OutboxEntry oe : b.entries) {
            HistoryEntry e = oe.entry();
            if (e == null || e.code() != ResultCode.APPLIED || b.skip.contains(oe.streamId()) || invented.contains(e.orderId())) {
                continue;
            }
            HistoryEntry there = recorded.get(HistoryStore.versionKey(e.orderId(), e.version()));
            if (there != null && !there.eventKey().equals(e.eventKey()) && there.to() != e.to()) {
                // MySQL's history says this version is another status: the durable record wins; Redis
                // acted on a stale copy (e.g. restored from an old snapshot). Set aside for a person.
                b.setAside(DeadLetterRow.HISTORY_CONFLICT, oe, e.orderId(), "version " + e.version() + " of order "
                        + e.orderId() + " is " + there.to() + " in MySQL's history but " + e.to() + " in the outbox");
                continue;
            }
            newest.merge(e.orderId(), e, (x, y) -> y.version() > x.version() ? y : x);
            committed.add(e);
        }
        List<OrderStore.Apply> applies = new ArrayList<>(newest.size());
        for (HistoryEntry e : newest.values()) {
            applies.add(new OrderStore.Apply(e.orderId(), e.to().code(), e.version(), e.atMs()));
        }
        if (!b.sequenced) {
            return new Applied(newest.keySet(), t.orders().applyAllIfNewer(applies));
        }
        // Each order's first applied entry of the batch: the state MySQL must hold for the order to move.
        Map<String, HistoryEntry> first = new HashMap<>(newest.size() * 2);
        for (HistoryEntry e : committed) {
            first.merge(e.orderId(), e, (x, y) -> y.version() < x.version() ? y : x);
        }
        long[] fromVersion = new long[applies.size()];
        int[] fromStatus = new int[applies.size()];
        long[] createdBy = new long[applies.size()];
        for (int i = 0; i < applies.size(); i++) {
            HistoryEntry f = first.get(applies.get(i).orderId());
            fromVersion[i] = f.version() - 1;
            fromStatus[i] = f.from() == null ? 0 : f.from().code();
            createdBy[i] = f.atMs() + SequenceCheck.CREATION_SLACK_MS; // a move is not dated before its order was created
        }
        return new Applied(newest.keySet(), t.orders().applyAllInSequence(applies, fromVersion, fromStatus, createdBy));
    }

    /**
     * @return stream ids of the readable entries recorded under data set {@code before} with the same content (order,
     *     statuses, version, outcome, time, actor, source, reason): an entry with only its stream id in common is new
     */
    private static Set<String> recordedBefore(Tables t, int bucket, String before, List<OutboxEntry> batch) {
        Map<String, OutboxEntry> byOldKey = new HashMap<>();
        for (OutboxEntry e : batch) {
            if (e.readable()) {
                byOldKey.put(OutboxStore.eventKey(bucket, before, e.streamId()), e);
            }
        }
        Set<String> out = new HashSet<>();
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
}
