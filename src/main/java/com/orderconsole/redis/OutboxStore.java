package com.orderconsole.redis;

import com.orderconsole.domain.HistoryEntry;
import com.orderconsole.domain.OrderId;
import com.orderconsole.domain.OrderStatus;
import com.orderconsole.domain.ResultCode;
import io.lettuce.core.Limit;
import io.lettuce.core.Range;
import io.lettuce.core.StreamMessage;
import io.lettuce.core.cluster.api.async.RedisClusterAsyncCommands;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * The outbox: one stream per bucket ({@code osm:{bNN}:outbox}) to which transition.lua appends every
 * outcome in the same atomic step as the state change. Read and trimmed by the MySQL follower only.
 */
public final class OutboxStore {
    private final RedisConnection redis;
    private final RedisClusterAsyncCommands<String, String> async;

    OutboxStore(RedisConnection redis) {
        this.redis = redis;
        this.async = redis.commands();
    }

    /**
     * Reads outbox entries of a bucket after a stream id. An entry that cannot be read (a field missing
     * or out of range) comes back with its problem in words instead of failing the whole read.
     *
     * @param afterId last id already applied ("0-0" for none)
     * @param count at most this many
     * @param epoch the data-set marker of this Redis: part of each entry's event key, because stream ids
     *     of two data sets may coincide
     * @return entries in stream order
     */
    public List<OutboxEntry> read(int bucket, String afterId, int count, String epoch) {
        Range<String> range = Range.from(Range.Boundary.excluding(afterId), Range.Boundary.unbounded());
        List<StreamMessage<String, String>> msgs = redis.await(async.xrange(RedisKeys.outbox(bucket), range,
                Limit.create(0, count)), "XRANGE");
        return parseAll(bucket, msgs, epoch);
    }

    /**
     * {@link #read}, in the same round trip checking the fence: that the outbox still holds the entry {@code afterId}
     * itself, which the follower's trim always keeps (it deletes only entries before the last one applied).
     *
     * @return the entries after {@code afterId}, in stream order; null when the outbox no longer holds that entry (the
     *     Redis went back to a copy older than it)
     */
    public List<OutboxEntry> readFenced(int bucket, String afterId, int count, String epoch) {
        List<StreamMessage<String, String>> msgs = redis.await(async.xrange(RedisKeys.outbox(bucket), Range.create(afterId, "+"),
                Limit.create(0, count + 1)), "XRANGE");
        if (msgs.isEmpty() || !msgs.get(0).getId().equals(afterId)) {
            return null;
        }
        return parseAll(bucket, msgs.subList(1, msgs.size()), epoch);
    }

    /**
     * Entries read with Redis' clock as it stood just before the read.
     *
     * @param entries the entries after the id asked for, in stream order; null when the fence failed ({@link #readFenced})
     * @param redisNowMs Redis' {@code TIME} sent just before the XRANGE on the same connection, epoch ms: an entry the read
     *     did not reach was written after it
     */
    public record ClockedRead(List<OutboxEntry> entries, long redisNowMs) {
    }

    /**
     * {@link #read} or {@link #readFenced}, with Redis' clock read in the same round trip, just before the entries.
     *
     * @param fenced true: {@link #readFenced}
     */
    public ClockedRead readClocked(int bucket, String afterId, int count, String epoch, boolean fenced) {
        java.util.concurrent.CompletionStage<List<String>> time = async.time();
        Range<String> range = fenced ? Range.create(afterId, "+") : Range.from(Range.Boundary.excluding(afterId), Range.Boundary.unbounded());
        java.util.concurrent.CompletionStage<List<StreamMessage<String, String>>> read = async.xrange(RedisKeys.outbox(bucket), range,
                Limit.create(0, fenced ? count + 1 : count));
        List<String> t = redis.await(time, "TIME");
        long now = Long.parseLong(t.get(0)) * 1000 + Long.parseLong(t.get(1)) / 1000;
        List<StreamMessage<String, String>> msgs = redis.await(read, "XRANGE");
        if (!fenced) {
            return new ClockedRead(parseAll(bucket, msgs, epoch), now);
        }
        if (msgs.isEmpty() || !msgs.get(0).getId().equals(afterId)) {
            return new ClockedRead(null, now);
        }
        return new ClockedRead(parseAll(bucket, msgs.subList(1, msgs.size()), epoch), now);
    }

    /** @return true when the bucket's outbox still holds entry {@code id} (one XRANGE of that id alone) */
    public boolean holds(int bucket, String id) {
        return !redis.await(async.xrange(RedisKeys.outbox(bucket), Range.create(id, id), Limit.create(0, 1)), "XRANGE").isEmpty();
    }

    private static List<OutboxEntry> parseAll(int bucket, List<StreamMessage<String, String>> msgs, String epoch) {
        List<OutboxEntry> out = new ArrayList<>(msgs.size());
        for (StreamMessage<String, String> m : msgs) {
            out.add(parse(bucket, m.getId(), m.getBody(), eventKey(bucket, epoch, m.getId())));
        }
        return out;
    }

