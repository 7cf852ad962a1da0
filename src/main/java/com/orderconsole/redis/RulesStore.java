package com.orderconsole.redis;

import io.lettuce.core.ScriptOutputType;
import io.lettuce.core.cluster.api.async.RedisClusterAsyncCommands;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;

/**
 * The rules in Redis: the JSON document ({@code osm:rules}) and each bucket's copy that transition.lua
 * reads ({@code osm:{bNN}:rules}, written by publish_rules.lua). The data set's own keys are {@link DataSetStore}'s.
 */
public final class RulesStore {
    private final RedisConnection redis;
    private final RedisClusterAsyncCommands<String, String> async;

    RulesStore(RedisConnection redis) {
        this.redis = redis;
        this.async = redis.commands();
    }

    /** @return the rules JSON, or null when the key is absent */
    public String json() {
        return redis.await(async.get(RedisKeys.RULES), "GET " + RedisKeys.RULES);
    }

    /** Stores the rules JSON. */
    public void setJson(String json) {
        redis.await(async.set(RedisKeys.RULES, json), "SET " + RedisKeys.RULES);
    }

    /**
     * Replaces every bucket's copy of the rules (publish_rules.lua, one atomic step per bucket).
     *
     * @param version rules version
     * @param terminal terminal codes, e.g. "5,6"
     * @param edges from code to "to,to" lists
     */
    public void publish(long version, String terminal, Map<Integer, String> edges) {
        List<String> args = new ArrayList<>();
        args.add(Long.toString(version));
        args.add(terminal);
        edges.forEach((from, to) -> {
            args.add(Integer.toString(from));
            args.add(to);
        });
        String[] a = args.toArray(String[]::new);
        List<CompletableFuture<Long>> fs = new ArrayList<>();
        for (int b = 0; b < RedisKeys.buckets(); b++) {
            fs.add(redis.evalAsync(LuaScript.PUBLISH_RULES, ScriptOutputType.INTEGER, new String[]{RedisKeys.rules(b)}, a));
        }
        fs.forEach(f -> redis.await(f, "publish rules"));
    }

    /** @return the rules version held by each bucket's copy (null where absent) */
    public List<Long> publishedVersions() {
        List<CompletableFuture<String>> fs = new ArrayList<>();
        for (int b = 0; b < RedisKeys.buckets(); b++) {
            fs.add(async.hget(RedisKeys.rules(b), "_v").toCompletableFuture());
        }
        List<Long> out = new ArrayList<>();
        fs.forEach(f -> {
            String v = redis.await(f, "HGET rules");
            out.add(v == null ? null : Long.parseLong(v));
        });
        return out;
    }
}
