package com.orderconsole.redis;

import com.orderconsole.domain.Failures;
import io.lettuce.core.RedisCommandExecutionException;
import io.lettuce.core.RedisNoScriptException;
import io.lettuce.core.ScriptOutputType;
import io.lettuce.core.cluster.api.async.RedisClusterAsyncCommands;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.EnumMap;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.TimeUnit;

/**
 * Runs the Lua scripts by SHA over a {@code RedisConnection} and keeps them in the script cache of every master:
 * loads them, says which are cached, reloads one after NOSCRIPT (cache flushed, server restarted) and retries a
 * script a cluster refused with TRYAGAIN during a slot migration. Split from {@code RedisConnection} because the
 * scripts' life in the server's cache is its own concern; the connection only carries the commands, handed in as a
 * {@link Server} so that this class does not refer back to the connection that owns it.
 */
final class ScriptRunner {
    /** What the scripts need of a connection (RedisConnection gives it). */
    interface Server {
        /** @return the commands a script runs over (routed by key on a cluster) */
        RedisClusterAsyncCommands<String, String> commands();

        /** @return the masters (the server itself when it is not a cluster), each with its own commands */
        List<Master> masters();

        /** @return true on a Redis Cluster */
        boolean isCluster();

        /** @return the value, waited for at most the command timeout; failures in words */
        <T> T await(CompletionStage<T> f, String what);
    }

    /**
     * One master as the scripts see it.
     *
     * @param where "host:port", for messages
     * @param commands its own commands
     */
    record Master(String where, RedisClusterAsyncCommands<String, String> commands) {
    }

    private final Server redis;
    private final Map<LuaScript, String> shas = new EnumMap<>(LuaScript.class);

    ScriptRunner(Server redis) {
        this.redis = redis;
        for (LuaScript s : LuaScript.values()) {
            shas.put(s, sha1(s.source()));
        }
    }

    /** Loads every script into the script cache of the server (of every master on a cluster); idempotent. */
    void loadScripts() {
        for (Master n : redis.masters()) {
            for (LuaScript s : LuaScript.values()) {
                String sha = redis.await(n.commands().scriptLoad(s.source()), "SCRIPT LOAD " + s.file() + " on " + n.where());
                if (!sha.equals(shas.get(s))) {
                    throw new IllegalStateException("server " + n.where() + " returned SHA " + sha + " for " + s.file()
                            + ", expected " + shas.get(s));
                }
            }
        }
    }

    /** @return per script, whether the script cache of the server (of every master on a cluster) holds it right now */
    Map<LuaScript, Boolean> scriptsCached() {
        LuaScript[] all = LuaScript.values();
        String[] digests = new String[all.length];
        for (int i = 0; i < all.length; i++) {
            digests[i] = shas.get(all[i]);
        }
        Map<LuaScript, Boolean> out = new EnumMap<>(LuaScript.class);
        for (LuaScript s : all) {
            out.put(s, true);
        }
        for (Master n : redis.masters()) {
            List<Boolean> exists = redis.await(n.commands().scriptExists(digests), "SCRIPT EXISTS on " + n.where());
            for (int i = 0; i < all.length; i++) {
                out.merge(all[i], exists.get(i), Boolean::logicalAnd);
            }
        }
        return out;
    }

    /**
     * How often a script refused with TRYAGAIN is sent again, {@link #TRYAGAIN_DELAY_MS} apart: on a
     * cluster, while a slot migrates, a script whose keys are split between the two masters is refused
     * (and not run) until the migration has moved them all; MIGRATE moves a batch in milliseconds.
     */
    private static final int TRYAGAIN_ATTEMPTS = 100;
    private static final long TRYAGAIN_DELAY_MS = 20;

    /**
     * Runs a script by SHA; when the server answers NOSCRIPT (cache flushed, server restarted) it
     * loads the script again (on every master of a cluster) and retries once; when a cluster answers
     * TRYAGAIN (the script's keys are split by a slot migration: nothing ran) it retries for up to 2 s.
     */
    <T> CompletableFuture<T> evalAsync(LuaScript script, ScriptOutputType type, String[] keys, String... args) {
        return evalAsync(script, type, keys, args, 1);
    }

    private <T> CompletableFuture<T> evalAsync(LuaScript script, ScriptOutputType type, String[] keys, String[] args, int attempt) {
        String sha = shas.get(script);
        CompletableFuture<T> first = redis.commands().<T>evalsha(sha, type, keys, args).toCompletableFuture();
        return first.exceptionallyCompose(err -> {
            Throwable cause = Failures.unwrap(err);
            if (cause instanceof RedisNoScriptException) {
                return loadEverywhereAsync(script)
                        .thenCompose(loaded -> redis.commands().<T>evalsha(sha, type, keys, args).toCompletableFuture());
            }
            if (isTryAgain(cause) && attempt < TRYAGAIN_ATTEMPTS) {
                return CompletableFuture.supplyAsync(() -> null,
                                CompletableFuture.delayedExecutor(TRYAGAIN_DELAY_MS, TimeUnit.MILLISECONDS))
                        .thenCompose(x -> this.<T>evalAsync(script, type, keys, args, attempt + 1));
            }
            return CompletableFuture.failedFuture(cause);
        });
    }

    private static boolean isTryAgain(Throwable t) {
        return t instanceof RedisCommandExecutionException && t.getMessage() != null && t.getMessage().startsWith("TRYAGAIN");
    }

    private CompletableFuture<Void> loadEverywhereAsync(LuaScript script) {
        if (!redis.isCluster()) {
            return redis.commands().scriptLoad(script.source()).toCompletableFuture().thenApply(sha -> null);
        }
        List<Master> masters = redis.masters();
        CompletableFuture<?>[] fs = new CompletableFuture<?>[masters.size()];
        for (int i = 0; i < fs.length; i++) {
            fs[i] = masters.get(i).commands().scriptLoad(script.source()).toCompletableFuture();
        }
        return CompletableFuture.allOf(fs);
    }

    private static String sha1(String text) {
        try {
            return HexFormat.of().formatHex(MessageDigest.getInstance("SHA-1").digest(text.getBytes(StandardCharsets.UTF_8)));
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }
}
