package com.orderconsole.redis;

import com.orderconsole.domain.HistoryEntry;
import com.orderconsole.domain.OrderState;
import com.orderconsole.domain.OrderStatus;
import com.orderconsole.domain.ResultCode;
import com.orderconsole.domain.TransitionRequest;
import com.orderconsole.domain.TransitionResult;
import io.lettuce.core.ClientOptions;
import io.lettuce.core.KeyScanCursor;
import io.lettuce.core.Limit;
import io.lettuce.core.Range;
import io.lettuce.core.RedisClient;
import io.lettuce.core.RedisCommandExecutionException;
import io.lettuce.core.RedisCommandTimeoutException;
import io.lettuce.core.RedisConnectionException;
import io.lettuce.core.RedisException;
import io.lettuce.core.RedisNoScriptException;
import io.lettuce.core.RedisURI;
import io.lettuce.core.ScanArgs;
import io.lettuce.core.ScanCursor;
import io.lettuce.core.ScoredValue;
import io.lettuce.core.ScriptOutputType;
import io.lettuce.core.SocketOptions;
import io.lettuce.core.StreamMessage;
import io.lettuce.core.TimeoutOptions;
import io.lettuce.core.XTrimArgs;
import io.lettuce.core.api.StatefulRedisConnection;
import io.lettuce.core.api.async.RedisAsyncCommands;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.HashMap;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.function.Consumer;

/**
 * All Redis access of the product: the Lua scripts (run by SHA, reloaded after a script-cache loss),
 * order state reads, the cancel queue, the outbox streams, rules and counters.
 *
 * <p>One Lettuce connection is shared by all threads; commands are pipelined by Lettuce. Every
 * blocking method waits at most the command timeout and then throws {@link RedisUnavailableException}.
 * Times are epoch milliseconds from the Redis server clock.
 */
public final class RedisStateStore implements AutoCloseable {
    private final RedisClient client;
    private final StatefulRedisConnection<String, String> connection;
    private final RedisAsyncCommands<String, String> async;
    private final Duration timeout;
    private final String where;
    private final Map<LuaScript, String> shas = new EnumMap<>(LuaScript.class);

