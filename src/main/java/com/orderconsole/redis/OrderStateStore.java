package com.orderconsole.redis;

import com.orderconsole.domain.Failures;
import com.orderconsole.domain.ControlChars;
import com.orderconsole.domain.OrderState;
import com.orderconsole.domain.OrderStatus;
import com.orderconsole.domain.ResultCode;
import com.orderconsole.domain.TransitionRequest;
import com.orderconsole.domain.TransitionResult;
import io.lettuce.core.KeyScanCursor;
import io.lettuce.core.ScanArgs;
import io.lettuce.core.ScanCursor;
import io.lettuce.core.ScriptOutputType;
import io.lettuce.core.cluster.api.async.RedisClusterAsyncCommands;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.function.Consumer;

/**
 * Order state hashes ({@code osm:{bNN}:order:<id>}) and the two scripts that write them:
 * transition.lua (the only code that changes a status, {@link #script()}) and init_order.lua (creation and rebuild,
 * never overwriting). Times are epoch milliseconds, Redis server clock.
 */
public final class OrderStateStore {
    private final RedisConnection redis;
    private final RedisClusterAsyncCommands<String, String> async;

    private final TransitionScript script;

    OrderStateStore(RedisConnection redis) {
        this.redis = redis;
        this.async = redis.commands();
        this.script = new TransitionScript(redis);
    }

    /** @return transition.lua on this store's connection (the one code that changes a status) */
    public TransitionScript script() {
        return script;
    }

    /**
     * The same store on a connection of its own (the cancel sweeper's, so that its batches of cancels
     * never wait in line in front of payments); this store's connection when a second one cannot be had.
     */
    public OrderStateStore onOwnConnection() {
        try {
            return new OrderStateStore(redis.separate());
        } catch (RedisUnavailableException e) {
            return this;
        }
    }

    /**
     * Runs init_order.lua: creates the order's state (and queue entry when WAIT_PAY and an expiry is
     * given) unless state already exists.
     *
     * @param state the state to create
     * @param expireAtMs cancel-queue expiry, epoch ms, or null for none
     * @return true when created, false when state already existed (left untouched)
     */
    public CompletableFuture<Boolean> initOrderAsync(OrderState state, Long expireAtMs) {
        return initOrderAsync(state, expireAtMs, null);
    }

    /**
     * Runs init_order.lua: creates the order's state (and queue entry when WAIT_PAY and an expiry is
     * given) unless state already exists.
     *
     * @param state the state to create
     * @param expireAtMs cancel-queue expiry, epoch ms, or null for none
     * @param retireAtMs when the hash leaves Redis (a terminal order), epoch ms, or null to keep it
     * @return true when created, false when state already existed (left untouched)
     */
    public CompletableFuture<Boolean> initOrderAsync(OrderState state, Long expireAtMs, Long retireAtMs) {
        String id = state.orderId();
        int b = RedisKeys.bucket(id);
        String[] keys = {RedisKeys.order(id), RedisKeys.cancelQueue(b), RedisKeys.stats(b)};
        CompletableFuture<List<Object>> f = redis.evalAsync(LuaScript.INIT_ORDER, ScriptOutputType.MULTI, keys,
                id, Integer.toString(state.status().code()), Long.toString(state.version()),
                Long.toString(state.updateTimeMs()), Long.toString(state.createTimeMs()),
                expireAtMs == null ? "" : Long.toString(expireAtMs), retireAtMs == null ? "" : Long.toString(retireAtMs));
        return f.thenApply(r -> ((Long) r.get(0)) == 1L);
    }

    /** Blocking {@link #initOrderAsync}. */
    public boolean initOrder(OrderState state, Long expireAtMs) {
        return initOrder(state, expireAtMs, null);
    }

    /** Blocking {@link #initOrderAsync(OrderState, Long, Long)}. */
    public boolean initOrder(OrderState state, Long expireAtMs, Long retireAtMs) {
        return redis.await(initOrderAsync(state, expireAtMs, retireAtMs), "init order " + state.orderId());
    }

    /**
     * Creates many orders' state in one pipelined round (never overwriting).
     *
     * @param states states with their queue expiry (epoch ms, null for none), in order
     * @return how many were created (the rest existed already)
     */
    public int initOrders(Map<OrderState, Long> states) {
        return initOrders(states, st -> null);
    }

