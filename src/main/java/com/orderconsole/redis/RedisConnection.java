package com.orderconsole.redis;

import io.lettuce.core.ClientOptions;
import io.lettuce.core.RedisClient;
import io.lettuce.core.RedisCommandExecutionException;
import io.lettuce.core.RedisCommandTimeoutException;
import io.lettuce.core.RedisException;
import io.lettuce.core.RedisNoScriptException;
import io.lettuce.core.RedisURI;
import io.lettuce.core.ScriptOutputType;
import io.lettuce.core.SocketOptions;
import io.lettuce.core.TimeoutOptions;
import io.lettuce.core.api.StatefulRedisConnection;
import io.lettuce.core.api.async.RedisAsyncCommands;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.time.Duration;
import java.util.EnumMap;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/**
 * The connection to Redis and the Lua scripts: run by SHA, reloaded once after a script-cache loss
 * (NOSCRIPT). The stores of this package share one connection; commands from all threads are pipelined
 * by Lettuce.
 *
 * <p>Naming rule of the package: a method that returns a {@link CompletableFuture} ends in
 * {@code Async}; every other method blocks at most the command timeout and then throws
 * {@link RedisUnavailableException}. Times are epoch milliseconds from the Redis server clock.
 */
public final class RedisConnection implements AutoCloseable {
    private final RedisClient client;
    private final StatefulRedisConnection<String, String> connection;
    private final RedisAsyncCommands<String, String> async;
    private final Duration timeout;
    private final String where;
    private final Map<LuaScript, String> shas = new EnumMap<>(LuaScript.class);
    /** False for a {@link #separate} connection: the client belongs to the connection it was made from. */
    private final boolean ownsClient;

    private RedisConnection(RedisClient client, StatefulRedisConnection<String, String> connection, Duration timeout,
                            String where) {
        this(client, connection, timeout, where, true);
    }

    private RedisConnection(RedisClient client, StatefulRedisConnection<String, String> connection, Duration timeout,
                            String where, boolean ownsClient) {
        this.ownsClient = ownsClient;
        this.client = client;
        this.connection = connection;
        this.async = connection.async();
        this.timeout = timeout;
        this.where = where;
        for (LuaScript s : LuaScript.values()) {
            shas.put(s, sha1(s.source()));
        }
    }

    /**
     * Connects and loads every script into the server's script cache.
     *
     * @param uri a Redis URI ({@code redis://host:port/db}, {@code rediss://} for TLS, password in the URI)
     * @param commandTimeout how long one command may take before it fails
     * @return a connected Redis
     * @throws RedisUnavailableException when the server cannot be reached
     */
    static RedisConnection connect(String uri, Duration commandTimeout) {
        RedisURI redisUri;
        try {
            redisUri = RedisURI.create(uri);
        } catch (RuntimeException e) {
            throw new IllegalArgumentException("'" + uri + "' is not a Redis URI: expected redis://host:port/db, "
                    + "rediss://host:port/db for TLS, with user and password as redis://user:password@host:port");
        }
        redisUri.setTimeout(commandTimeout);
        RedisClient client = RedisClient.create(redisUri);
        client.setOptions(ClientOptions.builder()
                .autoReconnect(true)
                // Fail fast while disconnected instead of queueing commands for a server that is gone.
                .disconnectedBehavior(ClientOptions.DisconnectedBehavior.REJECT_COMMANDS)
                .timeoutOptions(TimeoutOptions.enabled(commandTimeout))
                .socketOptions(SocketOptions.builder().connectTimeout(commandTimeout).keepAlive(true).build())
                .build());
        String where = redisUri.getHost() + ":" + redisUri.getPort();
        try {
            StatefulRedisConnection<String, String> conn = client.connect();
            RedisConnection redis = new RedisConnection(client, conn, commandTimeout, where);
            try {
                redis.loadScripts();
            } catch (RedisRefusedException e) {
                // A read-only session's Redis user may not touch scripts (ACL -@scripting); it can still read.
            }
            return redis;
        } catch (RedisException e) {
            client.shutdown();
            throw new RedisUnavailableException("cannot connect to Redis at " + where + ": " + rootMessage(e), e);
        }
    }

    /**
     * A second connection to the same server with the same options, for work whose commands must not
     * queue in front of others' (the cancel sweeper's batches ahead of payments: Redis answers one
     * connection's pipeline in order). Closed with this connection's client.
     *
     * @throws RedisUnavailableException when the server cannot be reached
     */
    public RedisConnection separate() {
        try {
            return new RedisConnection(client, client.connect(), timeout, where, false);
        } catch (RedisException e) {
            throw new RedisUnavailableException("cannot connect to Redis at " + where + ": " + rootMessage(e), e);
        }
    }

    /** Loads every script into the server's cache (SCRIPT LOAD); idempotent. */
    public void loadScripts() {
        for (LuaScript s : LuaScript.values()) {
            String sha = await(async.scriptLoad(s.source()), "SCRIPT LOAD " + s.file());
            if (!sha.equals(shas.get(s))) {
                throw new IllegalStateException("server returned SHA " + sha + " for " + s.file() + ", expected " + shas.get(s));
            }
        }
    }

