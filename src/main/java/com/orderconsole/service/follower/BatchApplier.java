package com.orderconsole.service.follower;

import com.orderconsole.domain.HistoryEntry;
import com.orderconsole.domain.Operator;
import com.orderconsole.domain.OrderId;
import com.orderconsole.domain.OrderStatus;
import com.orderconsole.domain.ResultCode;
import com.orderconsole.redis.DataSetStore;
import com.orderconsole.redis.OrderStateStore;
import com.orderconsole.redis.OutboxEntry;
import com.orderconsole.redis.OutboxStore;
import com.orderconsole.redis.RedisKeys;
import com.orderconsole.service.LogLimiter;
import com.orderconsole.store.CursorStore;
import com.orderconsole.store.Database;
import com.orderconsole.store.DeadLetterRow;
import com.orderconsole.store.HistoryStore;
import com.orderconsole.store.OrderStore;
import com.orderconsole.store.Tables;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Applying one batch of one bucket's outbox to MySQL, in one transaction: the history rows, the checks that keep an
 * entry no transition script wrote out of them (unreadable, unknown actor, out of sequence, invented order, history
 * conflict: each set aside as a dead letter), the guarded UPDATE of the orders, the cursor, and the trim after the
 * commit. Split from {@link Follower} (issue 28), which schedules the batches, keeps one thread per bucket and answers
 * what is pending.
 */
final class BatchApplier {
    /** The follower's log lines keep the follower's name, whichever part of it writes them. */
    private static final Logger log = LoggerFactory.getLogger(Follower.class);

    private final OutboxStore outbox;
    private final DataSetStore dataSet;
    /** Asked only about orders MySQL lacks: whether Redis has them (real) or not (invented). */
    private final OrderStateStore states;
    private final Database db;
    /** Every entry must follow MySQL's history (issue 25). */
    private final SequenceCheck sequence;
    private volatile boolean sequenceCheck = true;
    /** Lets terminal orders leave Redis after MySQL has them (issue 16); null: they stay. */
    private final TerminalRetention retention;
    /** Per bucket, the stream id this process last trimmed up to; guarded by that bucket's lock (held by the caller). */
    private final String[] trimmedUpTo = new String[RedisKeys.buckets()];
    /** One line an hour that MySQL lacks orders Redis has: after a MySQL restore every batch would say it. */
    private final LogLimiter redisOnlyLog = new LogLimiter(3_600_000);
    /**
     * How long after an API client's revocation an entry in its name may still be dated: every serve refuses its token
     * within ApiClients.REVOCATION_BOUND (5 s), plus 5 s for the clocks of Redis and of the revoking process.
     */
    static final long AFTER_REVOCATION_MS = 10_000;

    /** Logins seen in console_account: only added to (a login is never removed). */
    private final Set<String> knownActors = ConcurrentHashMap.newKeySet();

    /**
     * What one batch came to: entries read (the caller reads again while a batch was full) and entries recorded in MySQL's
     * history now (applied moves and refused attempts; not those set aside, nor those recorded before a restore).
     */
    record Counts(int read, int applied) {
    }

    /** Brings an order whose entry was set aside back to one state in Redis and MySQL. */
    private final SetAsideConvergence convergence;

