package com.orderconsole.service.follower;

import com.orderconsole.domain.HistoryEntry;
import com.orderconsole.domain.ResultCode;
import com.orderconsole.redis.DataSetStore;
import com.orderconsole.redis.OutboxEntry;
import com.orderconsole.redis.OutboxStore;
import com.orderconsole.redis.RedisConnection;
import com.orderconsole.redis.RedisKeys;
import com.orderconsole.service.RecordedMarker;
import com.orderconsole.store.CursorStore;
import com.orderconsole.store.Database;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicLongArray;
import java.util.concurrent.atomic.AtomicReferenceArray;

/**
 * What the outbox holds that MySQL has not applied, read without changing anything (pending entries, the backlog and
 * its age), and the fence the cancel sweeper and transitions ask about. {@link Follower}'s public methods of the same
 * names answer from here.
 */
final class OutboxBacklog {
    /** The follower's log lines keep the follower's name, whichever part of it writes them. */
    private static final Logger log = LoggerFactory.getLogger(Follower.class);

    private final RedisConnection clock;
    private final OutboxStore outbox;
    private final DataSetStore dataSet;
    private final Database db;
    /** The marker of the Redis data set MySQL follows. */
    private final RecordedMarker recorded;
    /**
     * Each bucket's cursor as this process last read it: transitions check that the outbox still reaches it.
     * Older than MySQL's is harmless (it only looks less far); null until read.
     */
    private final AtomicReferenceArray<CursorStore.Cursor> cursorsSeen =
            new AtomicReferenceArray<>(RedisKeys.MAX_BUCKETS);

    OutboxBacklog(RedisConnection clock, OutboxStore outbox, DataSetStore dataSet, Database db, RecordedMarker recorded) {
        this.recorded = recorded;
        this.clock = clock;
        this.outbox = outbox;
        this.dataSet = dataSet;
        this.db = db;
    }

    /** @see Follower#pendingVersions */
    Map<String, Long> pendingVersions(int bucket, int cap) {
        String epoch = dataSet.epoch();
        if (epoch == null) {
            // A Redis that lost everything (FLUSHALL, a restart without persistence) holds no outbox to wait for: an empty
            // stream has nothing MySQL lacks. One that still holds entries waits for the data set's restore.
            return outbox.length(bucket) == 0 ? new HashMap<>() : null;
        }
        CursorStore.Cursor c = db.read(t -> t.cursors().read(bucket));
        String after = c.epoch() == null ? c.lastId() : c.after(epoch);
        List<OutboxEntry> pending = outbox.read(bucket, after, cap + 1, epoch);
        if (pending.size() > cap) {
            return null;
        }
        Map<String, Long> out = new HashMap<>();
        for (OutboxEntry e : pending) {
            if (e.readable() && e.entry().code() == ResultCode.APPLIED) {
                out.merge(e.entry().orderId(), e.entry().version(), Math::max);
            }
        }
        return out;
    }


