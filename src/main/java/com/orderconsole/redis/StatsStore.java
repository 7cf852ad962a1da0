package com.orderconsole.redis;

import io.lettuce.core.api.async.RedisAsyncCommands;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;

/**
 * The counters the scripts keep per bucket ({@code osm:{bNN}:stats}): per result code {@code c:<code>},
 * per applied edge {@code m:<from>><to>} (and {@code e:<from>><to>} from scripts before issue 15), per
 * rejected edge {@code r:<from>><to>:<code>}, and per status {@code n:<status>}.
 *
 * <p>Live orders per status: transition.lua no longer moves {@code n:} on every call (two counter writes
 * fewer per transition); a live count is {@code n:<s>} (orders created, rebuilt, forgotten and repaired in
 * s) plus the {@code m:} moves into s minus those out of s. The earlier scripts moved {@code n:} together
 * with {@code e:}, so a bucket counted before an upgrade stays right: its {@code e:} are not in the net.
 * Readers see the derived {@code n:} and one {@code e:} per edge ({@code e:} + {@code m:}).
 */
public final class StatsStore {
    private final RedisConnection redis;
    private final RedisAsyncCommands<String, String> async;

    StatsStore(RedisConnection redis) {
        this.redis = redis;
        this.async = redis.commands();
    }

    /**
     * @return live orders per status code of one bucket, as the counters say ({@code n:} plus the net of
     *     the {@code m:} moves; codes with neither absent)
     */
    public Map<Integer, Long> statusCounts(int bucket) {
        Map<String, Long> raw = new HashMap<>();
        redis.await(async.hgetall(RedisKeys.stats(bucket)), "HGETALL stats").forEach((k, v) -> raw.put(k, Long.parseLong(v)));
        Map<Integer, Long> out = new HashMap<>();
        live(raw).forEach((k, v) -> out.put(Integer.parseInt(k.substring(2)), v));
        return out;
    }

    /** @return {@code n:<s>} to live count: n: plus moves in minus moves out (m: fields), from raw counters */
    private static Map<String, Long> live(Map<String, Long> raw) {
        Map<String, Long> out = new HashMap<>();
        raw.forEach((k, v) -> {
            if (k.startsWith("n:")) {
                out.merge(k, v, Long::sum);
            } else if (k.startsWith("m:")) {
                int gt = k.indexOf('>');
                out.merge("n:" + k.substring(2, gt), -v, Long::sum);
                out.merge("n:" + k.substring(gt + 1), v, Long::sum);
            }
        });
        return out;
    }

    /**
     * Overwrites one bucket's live per-status counters with counted values (reconciliation's repair);
     * the other counters, and the outbox sequence number, are left as they are.
     *
     * @param counts status code to live orders; codes 1..6 absent are set to 0
     */
    public void setStatusCounts(int bucket, Map<Integer, Long> counts) {
        String[] args = new String[6];
        for (int code = 1; code <= 6; code++) {
            args[code - 1] = Long.toString(counts.getOrDefault(code, 0L));
        }
        // In one step with the moves (set_status_counts.lua), so that a transition meanwhile is not lost.
        redis.await(redis.evalAsync(LuaScript.SET_STATUS_COUNTS, io.lettuce.core.ScriptOutputType.INTEGER,
                new String[]{RedisKeys.stats(bucket)}, args), "set status counts");
    }

    /**
     * @return all counters summed over the buckets. Per result code ({@code c:<code>}): transition.lua
     *     counts edges only ({@code e:} applied, {@code r:...:<code>} rejected) and {@code c:} only for the
     *     codes without an edge (-1, -6), so {@code c:1} and the rejection codes are added up here from
     *     the edges (which every version of the script kept together with {@code c:}, so the sum is exact
     *     for counters written before this change too)
     */
    public Map<String, Long> all() {
        Map<String, Long> raw = raw();
        Map<String, Long> out = new HashMap<>();
        Map<String, Long> perCode = new HashMap<>();
        raw.forEach((k, v) -> {
            if (k.startsWith("c:") || k.startsWith("n:")) {
                return;
            }
            if (k.startsWith("m:")) {
                k = "e:" + k.substring(2);
            }
            out.merge(k, v, Long::sum);
            if (k.startsWith("e:")) {
                perCode.merge("c:1", v, Long::sum);
            } else if (k.startsWith("r:")) {
                perCode.merge("c:" + k.substring(k.lastIndexOf(':') + 1), v, Long::sum);
            }
        });
        raw.forEach((k, v) -> {
            if (k.startsWith("c:") && !EDGE_CODES.contains(k)) {
                out.put(k, v);
            }
        });
        perCode.forEach((k, v) -> out.merge(k, v, Long::sum));
        out.putAll(live(raw));
        return out;
    }

    /** Result codes transition.lua counts through an edge counter (applied e:, rejected r:), not under c:. */
    private static final java.util.Set<String> EDGE_CODES = java.util.Set.of("c:1", "c:0", "c:-2", "c:-3", "c:-4");

    private Map<String, Long> raw() {
        List<CompletableFuture<Map<String, String>>> fs = new ArrayList<>();
        for (int b = 0; b < RedisKeys.BUCKETS; b++) {
            fs.add(async.hgetall(RedisKeys.stats(b)).toCompletableFuture());
        }
        Map<String, Long> sum = new HashMap<>();
        fs.forEach(f -> redis.await(f, "HGETALL stats").forEach((k, v) -> sum.merge(k, Long.parseLong(v), Long::sum)));
        return sum;
    }
}