    BatchApplier(OutboxStore outbox, DataSetStore dataSet, OrderStateStore states, Database db, SequenceCheck sequence,
                 TerminalRetention retention, SetAsideConvergence convergence) {
        this.convergence = convergence;
        this.outbox = outbox;
        this.dataSet = dataSet;
        this.states = states;
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
                b.last = after;
                return 0;
            }
            judgeEntries(b, before);
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
     * One batch of one bucket as its transaction goes: the entries read, those set aside, those not to be applied, the
     * history rows still to write. Filled step by step by {@link #drainBatchOnce}'s steps.
     */
    private static final class Batch {
        final int bucket;
        final String epoch;
        Tables t;
        List<OutboxEntry> entries;
        /** Stream ids of the entries set aside: they move no counter (issue 33). */
        final Set<String> aside = new HashSet<>();
        /** Per order, the stream ids set aside for it, in the order they were set aside. */
        final Map<String, List<String>> asideByOrder = new LinkedHashMap<>();
        /** Stream ids of the entries not to be applied: recorded before a restore, or set aside by a check. */
        Set<String> skip = Set.of();
        /** The history rows to write: the readable entries not skipped (less those of invented orders, at the end). */
        List<HistoryEntry> rows;
        /** true: the batch's own chain holds, and each order's first move is checked by the guarded UPDATE itself. */
        boolean sequenced;
        /** The applied entries MySQL has once the transaction commits (for terminal retention). */
        final List<HistoryEntry> committed = new ArrayList<>();
        /** The stream id the cursor stands at after this batch. */
        String last;
        /** Entries recorded in the history now. */
        int recorded;

        Batch(int bucket, String epoch) {
            this.bucket = bucket;
            this.epoch = epoch;
        }

        /** The entries {@code ids} are not applied either: the rows to write are made again without them. */
        void skipAlso(Set<String> ids) {
            if (!ids.isEmpty()) {
                skip = without(skip, ids);
                rows = rowsOf(entries, skip);
            }
        }
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
        List<OutboxEntry> batch = fenced ? outbox.readFenced(b.bucket, after, size, epoch) : outbox.read(b.bucket, after, size, epoch);
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
     * read, names an actor no console had, or does not follow the order's history is set aside as a dead letter.
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
                setAside(b, DeadLetterRow.OUTBOX_ENTRY, e, orderIdOf(e.body()), "outbox entry cannot be read: " + e.problem());
            }
        }
        if (db.writesStamped()) {
            b.skipAlso(setAsideUnknownActors(b));
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
            Set<String> found = invented.isEmpty() ? invented(b.t, b.rows, a) : Set.of();
            if (found.isEmpty()) {
                return;
            }
            beforeHistory.undo();
            invented = found;
            setAsideInvented(b, invented);
        }
    }

    private static void setAsideInvented(Batch b, Set<String> invented) {
        List<HistoryEntry> kept = new ArrayList<>(b.rows.size());
        for (HistoryEntry h : b.rows) {
            if (!invented.contains(h.orderId())) {
                kept.add(h);
            }
        }
        b.rows = kept;
        for (OutboxEntry e : b.entries) {
            if (e.readable() && invented.contains(e.entry().orderId()) && !b.skip.contains(e.streamId())) {
                setAside(b, DeadLetterRow.UNKNOWN_ORDER, e, e.entry().orderId(), "order " + e.entry().orderId()
                        + " is in neither MySQL nor Redis, so no recorded order explains this outbox entry (orders are "
                        + "written to MySQL before Redis): kept out of the history");
            }
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

    /**
     * The actor check (issue 25), on servers that check accounts: every entry must name a login the database saw sign in
     * ({@code console_account}, stamped by the database), or be the cancel sweeper's one move. A well-formed entry
     * XADDed in a made-up name was applied before. The logins are read once and again only when a name is new.
     *
     * @return stream ids of the entries set aside as UNKNOWN_ACTOR dead letters
     */
    private Set<String> setAsideUnknownActors(Batch b) {
        Set<String> ids = new HashSet<>();
        boolean reread = false;
        Map<String, Long> revoked = null; // read once, only for a batch with an API client's entry
        for (OutboxEntry oe : b.entries) {
            if (!oe.readable() || b.skip.contains(oe.streamId())) {
                continue;
            }
            HistoryEntry e = oe.entry();
            String why = null;
            if (Operator.CANCEL_SWEEPER.equals(e.actor())) {
                // Its only move is WAIT_PAY → CANCELLED; a refused attempt at it is history too (issue 33: two sweepers
                // race for a due order, the loser's cancel is refused -3 from CANCELLED and was classed as a forgery).
                boolean itsMove = e.code() == ResultCode.APPLIED ? e.from() == OrderStatus.WAIT_PAY && e.to() == OrderStatus.CANCELLED
                        : e.to() == OrderStatus.CANCELLED;
                if (!itsMove) {
                    why = "it names the cancel sweeper, whose only move is WAIT_PAY → CANCELLED, for "
                            + (e.code() == ResultCode.APPLIED ? "a move" : "an attempt") + " from " + e.from() + " to " + e.to();
                }
            } else if (!knownActors.contains(e.actor())) {
                if (!reread) {
                    knownActors.addAll(b.t.accounts().logins());
                    reread = true;
                }
                if (!knownActors.contains(e.actor())) {
                    why = "its actor '" + e.actor() + "' never signed in to this database, so no console wrote it";
                }
            }
            if (why == null && e.actor().startsWith(OrderStore.API_ACTOR)) {
                if (revoked == null) {
                    revoked = b.t.accounts().apiRevocations();
                }
                Long at = revoked.get(e.actor());
                if (at != null && e.atMs() > at + AFTER_REVOCATION_MS) {
                    why = "its actor '" + e.actor() + "' is an API client revoked at " + Instant.ofEpochMilli(at)
                            + ", and the entry is dated " + Instant.ofEpochMilli(e.atMs()) + ", after every serve refuses its token";
                }
            }
            if (why != null) {
                ids.add(oe.streamId());
                setAside(b, DeadLetterRow.UNKNOWN_ACTOR, oe, e.orderId(), "outbox entry not applied: " + why);
            }
        }
        return ids;
    }

    /** @return stream ids of the entries {@link SequenceCheck#outOfSequence} found, each set aside as a dead letter */
    private Set<String> setAsideOutOfSequence(Batch b, Set<String> only) {
        Map<OutboxEntry, String> found = sequence.outOfSequence(b.t, b.entries, b.skip, only);
        Set<String> ids = new HashSet<>();
        found.forEach((oe, why) -> {
            ids.add(oe.streamId());
            setAside(b, DeadLetterRow.OUT_OF_SEQUENCE, oe, oe.entry().orderId(), "outbox entry does not follow MySQL's history: " + why
                    + "; transition.lua never writes such an entry, so it was not applied");
        });
        return ids;
    }

    private static Set<String> without(Set<String> skip, Set<String> setAside) {
        Set<String> more = new HashSet<>(skip);
        more.addAll(setAside); // entries not to be applied, like those recorded before
        return more;
    }

    private static List<HistoryEntry> rowsOf(List<OutboxEntry> batch, Set<String> skip) {
        List<HistoryEntry> kept = new ArrayList<>(batch.size());
        for (OutboxEntry e : batch) {
            if (e.readable() && !skip.contains(e.streamId())) {
                kept.add(e.entry());
            }
        }
        return kept;
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
                setAside(b, DeadLetterRow.HISTORY_CONFLICT, oe, e.orderId(), "version " + e.version() + " of order "
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
    private Set<String> invented(Tables t, List<HistoryEntry> rows, Applied a) {
        Set<String> ask = new LinkedHashSet<>();
        boolean allMoved = a.changed() >= a.moved().size();
        for (HistoryEntry h : rows) {
            if (!allMoved || !a.moved().contains(h.orderId())) {
                ask.add(h.orderId());
            }
        }
        if (ask.isEmpty()) {
            return Set.of();
        }
        List<String> missing = t.orders().missing(new ArrayList<>(ask));
        if (missing.isEmpty()) {
            return Set.of();
        }
        Set<String> inRedis = states.present(missing);
        Set<String> out = new LinkedHashSet<>(missing);
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

    private static void setAside(Batch b, String kind, OutboxEntry e, String orderId, String reason) {
        b.aside.add(e.streamId());
        if (orderId != null && !b.asideByOrder.computeIfAbsent(orderId, k -> new ArrayList<>()).contains(e.streamId())) {
            b.asideByOrder.get(orderId).add(e.streamId());
        }
        DeadLetterRow d = DeadLetterRow.open(kind, orderId, e.bucket(), e.streamId(), reason, e.body(),
                System.currentTimeMillis(), "outbox:b" + e.bucket() + "/" + e.streamId());
        if (b.t.deadLetters().add(d)) {
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
                return OrderId.isValid(id) ? id : null;
            }
        }
        return null;
    }
}