    /**
     * Creates many orders' state in one pipelined round (never overwriting), terminal ones with the
     * time their hash leaves Redis.
     *
     * @param states states with their queue expiry (epoch ms, null for none), in order
     * @param retireAt per state, when its hash leaves Redis (epoch ms), or null to keep it
     * @return how many were created (the rest existed already)
     */
    public int initOrders(Map<OrderState, Long> states, java.util.function.Function<OrderState, Long> retireAt) {
        List<CompletableFuture<Boolean>> fs = new ArrayList<>(states.size());
        // All sent before any is awaited: Lettuce pipelines them, one round trip for the batch.
        states.forEach((st, expiry) -> fs.add(initOrderAsync(st, expiry, retireAt.apply(st))));
        int created = 0;
        for (CompletableFuture<Boolean> f : fs) {
            if (redis.await(f, "init order")) {
                created++;
            }
        }
        return created;
    }

    /**
     * Reads one order's state.
     *
     * @param orderId a validated id
     * @return the state, or null when Redis has none
     * @throws MalformedOrderException when the order's hash has fields that are not well-formed
     */
    public CompletableFuture<OrderState> getAsync(String orderId) {
        return async.hgetall(RedisKeys.order(orderId)).toCompletableFuture().thenApply(m -> toState(orderId, m));
    }

    /** Blocking {@link #getAsync}. */
    public OrderState get(String orderId) {
        return redis.await(getAsync(orderId), "HGETALL order " + orderId);
    }

    /** @return the order's hash as stored, e.g. "status=7 version=3 …" (for a person), "" when absent */
    public String raw(String orderId) {
        StringBuilder b = new StringBuilder();
        redis.await(async.hgetall(RedisKeys.order(orderId)), "HGETALL order " + orderId)
                .forEach((k, v) -> b.append(b.length() == 0 ? "" : " ").append(k).append('=').append(v));
        return b.toString();
    }

    /**
     * States read in one round, with the orders whose hash is not well-formed kept apart.
     *
     * @param states id to state, in the order asked; ids without Redis state (or malformed) map to null
     * @param malformed id to what is wrong with its hash, in words
     */
    public record States(Map<String, OrderState> states, Map<String, String> malformed) {
    }

    /**
     * Reads many orders in one pipelined round; malformed hashes never fail the read.
     *
     * @param orderIds validated ids
     * @return the states and the malformed ones
     */
    public States getAllChecked(List<String> orderIds) {
        List<CompletableFuture<Map<String, String>>> fs = new ArrayList<>(orderIds.size());
        for (String id : orderIds) {
            fs.add(async.hgetall(RedisKeys.order(id)).toCompletableFuture());
        }
        Map<String, OrderState> out = new LinkedHashMap<>();
        Map<String, String> malformed = new LinkedHashMap<>();
        for (int i = 0; i < orderIds.size(); i++) {
            String id = orderIds.get(i);
            try {
                out.put(id, toState(id, redis.await(fs.get(i), "HGETALL")));
            } catch (MalformedOrderException e) {
                out.put(id, null);
                malformed.put(id, e.problem());
            }
        }
        return new States(out, malformed);
    }

    /**
     * Reads many orders in one pipelined round.
     *
     * @param orderIds validated ids
     * @return id to state; ids without Redis state, or with a malformed hash, map to null
     */
    public Map<String, OrderState> getAll(List<String> orderIds) {
        return getAllChecked(orderIds).states();
    }

    private static OrderState toState(String orderId, Map<String, String> m) {
        if (m == null || m.isEmpty()) {
            return null;
        }
        String status = m.get("status");
        if (status == null) {
            throw new MalformedOrderException(orderId, "status is missing");
        }
        long code = number(orderId, "status", status);
        if (code < 1 || code > OrderStatus.count()) {
            throw new MalformedOrderException(orderId, "status " + code + " is not a status code (" + OrderStatus.codeRange() + ")");
        }
        String updated = m.getOrDefault("updateTime", "0");
        return new OrderState(orderId, OrderStatus.ofCode((int) code), number(orderId, "version", m.getOrDefault("version", "")),
                number(orderId, "updateTime", updated), number(orderId, "createTime", m.getOrDefault("createTime", updated)));
    }

    /** A field by {@link RecordNumber}'s grammar, the one transition.lua checks too. */
    private static long number(String orderId, String field, String value) {
        long v = RecordNumber.parse(value);
        if (v < 0) {
            throw new MalformedOrderException(orderId, field + " '" + value + "' is not a canonical whole number (digits only, "
                    + "no sign, space, exponent or leading zero, at most " + RecordNumber.MAX_DIGITS + " digits)");
        }
        return v;
    }

    /**
     * Deletes an order's Redis state and queue entry, keeping the live status count right. Used by
     * reconciliation repair before rebuilding an order from a newer MySQL record.
     */
    public void forget(String orderId) {
        OrderState st;
        try {
            st = get(orderId);
        } catch (MalformedOrderException e) {
            st = null; // no status to uncount; the counters are recomputed by reconciliation
        }
        if (redis.await(async.del(RedisKeys.order(orderId)), "DEL") > 0 && st != null) {
            redis.await(async.hincrby(RedisKeys.stats(RedisKeys.bucket(orderId)), "n:" + st.status().code(), -1), "HINCRBY");
        }
        redis.await(async.zrem(RedisKeys.cancelQueue(RedisKeys.bucket(orderId)), orderId), "ZREM");
    }

