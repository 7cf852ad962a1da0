package com.orderconsole.redis;

import com.orderconsole.domain.OrderState;
import com.orderconsole.domain.OrderStatus;
import com.orderconsole.domain.ResultCode;
import com.orderconsole.domain.TransitionRequest;
import com.orderconsole.domain.TransitionResult;
import io.lettuce.core.KeyScanCursor;
import io.lettuce.core.ScanArgs;
import io.lettuce.core.ScanCursor;
import io.lettuce.core.ScriptOutputType;
import io.lettuce.core.api.async.RedisAsyncCommands;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.function.Consumer;

/**
 * Order state hashes ({@code osm:{bNN}:order:<id>}) and the two scripts that write them:
 * transition.lua (the only code that changes a status) and init_order.lua (creation and rebuild,
 * never overwriting). Times are epoch milliseconds, Redis server clock.
 */
public final class OrderStateStore {
    private final RedisConnection redis;
    private final RedisAsyncCommands<String, String> async;

    OrderStateStore(RedisConnection redis) {
        this.redis = redis;
        this.async = redis.commands();
    }

    /**
     * Runs transition.lua for one request.
     *
     * @param request what to do
     * @param actor who does it (written to the outbox)
     * @return the outcome; completes exceptionally when Redis fails
     */
    public CompletableFuture<TransitionResult> transitionAsync(TransitionRequest request, String actor) {
        String id = request.orderId();
        int b = RedisKeys.bucket(id);
        String[] keys = {RedisKeys.order(id), RedisKeys.rules(b), RedisKeys.outbox(b), RedisKeys.cancelQueue(b),
                RedisKeys.stats(b)};
        CompletableFuture<List<Object>> f = redis.evalAsync(LuaScript.TRANSITION, ScriptOutputType.MULTI, keys,
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
    public CompletableFuture<Boolean> initOrderAsync(OrderState state, Long expireAtMs) {
        String id = state.orderId();
        int b = RedisKeys.bucket(id);
        String[] keys = {RedisKeys.order(id), RedisKeys.cancelQueue(b), RedisKeys.stats(b)};
        CompletableFuture<List<Object>> f = redis.evalAsync(LuaScript.INIT_ORDER, ScriptOutputType.MULTI, keys,
                id, Integer.toString(state.status().code()), Long.toString(state.version()),
                Long.toString(state.updateTimeMs()), Long.toString(state.createTimeMs()),
                expireAtMs == null ? "" : Long.toString(expireAtMs));
        return f.thenApply(r -> ((Long) r.get(0)) == 1L);
    }

    /** Blocking {@link #initOrderAsync}. */
    public boolean initOrder(OrderState state, Long expireAtMs) {
        return redis.await(initOrderAsync(state, expireAtMs), "init order " + state.orderId());
    }

    /**
     * Creates many orders' state in one pipelined round (never overwriting).
     *
     * @param states states with their queue expiry (epoch ms, null for none), in order
     * @return how many were created (the rest existed already)
     */
    public int initOrders(Map<OrderState, Long> states) {
        List<CompletableFuture<Boolean>> fs = new ArrayList<>(states.size());
        // All sent before any is awaited: Lettuce pipelines them, one round trip for the batch.
        states.forEach((st, expiry) -> fs.add(initOrderAsync(st, expiry)));
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
     */
    public CompletableFuture<OrderState> getAsync(String orderId) {
        return async.hgetall(RedisKeys.order(orderId)).toCompletableFuture().thenApply(m -> toState(orderId, m));
    }

    /** Blocking {@link #getAsync}. */
    public OrderState get(String orderId) {
        return redis.await(getAsync(orderId), "HGETALL order " + orderId);
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
            fs.add(getAsync(id));
        }
        Map<String, OrderState> out = new LinkedHashMap<>();
        for (int i = 0; i < orderIds.size(); i++) {
            out.put(orderIds.get(i), redis.await(fs.get(i), "HGETALL"));
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
     * reconciliation repair before rebuilding an order from a newer MySQL record.
     */
    public void forget(String orderId) {
        OrderState st = get(orderId);
        if (st == null) {
            return;
        }
        if (redis.await(async.del(RedisKeys.order(orderId)), "DEL") > 0) {
            redis.await(async.hincrby(RedisKeys.stats(RedisKeys.bucket(orderId)), "n:" + st.status().code(), -1), "HINCRBY");
        }
        redis.await(async.zrem(RedisKeys.cancelQueue(RedisKeys.bucket(orderId)), orderId), "ZREM");
    }

    /**
     * Visits every order key with one SCAN pass (cursor-based: memory stays flat at any size) and
     * reads the states in pipelined pages.
     *
     * @param pageSize keys SCAN visits per round, e.g. 1000
     * @param page called with each page of states (orders deleted meanwhile are skipped)
     */
    public void scan(int pageSize, Consumer<List<OrderState>> page) {
        // '{' and '}' are literal in SCAN patterns; '?' matches the two bucket digits.
        ScanArgs args = ScanArgs.Builder.matches("osm:{b??}:order:*").limit(pageSize);
        ScanCursor cursor = ScanCursor.INITIAL;
        do {
            KeyScanCursor<String> c = redis.await(async.scan(cursor, args), "SCAN");
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
}
