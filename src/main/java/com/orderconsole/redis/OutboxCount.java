package com.orderconsole.redis;

import io.lettuce.core.ScriptOutputType;

import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * Runs count_outbox.lua: adds a bucket's outbox entries not counted yet to its move and rejection counters,
 * optionally trims the outbox behind them, and optionally reads the counters, all in one atomic step.
 *
 * <p>Why the counting is here and not in transition.lua: the per-edge counter write was a ninth of the
 * script's server cost (issue 15.3, callgrind). The count is as exact as before for every reader, because
 * readers count what is pending before they read, and the follower never trims an entry uncounted.
 */
final class OutboxCount {
    /**
     * Entries counted per script call: about a millisecond of server time, so a reader or the follower never
     * holds Redis long enough to show in a payment's p99 (issue 15.5's 20 ms target); callers loop.
     */
    static final int PER_CALL = 1000;

    /** Calls before a caller gives up on a bucket that takes entries faster than they are counted. */
    private static final int MAX_CALLS = 10_000;

    private OutboxCount() {
    }

    /**
     * @param countedId the stream id of the last entry counted, or null when none ever was
     * @param trimmedTo the id the outbox was trimmed to (entries before it deleted), or null when not trimmed
     * @param counters the bucket's raw counters, {@code x} left out (empty unless asked for)
     */
    record Result(String countedId, String trimmedTo, Map<String, Long> counters) {
    }

    /**
     * Counts everything pending in one bucket (in calls of {@link #PER_CALL} entries), then trims and reads.
     *
     * @param trimTo delete entries before this stream id once they are counted, or null for no trim
     * @param read whether to return the counters
     * @throws IllegalStateException when the bucket's entries arrive faster than they can be counted
     */
    static Result run(RedisConnection redis, int bucket, String trimTo, boolean read) {
        return run(redis, bucket, trimTo, read, null, null, List.of());
    }

    /**
     * Hands the script the counts of a batch the follower read, which it takes when the counting stands where the
     * batch starts; otherwise it counts the stream itself, as {@link #run(RedisConnection, int, String, boolean)}.
     *
     * @param afterId the id the batch was read after ("0-0" for the stream's start)
     * @param batch the entries read after it, in stream order, not empty
     */
    static void batch(RedisConnection redis, int bucket, String afterId, List<OutboxEntry> batch) {
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
        run(redis, bucket, null, false, afterId, batch.get(batch.size() - 1).streamId(), pairs);
    }

    private static Result run(RedisConnection redis, int bucket, String trimTo, boolean read, String afterId, String lastId,
                              List<String> pairs) {
        String[] keys = {RedisKeys.stats(bucket), RedisKeys.outbox(bucket)};
        for (int call = 0; call < MAX_CALLS; call++) {
            List<String> args = new java.util.ArrayList<>(List.of(Integer.toString(PER_CALL), trimTo == null ? "" : trimTo, read ? "1" : "0"));
            if (call == 0 && afterId != null) {
                args.add(afterId);
                args.add(lastId);
                args.addAll(pairs);
            }
            List<Object> reply = redis.await(redis.evalAsync(LuaScript.COUNT_OUTBOX, ScriptOutputType.MULTI, keys,
                    args.toArray(new String[0])), "count outbox");
            if (!"0".equals(text(reply.get(2)))) {
                continue; // more to count: the trim and the counters are read on the call that finishes
            }
            Map<String, Long> counters = new HashMap<>();
            for (int i = 3; i + 1 < reply.size(); i += 2) {
                String k = text(reply.get(i));
                if (!"x".equals(k)) {
                    counters.put(k, Long.parseLong(text(reply.get(i + 1))));
                }
            }
            String counted = text(reply.get(0));
            String trimmed = text(reply.get(1));
            return new Result(counted.isEmpty() ? null : counted, trimmed.isEmpty() ? null : trimmed, counters);
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
     * The counters of one bucket as {@link #run} would leave them, for a session whose Redis user may not run scripts
     * (the README's read-only user): the entries not counted yet are added up here and nothing is written. Few are
     * pending, since the follower counts every bucket on each of its rounds, with or without MySQL.
     */
    static Map<String, Long> readOnly(RedisConnection redis, int bucket) {
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
        io.lettuce.core.Range<String> range = x == null ? io.lettuce.core.Range.create("-", "+")
                : io.lettuce.core.Range.from(io.lettuce.core.Range.Boundary.excluding(x), io.lettuce.core.Range.Boundary.unbounded());
        for (io.lettuce.core.StreamMessage<String, String> m : redis.await(async.xrange(RedisKeys.outbox(bucket), range), "XRANGE")) {
            String k = m.getBody().isEmpty() || !"e".equals(m.getBody().keySet().iterator().next()) ? null : counter(m.getBody().get("e"));
            if (k != null) {
                counters.merge(k, 1L, Long::sum);
            }
        }
        return counters;
    }

    /** count_outbox.lua's reading of an entry: from, to and code of "order,from,to,version,code\n…". */
    private static final java.util.regex.Pattern ENTRY = java.util.regex.Pattern.compile("[^,\\n]*,(\\d+),(\\d+),\\d+,(-?\\d+)\\n");

    private static String text(Object o) {
        return o instanceof byte[] b ? new String(b, java.nio.charset.StandardCharsets.UTF_8) : String.valueOf(o);
    }
}
