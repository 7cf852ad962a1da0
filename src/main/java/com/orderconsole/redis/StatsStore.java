package com.orderconsole.redis;

import io.lettuce.core.cluster.api.async.RedisClusterAsyncCommands;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;

/**
 * The counters the scripts keep per bucket ({@code osm:{bNN}:stats}): per result code {@code c:<code>},
 * per applied edge {@code e:<from>><to>}, per rejected edge {@code r:<from>><to>:<code>}, live orders
 * per status {@code n:<status>}.
 */
public final class StatsStore {
    private final RedisConnection redis;
    private final RedisClusterAsyncCommands<String, String> async;

    StatsStore(RedisConnection redis) {
        this.redis = redis;
        this.async = redis.commands();
    }

    /** @return live orders per status code of one bucket, as the counters say (codes without a counter absent) */
    public Map<Integer, Long> statusCounts(int bucket) {
        Map<Integer, Long> out = new HashMap<>();
        redis.await(async.hgetall(RedisKeys.stats(bucket)), "HGETALL stats").forEach((k, v) -> {
            if (k.startsWith("n:")) {
                out.put(Integer.parseInt(k.substring(2)), Long.parseLong(v));
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
        Map<String, String> fields = new HashMap<>();
        for (int code = 1; code <= 6; code++) {
            fields.put("n:" + code, Long.toString(counts.getOrDefault(code, 0L)));
        }
        redis.await(async.hset(RedisKeys.stats(bucket), fields), "HSET stats");
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
            if (k.startsWith("c:")) {
                return;
            }
            out.put(k, v);
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
        return out;
    }

    /** Result codes transition.lua counts through an edge counter (applied e:, rejected r:), not under c:. */
    private static final java.util.Set<String> EDGE_CODES = java.util.Set.of("c:1", "c:0", "c:-2", "c:-3", "c:-4");

    private Map<String, Long> raw() {
        List<CompletableFuture<Map<String, String>>> fs = new ArrayList<>();
        for (int b = 0; b < RedisKeys.buckets(); b++) {
            fs.add(async.hgetall(RedisKeys.stats(b)).toCompletableFuture());
        }
        Map<String, Long> sum = new HashMap<>();
        fs.forEach(f -> redis.await(f, "HGETALL stats").forEach((k, v) -> sum.merge(k, Long.parseLong(v), Long::sum)));
        return sum;
    }
}
