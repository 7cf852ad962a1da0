package com.orderconsole.service.follower;

import com.orderconsole.redis.OutboxEntry;
import com.orderconsole.redis.RedisKeys;
import com.orderconsole.store.DeadLetterRow;

import java.time.Instant;
import java.util.HashSet;
import java.util.Set;

/**
 * Whether each outbox entry is dated by Redis' clock. transition.lua dates every entry by Redis' {@code TIME} (its
 * stream id, or its {@code at} field when the stream's last id ran ahead of the clock), so an entry of the script is
 * never dated after Redis' clock as the follower reads it, nor before the moment the follower last read its bucket to
 * the end: it was written after that read. Redis accepts an {@code XADD} with any id above the stream's last one, so an
 * entry dated otherwise was written by hand, to pass a check that compares times (a revoked client, a payment deadline,
 * the order's creation). It is set aside as an {@value DeadLetterRow#OFF_CLOCK} dead letter and its time moves nothing:
 * no order, history row or later entry takes it.
 *
 * <p>What a bucket was last read to the end at is kept in memory per bucket and data set; a follower that starts knows
 * nothing yet and judges only the future side until its first read of each bucket reaches the end.
 */
final class EntryClock {
    /**
     * How far after Redis' clock at the read an entry may be dated: none in practice (the entry was written before it
     * was read); the slack covers Redis' clock stepping back.
     */
    static final long AHEAD_MS = 5_000;
    /**
     * How far before the clock of the last read that reached the bucket's end an entry written after that read may be
     * dated: none in practice; the slack covers Redis' clock stepping back.
     */
    static final long BEHIND_MS = 5_000;

    /** A read that reached a bucket's end: the data set, the last stream id it saw, Redis' clock just before it. */
    private record Reached(String epoch, String lastId, long atMs) {
    }

    private final Reached[] reached = new Reached[RedisKeys.buckets()];

    /**
     * Sets aside every readable entry of the batch dated far from Redis' clock.
     *
     * @return stream ids of the entries set aside
     */
    Set<String> setAsideOffClock(Batch b) {
        Set<String> ids = new HashSet<>();
        Reached r = reached[b.bucket];
        if (r != null && !r.epoch.equals(b.epoch)) {
            r = null;
        }
        for (OutboxEntry oe : b.entries) {
            if (!b.judged(oe)) {
                continue;
            }
            String why = whyOffClock(oe, b.redisNowMs, r);
            if (why != null) {
                ids.add(oe.streamId());
                b.setAside(DeadLetterRow.OFF_CLOCK, oe, oe.entry().orderId(), "outbox entry not applied: " + why
                        + "; transition.lua dates every entry by Redis' clock, so no script wrote it, and its time moved nothing");
            }
        }
        return ids;
    }

    /** @return why the entry is not dated by Redis' clock, in words, or null when it is */
    private static String whyOffClock(OutboxEntry oe, long redisNowMs, Reached r) {
        long at = oe.entry().atMs();
        if (at > redisNowMs + AHEAD_MS) {
            return "it is dated " + Instant.ofEpochMilli(at) + ", " + span(at - redisNowMs) + " after Redis' clock when the "
                    + "follower read it (" + Instant.ofEpochMilli(redisNowMs) + "; at most " + AHEAD_MS / 1000 + " s is allowed)";
        }
        if (r != null && compareIds(oe.streamId(), r.lastId) > 0 && at < r.atMs - BEHIND_MS) {
            return "it is dated " + Instant.ofEpochMilli(at) + ", " + span(r.atMs - at) + " before the follower read this "
                    + "bucket's outbox to its end (" + Instant.ofEpochMilli(r.atMs) + ", Redis' clock), yet it was added after "
                    + "that read (at most " + BEHIND_MS / 1000 + " s earlier is allowed)";
        }
        return null;
    }

    /**
     * After a read: when it reached the bucket's end, entries added after it must be dated from its clock on.
     *
     * @param afterId the stream id the read started after
     * @param size entries the read asked for: fewer came back, so it reached the end
     */
    void read(Batch b, String afterId, int size) {
        if (b.entries.size() < size) {
            String last = b.entries.isEmpty() ? afterId : b.entries.get(b.entries.size() - 1).streamId();
            reached[b.bucket] = new Reached(b.epoch, last, b.redisNowMs);
        }
    }

    private static String span(long ms) {
        return ms >= 120_000 ? ms / 60_000 + " minutes" : ms >= 10_000 ? ms / 1000 + " s" : ms + " ms";
    }

    /** Orders two stream ids ("ms-seq", or "ms"), numerically. */
    static int compareIds(String a, String b) {
        long[] x = split(a);
        long[] y = split(b);
        return x[0] != y[0] ? Long.compare(x[0], y[0]) : Long.compare(x[1], y[1]);
    }

    private static long[] split(String id) {
        int dash = id.indexOf('-');
        return dash < 0 ? new long[]{Long.parseLong(id), 0}
                : new long[]{Long.parseLong(id.substring(0, dash)), Long.parseLong(id.substring(dash + 1))};
    }
}