    /** @see Follower#pendingFor */
    List<HistoryEntry> pendingFor(String orderId, int cap) {
        String epoch = dataSet.epoch();
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
     * Whether Redis's data set is one MySQL left behind: the bucket's cursor belongs to another data set,
     * and MySQL's history holds entries recorded under this one in this bucket. A Redis that lost everything gets a new
     * marker no history row carries; an old copy restored again brings back a marker that rows carry. One read of the
     * event-key index, only while the two differ (the first batch under a new marker moves the cursor to it). Kept beside
     * the recorded marker ({@link RecordedMarker}) for a data set no restore has recorded one for.
     *
     * @return why Redis is an older copy, in words, or null
     */
    static String olderDataSet(com.orderconsole.store.Tables t, int bucket, CursorStore.Cursor cursor, String epoch) {
        if (cursor.epoch() == null || cursor.epoch().equals(epoch) || !t.history().anyKeyStartingWith(OutboxStore.eventKey(bucket, epoch, ""))) {
            return null;
        }
        return "Redis holds data set " + epoch + ", which MySQL recorded before the current one (" + cursor.epoch()
                + "): Redis was restored from an older copy; maintenance restores it from MySQL";
    }

    /** @return the words for a bucket whose outbox lacks {@code entry}, the last one MySQL applied (the trim keeps it) */
    static String wentBack(int bucket, String entry) {
        return "Redis outbox of bucket " + bucket + " no longer holds entry " + entry
                + ", the last one MySQL applied: Redis went back in time; maintenance restores it from MySQL";
    }

    /** @see Follower#fenceHolds */
    boolean fenceHolds(int bucket, String epoch) {
        return fenceHolds(bucket, epoch, "the cancel sweeper");
    }

    /** @see Follower#checkFences */
    String checkFences() {
        String epoch = dataSet.epoch();
        if (epoch == null) {
            return null;
        }
        for (int b = 0; b < RedisKeys.buckets(); b++) {
            if (!fenceHolds(b, epoch, "a process at its start")) {
                return dataSet.fenced();
            }
        }
        return null;
    }

    /**
     * The one judgement, outside the follower's own batch, that Redis is behind MySQL, in the order of what it costs:
     * its marker is not the one MySQL recorded at the last restore (an older copy, the same one restored twice
     * included); its marker is an older data set MySQL's history carries; its outbox lacks the entry MySQL applied
     * last. Any of them fences the data set. A follower elsewhere that applies and trims between the cursor read and
     * the look in Redis moves the cursor: the look is made again with the new one.
     *
     * @param foundBy who looks, for the words kept in the fence key
     */
    boolean fenceHolds(int bucket, String epoch, String foundBy) {
        String why = recorded.staleCopy(epoch);
        String seen = null;
        for (int attempt = 0; why == null && attempt < 3; attempt++) {
            CursorStore.Cursor c = db.read(t -> t.cursors().read(bucket));
            seen(bucket, c);
            why = db.read(t -> olderDataSet(t, bucket, c, epoch));
            if (why != null) {
                break;
            }
            String after = c.epoch() == null ? c.lastId() : c.after(epoch);
            if (c.epoch() == null || !after.equals(c.lastId()) || "0-0".equals(after) || outbox.holds(bucket, after)) {
                return true;
            }
            if (after.equals(seen)) {
                why = wentBack(bucket, after); // the same cursor twice, its entry gone both times: not a trim that raced this look
            }
            seen = after;
        }
        if (why == null) {
            why = wentBack(bucket, seen);
        }
        why += " (found by " + foundBy + ")";
        dataSet.forgetEpoch(epoch, why);
        log.warn("{}", why);
        return false;
    }

    /** Keeps the cursor just read; a position that moved makes the next transition's look due at once. */
    private void seen(int bucket, CursorStore.Cursor c) {
        if (!c.equals(cursorsSeen.getAndSet(bucket, c))) {
            lookedAtNanos.set(bucket, 0);
        }
    }

    /** A position MySQL applied in data set {@code epoch} that this process knows of (its own follower's commit). */
    void applied(int bucket, String epoch, String id) {
        CursorStore.Cursor c = cursorsSeen.get(bucket);
        if (c == null || !epoch.equals(c.epoch()) || "0-0".equals(c.lastId()) || after(id, c.lastId())) {
            cursorsSeen.set(bucket, new CursorStore.Cursor(id, epoch));
            lookedAtNanos.set(bucket, 0); // a new position: the next transition in the bucket looks at once
        }
    }

    /** @return true when stream id {@code a} comes after {@code b} ("ms-seq" ids compared as numbers) */
    private static boolean after(String a, String b) {
        int i = a.indexOf('-');
        int j = b.indexOf('-');
        long am = Long.parseLong(a.substring(0, i));
        long bm = Long.parseLong(b.substring(0, j));
        return am != bm ? am > bm : Long.parseLong(a.substring(i + 1)) > Long.parseLong(b.substring(j + 1));
    }

    /** How often transitions look at a bucket's fence at most (see {@link Follower#fenceLookDue}). */
    static final long FENCE_LOOK_EVERY_NANOS = 100_000_000L;
    /** Per bucket, when a transition last looked (System.nanoTime), 0 when a look is due. */
    private final AtomicLongArray lookedAtNanos = new AtomicLongArray(RedisKeys.MAX_BUCKETS);

    /** @see Follower#fenceLookDue */
    boolean fenceLookDue(int bucket) {
        long now = System.nanoTime();
        long last = lookedAtNanos.get(bucket);
        return (last == 0 || now - last >= FENCE_LOOK_EVERY_NANOS) && lookedAtNanos.compareAndSet(bucket, last, now == 0 ? 1 : now);
    }

    /** @see Follower#appliedThrough */
    String appliedThrough(int bucket, String epoch) {
        CursorStore.Cursor c = cursorsSeen.get(bucket);
        if (c == null || c.epoch() == null || !epoch.equals(c.epoch()) || "0-0".equals(c.lastId())) {
            return null;
        }
        return c.lastId();
    }

    /** @see Follower#appliedPositions */
    AppliedPositions appliedPositions() {
        List<CursorStore.Cursor> cursors = new ArrayList<>(RedisKeys.buckets());
        for (int b = 0; b < RedisKeys.buckets(); b++) {
            int bucket = b;
            CursorStore.Cursor c = db.read(t -> t.cursors().read(bucket));
            seen(bucket, c);
            cursors.add(c);
        }
        return new AppliedPositions(cursors);
    }


    /** @see Follower#status */
    FollowerStatus status(AppliedPositions positions, long appliedTotal, String lastError) {
        long pending = 0;
        boolean approximate = false;
        Long oldest = null;
        long now = clock.nowMs();
        String epoch = dataSet.epoch();
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
        return new FollowerStatus(pending, approximate, oldest, appliedTotal, lastError, FollowerSettings.backlogWarning(pending, approximate, oldest));
    }
}