    /** @return the event key of an outbox entry: bucket, data set and stream id, unique across data sets */
    public static String eventKey(int bucket, String epoch, String streamId) {
        return "b" + bucket + "/" + epoch.substring(0, Math.min(12, epoch.length())) + "/" + streamId;
    }

    /**
     * Reads one stream entry in any form transition.lua has written: the one-field form (issue 15.3: {@code e} =
     * "order,from,to,version,code\nactor\nsource\nreason"), the compact one before it ({@code k} =
     * "order,from,to,version,code,sequence", {@code a}, {@code s}, {@code r}; in both the time is the stream id's
     * milliseconds) or the first one, one field per value ({@code o f t v c a s r ts n}), so a backlog left by an
     * older version is applied as is after an upgrade. The sequence numbers of the older forms are not used: the
     * follower's fence took their place.
     */
    static OutboxEntry parse(int bucket, String streamId, Map<String, String> f, String eventKey) {
        String body = body(f);
        try {
            Read r = f.get("e") != null || f.get("k") != null ? outcomeForm(streamId, f) : fieldPerValueForm(f);
            return new OutboxEntry(bucket, streamId, r.entry(bucket, eventKey), null, body);
        } catch (IllegalArgumentException e) {
            return new OutboxEntry(bucket, streamId, null, e.getMessage(), body);
        }
    }

    /** An entry's values as read, in any form, before they are checked against the bucket and MySQL's columns. */
    private record Read(String orderId, int from, int to, long version, int code, long atMs, String actor, String source,
                        String reason) {
        HistoryEntry entry(int bucket, String eventKey) {
            OrderId.require(orderId); // one MySQL cannot hold would fail the follower's whole batch, every time
            int home = RedisKeys.bucket(orderId);
            if (home != bucket) {
                // A hand trial planted such an entry (3 -> 4 at version 9 on a FINISHED order at version 5): MySQL took
                // it, moving a finished order back to SHIPPED with a history row no script wrote.
                throw new IllegalArgumentException("entry for order " + orderId + " of bucket " + home + " found in bucket "
                        + bucket + "'s outbox: transition.lua writes every entry to its own order's bucket");
            }
            return new HistoryEntry(orderId, from == 0 ? null : OrderStatus.ofCode(from),
                    OrderStatus.ofCode(to), version, ResultCode.ofCode(code),
                    fits(actor, "actor", ACTOR_MAX), fits(source, "source", SOURCE_MAX), fits(reason, "reason", REASON_MAX),
                    atMs, eventKey);
        }
    }

    /**
     * The field transition.lua adds to an entry when the stream's last id ran ahead of Redis' clock: the entry's time,
     * epoch ms of Redis' {@code TIME}, which its stream id then does not give.
     */
    public static final String AT = "at";

    /**
     * The one-field form ({@code e}: the outcome "order,from,to,version,code", then actor, source and reason, one a line)
     * or the compact one ({@code k}: the outcome with its sequence number last; {@code a}, {@code s}, {@code r}); the
     * time is the stream id's milliseconds, or {@link #AT} where the entry has it.
     */
    private static Read outcomeForm(String streamId, Map<String, String> f) {
        String e1 = f.get("e");
        String[] texts = null;
        if (e1 != null) {
            texts = e1.split("\n", 4);
            if (texts.length != 4) {
                throw new IllegalArgumentException("entry has " + texts.length + " lines, not 4 (outcome, actor, source, reason)");
            }
        }
        String outcome = texts != null ? texts[0] : f.get("k");
        String[] p = outcome.split(",", -1);
        if (p.length != (texts != null ? 5 : 6)) {
            throw new IllegalArgumentException("entry '" + outcome + "' has " + p.length + " parts, not "
                    + (texts != null ? "5 (order, from, to, version, code)" : "6 (order, from, to, version, code, sequence)"));
        }
        return new Read(required(p[0], "order id"), code(p[1], "from status"), code(p[2], "target status"),
                number(p[3], "version"), code(p[4], "result code"), f.get(AT) != null ? number(f.get(AT), "time ('at')") : idMillis(streamId),
                texts != null ? required(texts[1], "actor") : text(f, "a", "actor"),
                texts != null ? required(texts[2], "source") : text(f, "s", "source"),
                texts != null ? texts[3] : f.getOrDefault("r", ""));
    }

    /** The first form, one field per value ({@code o f t v c a s r ts n}). */
    private static Read fieldPerValueForm(Map<String, String> f) {
        return new Read(text(f, "o", "order id"), code(f, "f", "from status"), code(f, "t", "target status"),
                number(f, "v", "version"), code(f, "c", "result code"), number(f, "ts", "time"),
                text(f, "a", "actor"), text(f, "s", "source"), f.getOrDefault("r", ""));
    }

