package com.orderconsole.redis;

import io.lettuce.core.ScriptOutputType;

import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * Runs count_outbox.lua: adds a bucket's outbox entries not counted yet to its move and rejection counters and
 * optionally trims the outbox behind them, in one atomic step; and adds up, for a reader, what is not counted yet.
 *
 * <p>Why the counting is here and not in transition.lua: the per-edge counter write was a ninth of the
 * script's server cost (issue 15.3, callgrind). The count is as exact as before for every reader, because
 * readers add up what is pending when they read, and the follower never trims an entry uncounted.
 */
final class OutboxCount {
    /**
     * Entries counted per script call: at about 5 µs an entry (issue 15's follower benchmark) a millisecond of server
     * time, so counting never holds Redis long enough to show in a payment's p99 (issue 15.5's 20 ms); callers loop.
     */
    static final int PER_CALL = 200;

    /** Calls before a caller gives up on a bucket that takes entries faster than they are counted. */
    private static final int MAX_CALLS = 10_000;

    private OutboxCount() {
    }

    /**
     * Counts what is pending in one bucket (in calls of {@link #PER_CALL} entries): all of it, or with {@code trimTo}
     * up to that id, then deletes the entries before it.
     *
     * @param trimTo delete entries before this stream id once they are counted, or null for no trim
     * @throws IllegalStateException when the bucket's entries arrive faster than they can be counted
     */
    static void run(RedisConnection redis, int bucket, String trimTo) {
        run(redis, bucket, trimTo, null, null, List.of());
    }

    /**
     * Hands the script the counts of a batch the follower read, which it takes when the counting stands where the
     * batch starts; otherwise it counts what of the batch is uncounted from the stream.
     *
     * @param afterId the id the batch was read after ("0-0" for the stream's start)
     * @param lastId the id of the batch's last entry: the range counted ends there
     * @param batch the entries of the range to add to the counters, in stream order
     */
    static void batch(RedisConnection redis, int bucket, String afterId, String lastId, List<OutboxEntry> batch) {
        Map<String, Long> add = new HashMap<>();
        for (OutboxEntry e : batch) {
            String k = counter(e.body().startsWith("e=") ? e.body().substring(2) : null);
            if (k != null) {
                add.merge(k, 1L, Long::sum);
            }
        }
        List<String> pairs = new java.util.ArrayList<>(2 * add.size());
        add.forEach((k, n) -> {
            pairs.add(k);
            pairs.add(Long.toString(n));
        });
        run(redis, bucket, null, afterId, lastId, pairs);
    }

    private static void run(RedisConnection redis, int bucket, String trimTo, String afterId, String lastId, List<String> pairs) {
        String[] keys = {RedisKeys.stats(bucket), RedisKeys.outbox(bucket)};
        List<String> args = new java.util.ArrayList<>(List.of(Integer.toString(PER_CALL), trimTo == null ? "" : trimTo));
        if (afterId != null) { // on every call: it bounds the counting to the batch (its counts are taken once at most)
            args.add(afterId);
            args.add(lastId);
            args.addAll(pairs);
        }
        String[] argv = args.toArray(new String[0]);
        for (int call = 0; call < MAX_CALLS; call++) {
            Long left = redis.await(redis.evalAsync(LuaScript.COUNT_OUTBOX, ScriptOutputType.INTEGER, keys, argv), "count outbox");
            if (left == 0) {
                return;
            }
        }
        throw new IllegalStateException("Redis bucket " + bucket + " takes transitions faster than its outbox can be counted");
    }

    /** @return the counter a one-field entry adds to (count_outbox.lua's reading of it), or null when it adds to none */
    private static String counter(String e) {
        java.util.regex.Matcher f = e == null ? null : ENTRY.matcher(e);
        if (f == null || !f.lookingAt()) {
            return null;
        }
        return "1".equals(f.group(3)) ? "m:" + f.group(1) + ">" + f.group(2) : "r:" + f.group(1) + ">" + f.group(2) + ":" + f.group(3);
    }

    /**
     * The counters of one bucket as {@link #run} would leave them, written down by no one: the entries not counted
     * yet are added up here. A reader writes nothing, so it needs no script (the DBA guide's read-only Redis user reads
     * too) and never moves the counting ahead of the follower, whose batches are then counted from what it parsed
     * anyway. Few are pending: the follower counts every batch it reads and, while MySQL is down, every bucket.
     */
    static Map<String, Long> read(RedisConnection redis, int bucket) {
        var async = redis.commands();
        Map<String, Long> counters = new HashMap<>();
        String x = null;
        for (Map.Entry<String, String> e : redis.await(async.hgetall(RedisKeys.stats(bucket)), "HGETALL stats").entrySet()) {
            if ("x".equals(e.getKey())) {
                x = e.getValue();
            } else {
                counters.put(e.getKey(), Long.parseLong(e.getValue()));
            }
        }
        // In pages: with no follower running anywhere (MySQL down, only the CLI reading) the tail is the whole backlog,
        // and one XRANGE of it would hold the server and this heap for all of it at once.
        List<io.lettuce.core.StreamMessage<String, String>> page;
        do {
            io.lettuce.core.Range<String> range = x == null ? io.lettuce.core.Range.create("-", "+")
                    : io.lettuce.core.Range.from(io.lettuce.core.Range.Boundary.excluding(x), io.lettuce.core.Range.Boundary.unbounded());
            page = redis.await(async.xrange(RedisKeys.outbox(bucket), range, io.lettuce.core.Limit.create(0, READ_PAGE)), "XRANGE");
            for (io.lettuce.core.StreamMessage<String, String> m : page) {
                String k = m.getBody().isEmpty() || !"e".equals(m.getBody().keySet().iterator().next()) ? null : counter(m.getBody().get("e"));
                if (k != null) {
                    counters.merge(k, 1L, Long::sum);
                }
                x = m.getId();
            }
        } while (page.size() == READ_PAGE);
        return counters;
    }

    /** Uncounted entries a reader fetches per XRANGE (package-private for the test that reads past a page). */
    static final int READ_PAGE = 1000;

    /** count_outbox.lua's reading of an entry: from, to and code of "order,from,to,version,code\n…". */
    private static final java.util.regex.Pattern ENTRY = java.util.regex.Pattern.compile("[^,\\n]*,(\\d+),(\\d+),\\d+,(-?\\d+)\\n");

}