    /** @return per script, whether the server's script cache holds it right now */
    public Map<LuaScript, Boolean> scriptsCached() {
        LuaScript[] all = LuaScript.values();
        String[] digests = new String[all.length];
        for (int i = 0; i < all.length; i++) {
            digests[i] = shas.get(all[i]);
        }
        List<Boolean> exists = await(async.scriptExists(digests), "SCRIPT EXISTS");
        Map<LuaScript, Boolean> out = new EnumMap<>(LuaScript.class);
        for (int i = 0; i < all.length; i++) {
            out.put(all[i], exists.get(i));
        }
        return out;
    }

    /**
     * Runs a script by SHA; when the server answers NOSCRIPT (cache flushed, server restarted) it
     * loads the script again and retries once.
     */
    <T> CompletableFuture<T> evalAsync(LuaScript script, ScriptOutputType type, String[] keys, String... args) {
        String sha = shas.get(script);
        CompletableFuture<T> first = async.<T>evalsha(sha, type, keys, args).toCompletableFuture();
        return first.exceptionallyCompose(err -> {
            Throwable cause = err instanceof CompletionException && err.getCause() != null ? err.getCause() : err;
            if (cause instanceof RedisNoScriptException) {
                return async.scriptLoad(script.source()).toCompletableFuture()
                        .thenCompose(loaded -> async.<T>evalsha(sha, type, keys, args).toCompletableFuture());
            }
            return CompletableFuture.failedFuture(cause);
        });
    }

    /** The commands of the shared connection, for the stores of this package. */
    RedisAsyncCommands<String, String> commands() {
        return async;
    }

    /** @return the Redis server clock, epoch milliseconds: the one time source of the product */
    public long nowMs() {
        List<String> t = await(async.time(), "TIME");
        return Long.parseLong(t.get(0)) * 1000 + Long.parseLong(t.get(1)) / 1000;
    }

    /** @return the value of a server config parameter (CONFIG GET), or null when unavailable */
    public String configGet(String name) {
        try {
            Map<String, String> m = await(async.configGet(name), "CONFIG GET " + name);
            return m.get(name);
        } catch (RedisUnavailableException e) {
            throw e;
        } catch (RuntimeException e) {
            return null; // managed Redis services often disable CONFIG
        }
    }

    /** @return true when the server answers PING within the command timeout */
    public boolean ping() {
        try {
            return "PONG".equals(await(async.ping(), "PING"));
        } catch (RuntimeException e) {
            return false;
        }
    }

    /** @return "host:port" of the server, for messages (never includes a password) */
    public String where() {
        return where;
    }

    /**
     * Waits for a future of this package at most the command timeout, turning failures into readable errors.
     *
     * @param f a future returned by an {@code xxxAsync} method
     * @param what the call in words, for the error, e.g. "transition o-1"
     * @return the future's value
     * @throws RedisUnavailableException when Redis did not answer in time or the connection failed
     */
    public <T> T await(CompletionStage<T> f, String what) {
        try {
            return f.toCompletableFuture().get(timeout.toMillis() + 500, TimeUnit.MILLISECONDS);
        } catch (TimeoutException e) {
            throw new RedisUnavailableException("Redis at " + where + " did not answer " + what + " within "
                    + timeout.toMillis() + " ms", e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new RedisUnavailableException("interrupted while waiting for Redis (" + what + ")", e);
        } catch (ExecutionException e) {
            throw translate(e.getCause(), what);
        }
    }

    /** Maps a Lettuce failure to an exception with a message for people. */
    private RuntimeException translate(Throwable cause, String what) {
        if (cause instanceof CompletionException && cause.getCause() != null) {
            cause = cause.getCause();
        }
        if (cause instanceof RedisCommandTimeoutException) {
            return new RedisUnavailableException("Redis at " + where + " did not answer " + what + " within "
                    + timeout.toMillis() + " ms", cause);
        }
        if (cause instanceof RedisCommandExecutionException re) {
            if (re.getMessage() != null && re.getMessage().startsWith("NOPERM")) {
                return new RedisRefusedException("Redis at " + where + " refused " + what
                        + ": the Redis user of this session may not run it (its ACL does not allow it)", re);
            }
            return re; // the server answered with an error: not an availability problem
        }
        if (cause instanceof RedisException || cause instanceof java.io.IOException) {
            // Connection refused, reset, closed or disconnected while the command was in flight.
            return new RedisUnavailableException("Redis at " + where + " is unreachable (" + what + "): "
                    + rootMessage(cause), cause);
        }
        if (cause instanceof RuntimeException re) {
            return re;
        }
        return new RedisUnavailableException("Redis " + what + " failed: " + rootMessage(cause), cause);
    }

    private static String rootMessage(Throwable t) {
        Throwable r = t;
        while (r.getCause() != null && r.getCause() != r) {
            r = r.getCause();
        }
        return r.getMessage() == null ? r.getClass().getSimpleName() : r.getMessage();
    }

    private static String sha1(String text) {
        try {
            return HexFormat.of().formatHex(MessageDigest.getInstance("SHA-1").digest(text.getBytes(StandardCharsets.UTF_8)));
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }

    @Override
    public void close() {
        connection.close();
        if (ownsClient) {
            client.shutdown(Duration.ZERO, Duration.ofSeconds(2));
        }
    }
}
