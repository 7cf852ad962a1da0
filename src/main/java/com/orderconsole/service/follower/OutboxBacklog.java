package com.orderconsole.service.follower;

import com.orderconsole.domain.HistoryEntry;
import com.orderconsole.domain.ResultCode;
import com.orderconsole.redis.DataSetStore;
import com.orderconsole.redis.OutboxEntry;
import com.orderconsole.redis.OutboxStore;
import com.orderconsole.redis.RedisConnection;
import com.orderconsole.redis.RedisKeys;
import com.orderconsole.store.CursorStore;
import com.orderconsole.store.Database;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * What the outbox holds that MySQL has not applied, read without changing anything (pending entries, the backlog and
 * its age), and the fence the cancel sweeper asks about. Split from {@link Follower} (issue 28), whose public methods
 * of the same names answer from here.
 */
final class OutboxBacklog {
    /** The follower's log lines keep the follower's name, whichever part of it writes them. */
    private static final Logger log = LoggerFactory.getLogger(Follower.class);

    private final RedisConnection clock;
    private final OutboxStore outbox;
    private final DataSetStore dataSet;
    private final Database db;

    OutboxBacklog(RedisConnection clock, OutboxStore outbox, DataSetStore dataSet, Database db) {
        this.clock = clock;
        this.outbox = outbox;
        this.dataSet = dataSet;
        this.db = db;
    }

    /** @see Follower#pendingVersions */
    Map<String, Long> pendingVersions(int bucket, int cap) {
        String epoch = dataSet.epoch();
        if (epoch == null) {
            return null;
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
     * Whether Redis's data set is one MySQL left behind (issue 33.5): the bucket's cursor belongs to another data set,
     * and MySQL's history holds entries recorded under this one in this bucket. A Redis that lost everything gets a new
     * marker no history row carries; an old copy restored again brings back a marker that rows carry. One read of the
     * event-key index, only while the two differ (the first batch under a new marker moves the cursor to it).
     */
    static boolean olderDataSet(com.orderconsole.store.Tables t, int bucket, CursorStore.Cursor cursor, String epoch) {
        return cursor.epoch() != null && !cursor.epoch().equals(epoch)
                && t.history().anyKeyStartingWith(OutboxStore.eventKey(bucket, epoch, ""));
    }

    /** @see Follower#fenceHolds */
    boolean fenceHolds(int bucket, String epoch) {
        String seen = null;
        for (int attempt = 0; attempt < 3; attempt++) {
            CursorStore.Cursor c = db.read(t -> t.cursors().read(bucket));
            if (db.read(t -> olderDataSet(t, bucket, c, epoch))) {
                String why = "Redis holds data set " + epoch + ", which MySQL recorded before the current one (" + c.epoch()
                        + "): Redis was restored from an older copy; maintenance restores it from MySQL (found by the cancel sweeper)";
                dataSet.forgetEpoch(epoch, why);
                log.warn("{}", why);
                return false;
            }
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
        dataSet.forgetEpoch(epoch, why);
        log.warn("{}", why);
        return false;
    }


    /** @see Follower#appliedPositions */
    AppliedPositions appliedPositions() {
        List<CursorStore.Cursor> cursors = new ArrayList<>(RedisKeys.buckets());
        for (int b = 0; b < RedisKeys.buckets(); b++) {
            int bucket = b;
            cursors.add(db.read(t -> t.cursors().read(bucket)));
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