    /**
     * Moves one order's count in its bucket's live status counters ({@code n:<status>}) by {@code delta}: for a state
     * replaced where the counters already count the other one (entries set aside move no counter).
     */
    public void adjustCount(String orderId, int statusCode, long delta) {
        redis.await(async.hincrby(RedisKeys.stats(RedisKeys.bucket(orderId)), "n:" + statusCode, delta), "HINCRBY");
    }

    /**
     * Visits every order key with one SCAN pass per master (cursor-based: memory stays flat at any size)
     * and reads the states in pipelined pages. On a cluster a key that moves between masters during the
     * pass may be seen twice or not at all, as with SCAN on one server while keys change.
     *
     * @param pageSize keys SCAN visits per round, e.g. 1000
     * @param page called with each page of states (orders deleted meanwhile map to null)
     */
    public void scan(int pageSize, Consumer<States> page) {
        // '{' and '}' are literal in SCAN patterns.
        ScanArgs args = ScanArgs.Builder.matches("osm:{b*}:order:*").limit(pageSize);
        for (RedisConnection.Node master : redis.masters()) {
            ScanCursor cursor = ScanCursor.INITIAL;
            do {
                KeyScanCursor<String> c = redis.await(master.commands().scan(cursor, args), "SCAN on " + master.where());
                List<String> ids = new ArrayList<>(c.getKeys().size());
                for (String k : c.getKeys()) {
                    ids.add(k.substring(k.indexOf(":order:") + ":order:".length()));
                }
                if (!ids.isEmpty()) {
                    page.accept(getAllChecked(ids));
                }
                cursor = c;
            } while (!cursor.isFinished());
        }
    }

    /**
     * An order whose state may leave Redis: {@link #retire} sets its expiry when its hash still is at
     * {@code version}.
     *
     * @param orderId the order
     * @param version the version MySQL has applied, in a terminal status
     * @param expireAtMs when the hash leaves Redis, epoch ms (Redis server clock); null keeps it (the
     *     order left its terminal status by an override)
     */
    public record Retirement(String orderId, long version, Long expireAtMs, boolean onlyWithoutExpiry) {
        /** A retirement that replaces any expiry the hash has. */
        public Retirement(String orderId, long version, Long expireAtMs) {
            this(orderId, version, expireAtMs, false);
        }
    }

    /**
     * Runs retire.lua for each order in one pipelined round: sets (PEXPIREAT) or removes (PERSIST) the
     * expiry of its hash, only where the hash still holds the given version (a newer version is the
     * caller's next round).
     *
     * @return how many hashes were changed
     */
    public int retire(List<Retirement> orders) {
        List<CompletableFuture<Long>> fs = new ArrayList<>(orders.size());
        for (Retirement r : orders) {
            fs.add(redis.evalAsync(LuaScript.RETIRE, ScriptOutputType.INTEGER, new String[]{RedisKeys.order(r.orderId())},
                    Long.toString(r.version()), r.expireAtMs() == null ? "" : Long.toString(r.expireAtMs()),
                    r.onlyWithoutExpiry() ? "nx" : ""));
        }
        int changed = 0;
        for (CompletableFuture<Long> f : fs) {
            changed += redis.await(f, "retire").intValue();
        }
        return changed;
    }

    /**
     * Which orders have a state hash, in one pipelined round (the MySQL follower asks about the few orders MySQL
     * lacks: an order Redis has is real, one in neither store is not).
     *
     * @param orderIds order ids
     * @return those of {@code orderIds} whose hash exists, whatever its fields hold
     */
    public java.util.Set<String> present(java.util.Collection<String> orderIds) {
        Map<String, CompletableFuture<Long>> fs = new LinkedHashMap<>();
        for (String id : orderIds) {
            fs.put(id, async.exists(RedisKeys.order(id)).toCompletableFuture());
        }
        java.util.Set<String> out = new java.util.LinkedHashSet<>();
        fs.forEach((id, f) -> {
            if (redis.await(f, "EXISTS order " + id) > 0) {
                out.add(id);
            }
        });
        return out;
    }

    /** @return the Redis server clock, epoch ms */
    public long nowMs() {
        return redis.nowMs();
    }

    /** @return milliseconds until the order's hash leaves Redis, or null when it has no expiry (or no hash) */
    public Long timeToLiveMs(String orderId) {
        Long t = redis.await(async.pttl(RedisKeys.order(orderId)), "PTTL");
        return t == null || t < 0 ? null : t;
    }
}
