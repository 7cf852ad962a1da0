package com.orderconsole.service.follower;

import com.orderconsole.domain.HistoryEntry;
import com.orderconsole.domain.Operator;
import com.orderconsole.domain.OrderStatus;
import com.orderconsole.domain.ResultCode;
import com.orderconsole.redis.OrderStateStore;
import com.orderconsole.redis.OutboxEntry;
import com.orderconsole.redis.OutboxStore;
import com.orderconsole.redis.RedisKeys;
import com.orderconsole.redis.RulesStore;
import com.orderconsole.service.LogLimiter;
import com.orderconsole.store.CursorStore;
import com.orderconsole.store.Database;
import com.orderconsole.store.DeadLetterRow;
import com.orderconsole.store.HistoryStore;
import com.orderconsole.store.OrderStore;
import com.orderconsole.store.Tables;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;

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
    private final RulesStore rules;
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
    /** Logins seen in console_account: only added to (a login is never removed). */
    private final java.util.Set<String> knownActors = java.util.concurrent.ConcurrentHashMap.newKeySet();

    /**
     * What one batch came to: entries read (the caller reads again while a batch was full) and entries recorded in MySQL's
     * history now (applied moves and refused attempts; not those set aside, nor those recorded before a restore).
     */
    record Counts(int read, int applied) {
    }

    BatchApplier(OutboxStore outbox, RulesStore rules, OrderStateStore states, Database db, SequenceCheck sequence,
                 TerminalRetention retention) {
        this.outbox = outbox;
        this.rules = rules;
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
        String[] last = new String[1];
        int[] recorded = new int[1];
        List<HistoryEntry> committed = new ArrayList<>();
        // Plain transaction, few statements: the cursor lock, a SAVEPOINT, one multi-row history INSERT, the conflict
        // check only when a row was ignored, one multi-row guarded UPDATE of the orders, the order check only when the
        // batch suggests a missing order, the cursor.
        int n = db.inTransaction(t -> {
            committed.clear();
            recorded[0] = 0;
            // Stream ids of the entries set aside in this attempt: they move no counter (issue 33).
            java.util.Set<String> aside = new java.util.HashSet<>();
            CursorStore.Cursor cursor = t.cursors().lock(bucket);
            String after = cursor.epoch() == null ? cursor.lastId() : cursor.after(epoch);
            boolean fenced = cursor.epoch() != null && after.equals(cursor.lastId()) && !"0-0".equals(after);
            // Issue 33.5: the same old copy restored a second time carries the marker of a data set MySQL already
            // left behind (the first restore set a new one): its stream would be read from its start as if new.
            String older = before == null ? OutboxBacklog.olderDataSet(t, bucket, cursor, epoch) : null;
            if (older != null) {
                String why = older;
                rules.forgetEpoch(epoch, why);
                log.warn("{}", why);
                throw new IllegalStateException(why);
            }
            List<OutboxEntry> batch = fenced ? outbox.readFenced(bucket, after, size, epoch) : outbox.read(bucket, after, size, epoch);
            if (batch == null) {
                // The fence: the outbox always keeps the entry MySQL applied last (the trim deletes only entries
                // before it). Without it, this Redis was restored from a copy older than what MySQL has: its order
                // states are stale and the entries after the copy are gone. It becomes a new data set, restored
                // from MySQL by maintenance.
                String why = OutboxBacklog.wentBack(bucket, after);
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
                    setAside(t, aside, DeadLetterRow.OUTBOX_ENTRY, e, orderIdOf(e.body()), "outbox entry cannot be read: " + e.problem());
                }
            }
            if (db.writesStamped()) {
                java.util.Set<String> strangers = setAsideUnknownActors(t, aside, batch, recordedBefore);
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
                java.util.Set<String> forged = sequenced ? (unvouched.isEmpty() ? java.util.Set.of() : setAsideOutOfSequence(t, aside, batch, recordedBefore, unvouched))
                        : setAsideOutOfSequence(t, aside, batch, recordedBefore, null);
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
                Applied a = apply(t, aside, batch, rows, recordedBefore, invented, committed, sequenced);
                if (sequenced && a.changed() < a.moved().size()) {
                    // An order's first move did not start from MySQL's state (a forged entry, a replay, an order MySQL
                    // lacks): undone, judged entry by entry against MySQL, and applied again under the version guard.
                    beforeHistory.undo();
                    sequenced = false;
                    java.util.Set<String> forged = setAsideOutOfSequence(t, aside, batch, recordedBefore, null);
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
                        setAside(t, aside, DeadLetterRow.UNKNOWN_ORDER, e, e.entry().orderId(), "order " + e.entry().orderId()
                                + " is in neither MySQL nor Redis, so no recorded order explains this outbox entry (orders are "
                                + "written to MySQL before Redis): kept out of the history");
                    }
                }
            }
            OutboxEntry lastEntry = batch.get(batch.size() - 1);
            last[0] = lastEntry.streamId();
            t.cursors().save(bucket, last[0], epoch, System.currentTimeMillis());
            // transition.lua counts no move (issue 15.3): the batch is counted here, from the entries as read, less those
            // set aside, which moved nothing MySQL records (issue 33: a forged entry moved the live counters). Counted
            // once: a batch read again starts where the counting no longer stands.
            List<OutboxEntry> counted = new ArrayList<>(batch.size());
            for (OutboxEntry e : batch) {
                if (!aside.contains(e.streamId())) {
                    counted.add(e);
                    if (e.readable() && !recordedBefore.contains(e.streamId())) {
                        recorded[0]++;
                    }
                }
            }
            outbox.count(bucket, after, last[0], counted);
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
        return new Counts(n, recorded[0]);
    }

    /**
     * The actor check (issue 25), on servers that check accounts: every entry must name a login the database saw sign in
     * ({@code console_account}, stamped by the database), or be the cancel sweeper's one move. A well-formed entry
     * XADDed in a made-up name was applied before. The logins are read once and again only when a name is new.
     *
     * @return stream ids of the entries set aside as UNKNOWN_ACTOR dead letters
     */
    private java.util.Set<String> setAsideUnknownActors(Tables t, java.util.Set<String> aside, List<OutboxEntry> batch,
                                                        java.util.Set<String> recordedBefore) {
        java.util.Set<String> ids = new java.util.HashSet<>();
        boolean reread = false;
        for (OutboxEntry oe : batch) {
            if (!oe.readable() || recordedBefore.contains(oe.streamId())) {
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
                    knownActors.addAll(t.accounts().logins());
                    reread = true;
                }
                if (!knownActors.contains(e.actor())) {
                    why = "its actor '" + e.actor() + "' never signed in to this database, so no console wrote it";
                }
            }
            if (why != null) {
                ids.add(oe.streamId());
                setAside(t, aside, DeadLetterRow.UNKNOWN_ACTOR, oe, e.orderId(), "outbox entry not applied: " + why);
            }
        }
        return ids;
    }

    /** @return stream ids of the entries {@link SequenceCheck#outOfSequence} found, each set aside as a dead letter */
    private java.util.Set<String> setAsideOutOfSequence(Tables t, java.util.Set<String> aside, List<OutboxEntry> batch,
                                                         java.util.Set<String> recordedBefore, java.util.Set<String> only) {
        Map<OutboxEntry, String> found = sequence.outOfSequence(t, batch, recordedBefore, only);
        java.util.Set<String> ids = new java.util.HashSet<>();
        found.forEach((oe, why) -> {
            ids.add(oe.streamId());
            setAside(t, aside, DeadLetterRow.OUT_OF_SEQUENCE, oe, oe.entry().orderId(), "outbox entry does not follow MySQL's history: " + why
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
    private Applied apply(Tables t, java.util.Set<String> aside, List<OutboxEntry> batch, List<HistoryEntry> rows,
                          java.util.Set<String> recordedBefore,
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
                setAside(t, aside, DeadLetterRow.HISTORY_CONFLICT, oe, e.orderId(), "version " + e.version() + " of order "
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

    private static void setAside(Tables t, java.util.Set<String> aside, String kind, OutboxEntry e, String orderId, String reason) {
        aside.add(e.streamId());
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
}
