package com.orderconsole.redis;

import io.lettuce.core.Limit;
import io.lettuce.core.Range;
import io.lettuce.core.ScoredValue;
import io.lettuce.core.ScriptOutputType;
import io.lettuce.core.cluster.api.async.RedisClusterAsyncCommands;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;

/**
 * The cancel queue (delay queue): one ZSET per bucket, member = order id, score = payment deadline in
 * epoch ms (Redis clock); and the sweepers' heartbeat hash ({@code osm:sweeper}).
 */
public final class CancelQueueStore {
    private final RedisConnection redis;
    private final RedisClusterAsyncCommands<String, String> async;

    CancelQueueStore(RedisConnection redis) {
        this.redis = redis;
        this.async = redis.commands();
    }

    /**
     * @return up to {@code limit} entries of a bucket's queue whose expiry is at or before {@code nowMs}, oldest first
     */
    public List<QueueEntry> due(int bucket, long nowMs, int limit) {
        return toEntries(redis.await(async.zrangebyscoreWithScores(RedisKeys.cancelQueue(bucket),
                Range.create(Double.NEGATIVE_INFINITY, (double) nowMs), Limit.create(0, limit)), "ZRANGEBYSCORE"));
    }

    /**
     * Lists a bucket's queue entries in expiry order.
     *
     * @param offset entries to skip
     * @param limit at most this many
     */
    public List<QueueEntry> entries(int bucket, long offset, long limit) {
        return toEntries(redis.await(async.zrangeWithScores(RedisKeys.cancelQueue(bucket), offset, offset + limit - 1), "ZRANGE"));
    }

    /**
     * Lists a bucket's queue entries from a deadline on, in (deadline, order id) order: ZRANGEBYSCORE, so a page deep in
     * a long queue costs its own size, not its offset from the start.
     *
     * @param minExpireAtMs the earliest deadline listed (inclusive), epoch ms
     * @param offset entries at or after it to skip (those of the same deadline already shown)
     * @param limit at most this many
     */
    public List<QueueEntry> entriesFrom(int bucket, long minExpireAtMs, long offset, long limit) {
        return toEntries(redis.await(async.zrangebyscoreWithScores(RedisKeys.cancelQueue(bucket),
                Range.create((double) minExpireAtMs, Double.POSITIVE_INFINITY), Limit.create(offset, limit)), "ZRANGEBYSCORE"));
    }

    private static List<QueueEntry> toEntries(List<ScoredValue<String>> r) {
        List<QueueEntry> out = new ArrayList<>(r.size());
        for (ScoredValue<String> v : r) {
            out.add(new QueueEntry(v.getValue(), (long) v.getScore()));
        }
        return out;
    }

    /** @return queue entry's expiry (epoch ms) or null when the order has no entry */
    public Long score(String orderId) {
        Double s = redis.await(async.zscore(RedisKeys.cancelQueue(RedisKeys.bucket(orderId)), orderId), "ZSCORE");
        return s == null ? null : s.longValue();
    }

    /**
     * Reads many queue entries in one pipelined round.
     *
     * @return id to expiry (epoch ms); ids without an entry map to null
     */
    public Map<String, Long> scores(List<String> orderIds) {
        List<CompletableFuture<Double>> fs = new ArrayList<>(orderIds.size());
        for (String id : orderIds) {
            fs.add(async.zscore(RedisKeys.cancelQueue(RedisKeys.bucket(id)), id).toCompletableFuture());
        }
        Map<String, Long> out = new HashMap<>();
        for (int i = 0; i < orderIds.size(); i++) {
            Double d = redis.await(fs.get(i), "ZSCORE");
            out.put(orderIds.get(i), d == null ? null : d.longValue());
        }
        return out;
    }

    /** @return number of entries in a bucket's queue */
    public long size(int bucket) {
        return redis.await(async.zcard(RedisKeys.cancelQueue(bucket)), "ZCARD");
    }

    /** @return number of entries in a bucket's queue with expiry at or before {@code nowMs} */
    public long overdue(int bucket, long nowMs) {
        return redis.await(async.zcount(RedisKeys.cancelQueue(bucket), Range.create(Double.NEGATIVE_INFINITY, (double) nowMs)), "ZCOUNT");
    }

    /** @return the first entry due strictly after {@code nowMs}, or null */
    public QueueEntry nextDue(int bucket, long nowMs) {
        List<QueueEntry> r = toEntries(redis.await(async.zrangebyscoreWithScores(RedisKeys.cancelQueue(bucket),
                Range.from(Range.Boundary.excluding((double) nowMs), Range.Boundary.unbounded()), Limit.create(0, 1)),
                "ZRANGEBYSCORE"));
        return r.isEmpty() ? null : r.get(0);
    }

    /**
     * Runs requeue.lua: sets or moves the order's entry while it is WAIT_PAY.
     *
     * @param expireAtMs new expiry, epoch ms
     * @return 1 queued, 0 not WAIT_PAY (entry removed), -1 no state
     */
    public int requeue(String orderId, long expireAtMs) {
        int b = RedisKeys.bucket(orderId);
        Long r = redis.await(redis.<Long>evalAsync(LuaScript.REQUEUE, ScriptOutputType.INTEGER,
                new String[]{RedisKeys.order(orderId), RedisKeys.cancelQueue(b)}, orderId, Long.toString(expireAtMs)), "requeue");
        return r.intValue();
    }

    /** Removes an order's queue entry. @return true when there was one */
    public boolean dequeue(String orderId) {
        return redis.await(async.zrem(RedisKeys.cancelQueue(RedisKeys.bucket(orderId)), orderId), "ZREM") > 0;
    }

    /** Writes fields of the sweeper heartbeat hash. */
    public void sweeperHeartbeat(Map<String, String> fields) {
        redis.await(async.hset(RedisKeys.SWEEPER, fields), "HSET " + RedisKeys.SWEEPER);
    }

    /** @return the sweeper heartbeat hash (empty when no sweeper ever ran) */
    public Map<String, String> sweeperState() {
        return redis.await(async.hgetall(RedisKeys.SWEEPER), "HGETALL " + RedisKeys.SWEEPER);
    }
}
