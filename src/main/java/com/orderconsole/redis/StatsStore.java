package com.orderconsole.redis;

import io.lettuce.core.api.async.RedisAsyncCommands;

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
    private final RedisAsyncCommands<String, String> async;

    StatsStore(RedisConnection redis) {
        this.redis = redis;
        this.async = redis.commands();
    }

    /** @return all counters summed over the buckets */
    public Map<String, Long> all() {
        List<CompletableFuture<Map<String, String>>> fs = new ArrayList<>();
        for (int b = 0; b < RedisKeys.BUCKETS; b++) {
            fs.add(async.hgetall(RedisKeys.stats(b)).toCompletableFuture());
        }
        Map<String, Long> sum = new HashMap<>();
        fs.forEach(f -> redis.await(f, "HGETALL stats").forEach((k, v) -> sum.merge(k, Long.parseLong(v), Long::sum)));
        return sum;
    }
}