    private RedisStateStore(RedisClient client, StatefulRedisConnection<String, String> connection, Duration timeout,
                            String where) {
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
     * @return a connected store
     * @throws RedisUnavailableException when the server cannot be reached
     */
    public static RedisStateStore connect(String uri, Duration commandTimeout) {
        RedisURI redisUri = RedisURI.create(uri);
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
            RedisStateStore store = new RedisStateStore(client, conn, commandTimeout, where);
            store.loadScripts();
            return store;
        } catch (RedisException e) {
            client.shutdown();
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
    private <T> CompletableFuture<T> eval(LuaScript script, ScriptOutputType type, String[] keys, String... args) {
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

    // ---------------------------------------------------------------- transitions and state

    /**
     * Runs transition.lua for one request.
     *
     * @param request what to do
     * @param actor who does it (written to the outbox)
     * @return the outcome; completes exceptionally when Redis fails
     */
    public CompletableFuture<TransitionResult> transition(TransitionRequest request, String actor) {
        String id = request.orderId();
        int b = RedisKeys.bucket(id);
        String[] keys = {RedisKeys.order(id), RedisKeys.rules(b), RedisKeys.outbox(b), RedisKeys.cancelQueue(b),
                RedisKeys.stats(b)};
        CompletableFuture<List<Object>> f = eval(LuaScript.TRANSITION, ScriptOutputType.MULTI, keys,
                id, Integer.toString(request.target().code()),
                request.expectedVersion() == null ? "" : Long.toString(request.expectedVersion()),
                request.override() ? "1" : "0", actor, request.source(), request.reason());
        return f.thenApply(r -> {
            int code = ((Long) r.get(0)).intValue();
            int from = ((Long) r.get(1)).intValue();
            return new TransitionResult(id, ResultCode.ofCode(code), from == 0 ? null : OrderStatus.ofCode(from),
                    request.target(), (Long) r.get(2), (Long) r.get(3));
        });
    }

    /**
     * Runs init_order.lua: creates the order's state (and queue entry when WAIT_PAY and an expiry is
     * given) unless state already exists.
     *
     * @param state the state to create
     * @param expireAtMs cancel-queue expiry, epoch ms, or null for none
     * @return true when created, false when state already existed (left untouched)
     */
    public CompletableFuture<Boolean> initOrder(OrderState state, Long expireAtMs) {
        String id = state.orderId();
        int b = RedisKeys.bucket(id);
        String[] keys = {RedisKeys.order(id), RedisKeys.cancelQueue(b), RedisKeys.stats(b)};
        CompletableFuture<List<Object>> f = eval(LuaScript.INIT_ORDER, ScriptOutputType.MULTI, keys,
                id, Integer.toString(state.status().code()), Long.toString(state.version()),
                Long.toString(state.updateTimeMs()), Long.toString(state.createTimeMs()),
                expireAtMs == null ? "" : Long.toString(expireAtMs));
        return f.thenApply(r -> ((Long) r.get(0)) == 1L);
    }

    /** Blocking {@link #initOrder}. */
    public boolean initOrderSync(OrderState state, Long expireAtMs) {
        return await(initOrder(state, expireAtMs), "init order " + state.orderId());
    }

    /**
     * Reads one order's state.
     *
     * @param orderId a validated id
     * @return the state, or null when Redis has none
     */
    public CompletableFuture<OrderState> get(String orderId) {
        return async.hgetall(RedisKeys.order(orderId)).toCompletableFuture().thenApply(m -> toState(orderId, m));
    }

    /** Blocking {@link #get}. */
    public OrderState getSync(String orderId) {
        return await(get(orderId), "HGETALL order " + orderId);
    }

    /**
     * Reads many orders in one pipelined round.
     *
     * @param orderIds validated ids
     * @return id to state; ids without Redis state map to null
     */
    public Map<String, OrderState> getAll(List<String> orderIds) {
        List<CompletableFuture<OrderState>> fs = new ArrayList<>(orderIds.size());
        for (String id : orderIds) {
            fs.add(get(id));
        }
        Map<String, OrderState> out = new LinkedHashMap<>();
        for (int i = 0; i < orderIds.size(); i++) {
            out.put(orderIds.get(i), await(fs.get(i), "HGETALL"));
        }
        return out;
    }

    private static OrderState toState(String orderId, Map<String, String> m) {
        if (m == null || m.isEmpty() || m.get("status") == null) {
            return null;
        }
        return new OrderState(orderId, OrderStatus.ofCode(Integer.parseInt(m.get("status"))),
                Long.parseLong(m.getOrDefault("version", "0")), Long.parseLong(m.getOrDefault("updateTime", "0")),
                Long.parseLong(m.getOrDefault("createTime", m.getOrDefault("updateTime", "0"))));
    }

    /**
     * Deletes an order's Redis state and queue entry, keeping the live status count right. Used by
     * reconciliation repair before rebuilding an order from a newer MySQL record, and by fault drills.
     */
    public void forgetOrder(String orderId) {
        OrderState st = getSync(orderId);
        if (st == null) {
            return;
        }
        if (await(async.del(RedisKeys.order(orderId)), "DEL") > 0) {
            adjustStatusCount(orderId, st.status(), -1);
        }
        await(async.zrem(RedisKeys.cancelQueue(RedisKeys.bucket(orderId)), orderId), "ZREM");
    }

    /** @return the Redis server clock, epoch milliseconds */
    public long nowMs() {
        List<String> t = await(async.time(), "TIME");
        return Long.parseLong(t.get(0)) * 1000 + Long.parseLong(t.get(1)) / 1000;
    }

    /**
     * Visits every order key with one SCAN pass (cursor-based: memory stays flat at any size) and
     * reads the states in pipelined pages. On Redis Cluster this would run once per master.
     *
     * @param pageSize keys SCAN visits per round, e.g. 1000
     * @param page called with each page of states (orders deleted meanwhile are skipped)
     */
    public void scanOrders(int pageSize, Consumer<List<OrderState>> page) {
        // '{' and '}' are literal in SCAN patterns; '?' matches the two bucket digits.
        ScanArgs args = ScanArgs.Builder.matches("osm:{b??}:order:*").limit(pageSize);
        ScanCursor cursor = ScanCursor.INITIAL;
        do {
            KeyScanCursor<String> c = await(async.scan(cursor, args), "SCAN");
            List<String> ids = new ArrayList<>(c.getKeys().size());
            for (String k : c.getKeys()) {
                ids.add(k.substring(k.indexOf(":order:") + ":order:".length()));
            }
            if (!ids.isEmpty()) {
                List<OrderState> states = new ArrayList<>(ids.size());
                getAll(ids).values().forEach(st -> {
                    if (st != null) {
                        states.add(st);
                    }
                });
                page.accept(states);
            }
            cursor = c;
        } while (!cursor.isFinished());
    }

    // ---------------------------------------------------------------- cancel queue

    /**
     * @return up to {@code limit} entries of a bucket's queue whose expiry is at or before {@code nowMs}, oldest first
     */
    public List<QueueEntry> due(int bucket, long nowMs, int limit) {
        List<ScoredValue<String>> r = await(async.zrangebyscoreWithScores(RedisKeys.cancelQueue(bucket),
                Range.create(Double.NEGATIVE_INFINITY, (double) nowMs), Limit.create(0, limit)), "ZRANGEBYSCORE");
        return toEntries(r);
    }

    /**
     * Lists a bucket's queue entries in expiry order.
     *
     * @param offset entries to skip
     * @param limit at most this many
     */
    public List<QueueEntry> queueEntries(int bucket, long offset, long limit) {
        return toEntries(await(async.zrangeWithScores(RedisKeys.cancelQueue(bucket), offset, offset + limit - 1), "ZRANGE"));
    }

    private static List<QueueEntry> toEntries(List<ScoredValue<String>> r) {
        List<QueueEntry> out = new ArrayList<>(r.size());
        for (ScoredValue<String> v : r) {
            out.add(new QueueEntry(v.getValue(), (long) v.getScore()));
        }
        return out;
    }

    /** @return queue entry's expiry (epoch ms) or null when the order has no entry */
    public Long queueScore(String orderId) {
        Double s = await(async.zscore(RedisKeys.cancelQueue(RedisKeys.bucket(orderId)), orderId), "ZSCORE");
        return s == null ? null : s.longValue();
    }

    /**
     * Reads many queue entries in one pipelined round.
     *
     * @return id to expiry (epoch ms); ids without an entry map to null
     */
    public Map<String, Long> queueScores(List<String> orderIds) {
        List<CompletableFuture<Double>> fs = new ArrayList<>(orderIds.size());
        for (String id : orderIds) {
            fs.add(async.zscore(RedisKeys.cancelQueue(RedisKeys.bucket(id)), id).toCompletableFuture());
        }
        Map<String, Long> out = new HashMap<>();
        for (int i = 0; i < orderIds.size(); i++) {
            Double d = await(fs.get(i), "ZSCORE");
            out.put(orderIds.get(i), d == null ? null : d.longValue());
        }
        return out;
    }

    /** @return number of entries in a bucket's queue */
    public long queueSize(int bucket) {
        return await(async.zcard(RedisKeys.cancelQueue(bucket)), "ZCARD");
    }

    /** @return number of entries in a bucket's queue with expiry at or before {@code nowMs} */
    public long queueOverdue(int bucket, long nowMs) {
        return await(async.zcount(RedisKeys.cancelQueue(bucket), Range.create(Double.NEGATIVE_INFINITY, (double) nowMs)), "ZCOUNT");
    }

    /** @return the first entry due strictly after {@code nowMs}, or null */
    public QueueEntry nextDue(int bucket, long nowMs) {
        List<QueueEntry> r = toEntries(await(async.zrangebyscoreWithScores(RedisKeys.cancelQueue(bucket),
                Range.from(Range.Boundary.excluding((double) nowMs), Range.Boundary.unbounded()), Limit.create(0, 1)),
                "ZRANGEBYSCORE"));
        return r.isEmpty() ? null : r.get(0);
    }

    /**
     * Runs requeue.lua: sets or moves the order's entry while it is WAIT_PAY.
     *
     * @param expireAtMs new expiry, epoch ms
     * @return 1 queued, 0 not WAIT_PAY (entry removed), -1 no state
     */
    public int requeue(String orderId, long expireAtMs) {
        int b = RedisKeys.bucket(orderId);
        Long r = await(this.<Long>eval(LuaScript.REQUEUE, ScriptOutputType.INTEGER,
                new String[]{RedisKeys.order(orderId), RedisKeys.cancelQueue(b)}, orderId, Long.toString(expireAtMs)), "requeue");
        return r.intValue();
    }

    /** Removes an order's queue entry. @return true when there was one */
    public boolean dequeue(String orderId) {
        return await(async.zrem(RedisKeys.cancelQueue(RedisKeys.bucket(orderId)), orderId), "ZREM") > 0;
    }

    // ---------------------------------------------------------------- outbox

    /**
     * Reads outbox entries of a bucket after a stream id.
     *
     * @param afterId last id already applied ("0" for none)
     * @param count at most this many
     * @return entries in stream order
     */
    public List<OutboxEntry> readOutbox(int bucket, String afterId, int count) {
        Range<String> range = Range.from(Range.Boundary.excluding(afterId), Range.Boundary.unbounded());
        List<StreamMessage<String, String>> msgs = await(async.xrange(RedisKeys.outbox(bucket), range, Limit.create(0, count)), "XRANGE");
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
    public void trimOutbox(int bucket, String minId) {
        await(async.xtrim(RedisKeys.outbox(bucket), XTrimArgs.Builder.minId(minId)), "XTRIM");
    }

    /**
     * Counts outbox entries at or before an id (normally just that one: the follower trims the rest).
     *
     * @param upToId a stream id
     * @param max stop counting here
     */
    public int countOutboxUpTo(int bucket, String upToId, int max) {
        return await(async.xrange(RedisKeys.outbox(bucket), Range.create("-", upToId), Limit.create(0, max)), "XRANGE").size();
    }

    /** @return the oldest entry after {@code afterId}, or null */
    public OutboxEntry oldestPending(int bucket, String afterId) {
        List<OutboxEntry> r = readOutbox(bucket, afterId, 1);
        return r.isEmpty() ? null : r.get(0);
    }

    /** @return number of entries in a bucket's outbox stream (synced or not) */
    public long outboxLength(int bucket) {
        return await(async.xlen(RedisKeys.outbox(bucket)), "XLEN");
    }

    // ---------------------------------------------------------------- rules, stats, sweeper, server

    /** @return the rules JSON, or null when the key is absent */
    public String rulesJson() {
        return await(async.get(RedisKeys.RULES), "GET " + RedisKeys.RULES);
    }

    /** @return the data-set marker, or null when Redis lost (or never had) it */
    public String epoch() {
        return await(async.get(RedisKeys.EPOCH), "GET " + RedisKeys.EPOCH);
    }

    /** Sets the data-set marker unless one exists. @return true when this call set it */
    public boolean setEpochIfAbsent(String marker) {
        return await(async.setnx(RedisKeys.EPOCH, marker), "SETNX " + RedisKeys.EPOCH);
    }

    /** Stores the rules JSON. */
    public void setRulesJson(String json) {
        await(async.set(RedisKeys.RULES, json), "SET " + RedisKeys.RULES);
    }

    /**
     * Replaces every bucket's copy of the rules (publish_rules.lua, one atomic step per bucket).
     *
     * @param version rules version
     * @param terminal terminal codes, e.g. "5,6"
     * @param edges from code to "to,to" lists
     */
    public void publishRules(long version, String terminal, Map<Integer, String> edges) {
        List<String> args = new ArrayList<>();
        args.add(Long.toString(version));
        args.add(terminal);
        edges.forEach((from, to) -> {
            args.add(Integer.toString(from));
            args.add(to);
        });
        String[] a = args.toArray(String[]::new);
        List<CompletableFuture<Long>> fs = new ArrayList<>();
        for (int b = 0; b < RedisKeys.BUCKETS; b++) {
            fs.add(eval(LuaScript.PUBLISH_RULES, ScriptOutputType.INTEGER, new String[]{RedisKeys.rules(b)}, a));
        }
        fs.forEach(f -> await(f, "publish rules"));
    }

    /** @return the rules version held by each bucket's copy (null where absent) */
    public List<Long> publishedRuleVersions() {
        List<CompletableFuture<String>> fs = new ArrayList<>();
        for (int b = 0; b < RedisKeys.BUCKETS; b++) {
            fs.add(async.hget(RedisKeys.rules(b), "_v").toCompletableFuture());
        }
        List<Long> out = new ArrayList<>();
        fs.forEach(f -> {
            String v = await(f, "HGET rules");
            out.add(v == null ? null : Long.parseLong(v));
        });
        return out;
    }

    /** @return all counters summed over the buckets (field names as in {@link RedisKeys}) */
    public Map<String, Long> stats() {
        List<CompletableFuture<Map<String, String>>> fs = new ArrayList<>();
        for (int b = 0; b < RedisKeys.BUCKETS; b++) {
            fs.add(async.hgetall(RedisKeys.stats(b)).toCompletableFuture());
        }
        Map<String, Long> sum = new HashMap<>();
        fs.forEach(f -> await(f, "HGETALL stats").forEach((k, v) -> sum.merge(k, Long.parseLong(v), Long::sum)));
        return sum;
    }

    /** Adds {@code delta} to a live per-status count (state removed outside the scripts, see forgetOrder). */
    private void adjustStatusCount(String orderId, OrderStatus status, long delta) {
        await(async.hincrby(RedisKeys.stats(RedisKeys.bucket(orderId)), "n:" + status.code(), delta), "HINCRBY");
    }

    /** Writes fields of the sweeper heartbeat hash. */
    public void sweeperHeartbeat(Map<String, String> fields) {
        await(async.hset(RedisKeys.SWEEPER, fields), "HSET " + RedisKeys.SWEEPER);
    }

    /** @return the sweeper heartbeat hash (empty when no sweeper ever ran) */
    public Map<String, String> sweeperState() {
        return await(async.hgetall(RedisKeys.SWEEPER), "HGETALL " + RedisKeys.SWEEPER);
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

    /** @return the command timeout */
    public Duration timeout() {
        return timeout;
    }

    /** Raw async commands, for tests and benchmarks that measure the server itself. */
    public RedisAsyncCommands<String, String> rawAsync() {
        return async;
    }

    /** Waits for a Redis future at most the command timeout, turning failures into readable errors. */
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
    public RuntimeException translate(Throwable cause, String what) {
        if (cause instanceof CompletionException && cause.getCause() != null) {
            cause = cause.getCause();
        }
        if (cause instanceof RedisCommandTimeoutException) {
            return new RedisUnavailableException("Redis at " + where + " did not answer " + what + " within "
                    + timeout.toMillis() + " ms", cause);
        }
        if (cause instanceof RedisCommandExecutionException re) {
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
        client.shutdown(Duration.ZERO, Duration.ofSeconds(2));
    }
}
