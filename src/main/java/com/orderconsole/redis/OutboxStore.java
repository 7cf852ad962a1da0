package com.orderconsole.redis;

import com.orderconsole.domain.HistoryEntry;
import com.orderconsole.domain.OrderStatus;
import com.orderconsole.domain.ResultCode;
import io.lettuce.core.Limit;
import io.lettuce.core.Range;
import io.lettuce.core.StreamMessage;
import io.lettuce.core.XTrimArgs;
import io.lettuce.core.api.async.RedisAsyncCommands;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * The outbox: one stream per bucket ({@code osm:{bNN}:outbox}) to which transition.lua appends every
 * outcome in the same atomic step as the state change. Read and trimmed by the MySQL follower only.
 */
public final class OutboxStore {
    private final RedisConnection redis;
    private final RedisAsyncCommands<String, String> async;

    OutboxStore(RedisConnection redis) {
        this.redis = redis;
        this.async = redis.commands();
    }

    /**
     * Reads outbox entries of a bucket after a stream id.
     *
     * @param afterId last id already applied ("0-0" for none)
     * @param count at most this many
     * @return entries in stream order
     */
    public List<OutboxEntry> read(int bucket, String afterId, int count) {
        Range<String> range = Range.from(Range.Boundary.excluding(afterId), Range.Boundary.unbounded());
        List<StreamMessage<String, String>> msgs = redis.await(async.xrange(RedisKeys.outbox(bucket), range,
                Limit.create(0, count)), "XRANGE");
        List<OutboxEntry> out = new ArrayList<>(msgs.size());
        for (StreamMessage<String, String> m : msgs) {
            Map<String, String> f = m.getBody();
            int from = Integer.parseInt(f.get("f"));
            HistoryEntry e = new HistoryEntry(f.get("o"), from == 0 ? null : OrderStatus.ofCode(from),
                    OrderStatus.ofCode(Integer.parseInt(f.get("t"))), Long.parseLong(f.get("v")),
                    ResultCode.ofCode(Integer.parseInt(f.get("c"))), f.get("a"), f.get("s"), f.get("r"),
                    Long.parseLong(f.get("ts")), "b" + bucket + "/" + m.getId());
            out.add(new OutboxEntry(bucket, m.getId(), e));
        }
        return out;
    }

    /** Deletes outbox entries older than {@code minId} (exclusive): only call with an id MySQL has. */
    public void trim(int bucket, String minId) {
        redis.await(async.xtrim(RedisKeys.outbox(bucket), XTrimArgs.Builder.minId(minId)), "XTRIM");
    }

    /**
     * Counts outbox entries at or before an id (normally just that one: the follower trims the rest).
     *
     * @param upToId a stream id
     * @param max stop counting here
     */
    public int countUpTo(int bucket, String upToId, int max) {
        return redis.await(async.xrange(RedisKeys.outbox(bucket), Range.create("-", upToId), Limit.create(0, max)), "XRANGE").size();
    }

    /** @return the oldest entry after {@code afterId}, or null */
    public OutboxEntry oldestAfter(int bucket, String afterId) {
        List<OutboxEntry> r = read(bucket, afterId, 1);
        return r.isEmpty() ? null : r.get(0);
    }

    /** @return number of entries in a bucket's outbox stream (applied or not) */
    public long length(int bucket) {
        return redis.await(async.xlen(RedisKeys.outbox(bucket)), "XLEN");
    }
}