    /**
     * Longest texts, in characters, that order_history holds (V5: actor VARCHAR(128), source VARCHAR(32), reason
     * VARCHAR(500), utf8mb4). An entry past them parses but fails the follower's INSERT, and with it the whole
     * batch, every time: it is set aside instead.
     */
    static final int ACTOR_MAX = 128;
    static final int SOURCE_MAX = com.orderconsole.domain.TransitionRequest.MAX_SOURCE;
    static final int REASON_MAX = com.orderconsole.domain.TransitionRequest.MAX_REASON;

    private static String fits(String v, String what, int max) {
        int n = v.codePointCount(0, v.length());
        if (n > max) {
            throw new IllegalArgumentException(what + " is " + n + " characters long; MySQL keeps at most " + max);
        }
        return v;
    }

    private static long idMillis(String streamId) {
        try {
            return split(streamId)[0];
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException("stream id '" + streamId + "' has no time");
        }
    }

    private static String required(String v, String what) {
        if (v == null || v.isEmpty()) {
            throw new IllegalArgumentException(what + " is missing");
        }
        return v;
    }

    /** A number of the entry by the grammar of record numbers ({@link RecordNumber}): what transition.lua writes. */
    private static long number(String v, String what) {
        required(v, what);
        long n = RecordNumber.parse(v);
        if (n < 0) {
            throw new IllegalArgumentException(what + " '" + v + "' is not a canonical whole number");
        }
        return n;
    }

    /** A status or result code: a record number, the result codes also with a minus sign ("-3"). */
    private static int code(String v, String what) {
        boolean negative = v != null && v.startsWith("-");
        long n = number(negative ? v.substring(1) : v, what);
        if (n > 100 || negative && n == 0) {
            throw new IllegalArgumentException(what + " '" + v + "' is out of range");
        }
        return (int) (negative ? -n : n);
    }

    private static String text(Map<String, String> f, String field, String what) {
        String v = f.get(field);
        if (v == null || v.isEmpty()) {
            throw new IllegalArgumentException(what + " is missing");
        }
        return v;
    }

    private static long number(Map<String, String> f, String field, String what) {
        return number(text(f, field, what), what);
    }

    private static int code(Map<String, String> f, String field, String what) {
        return code(text(f, field, what), what);
    }

    private static String body(Map<String, String> f) {
        StringBuilder b = new StringBuilder();
        f.forEach((k, v) -> b.append(b.length() == 0 ? "" : " ").append(k).append('=').append(v));
        return b.toString();
    }

    private static long[] split(String id) {
        int dash = id.indexOf('-');
        return dash < 0 ? new long[]{Long.parseLong(id), 0}
                : new long[]{Long.parseLong(id.substring(0, dash)), Long.parseLong(id.substring(dash + 1))};
    }

    /**
     * Deletes outbox entries older than {@code minId} (exclusive), after counting the ones not counted yet into the
     * bucket's move and rejection counters ({@link OutboxCount}): only call with an id MySQL has.
     */
    public void trim(int bucket, String minId) {
        OutboxCount.run(redis, bucket, minId);
    }

    /** Counts the outbox entries not counted yet into the bucket's move and rejection counters ({@link OutboxCount}). */
    public void count(int bucket) {
        OutboxCount.run(redis, bucket, null);
    }

    /**
     * Counts a batch the follower read into the bucket's counters, from the entries as read (no second parse in Redis),
     * unless some of them were counted already; then the outbox is counted where the counting stands.
     *
     * @param afterId the id the batch was read after ("0-0" for the stream's start)
     * @param batch the entries read after it, in stream order
     */
    public void count(int bucket, String afterId, List<OutboxEntry> batch) {
        if (!batch.isEmpty()) {
            OutboxCount.batch(redis, bucket, afterId, batch.get(batch.size() - 1).streamId(), batch);
        }
    }

    /**
     * Counts a batch the follower read, of which only {@code counted} moves the bucket's counters: the entries it set
     * aside moved nothing MySQL records (issue 33), yet the whole range up to {@code lastId} is counted, so that the trim
     * does not count them later.
     *
     * @param afterId the id the batch was read after ("0-0" for the stream's start)
     * @param lastId the id of the batch's last entry
     * @param counted the entries of the batch that count, in stream order (may be empty)
     */
    public void count(int bucket, String afterId, String lastId, List<OutboxEntry> counted) {
        OutboxCount.batch(redis, bucket, afterId, lastId, counted);
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

    /** @return the time (epoch ms, from the stream id) of the oldest entry after {@code afterId}, or null */
    public Long oldestAfterMs(int bucket, String afterId) {
        Range<String> range = Range.from(Range.Boundary.excluding(afterId), Range.Boundary.unbounded());
        List<StreamMessage<String, String>> msgs = redis.await(async.xrange(RedisKeys.outbox(bucket), range,
                Limit.create(0, 1)), "XRANGE");
        return msgs.isEmpty() ? null : split(msgs.get(0).getId())[0];
    }

    /** @return number of entries in a bucket's outbox stream (applied or not) */
    public long length(int bucket) {
        return redis.await(async.xlen(RedisKeys.outbox(bucket)), "XLEN");
    }
}
