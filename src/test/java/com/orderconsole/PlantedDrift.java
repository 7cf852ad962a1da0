package com.orderconsole;

import com.orderconsole.domain.Operator;
import com.orderconsole.domain.OrderStatus;
import com.orderconsole.domain.TransitionRequest;
import com.orderconsole.redis.RedisKeys;
import com.orderconsole.service.Services;

import java.time.Duration;
import java.util.Map;

/**
 * One disagreement of each kind reconciliation finds, planted behind the engine's back (raw Redis, raw SQL):
 * p-redis has no Redis state, p-ahead is behind in MySQL, p-mysql-ahead is ahead in MySQL, p-noqueue lost its
 * cancel-queue entry, p-stale is PAID with a queue entry, x-redis-only has no MySQL row, p-pending has a transition
 * the follower has not applied yet.
 */
public final class PlantedDrift {
    private PlantedDrift() {
    }

    /** Creates the p-… orders through the services, then plants the disagreements. */
    public static void plant(Services s, RawRedis raw, Operator by) {
        for (String id : new String[]{"p-redis", "p-ahead", "p-mysql-ahead", "p-noqueue", "p-stale", "p-pending"}) {
            s.orders().create(by, id, null, Duration.ofMinutes(30));
        }
        s.transitions().transition(by, TransitionRequest.of("p-ahead", OrderStatus.PAID, "t", ""));
        s.transitions().transition(by, TransitionRequest.of("p-stale", OrderStatus.PAID, "t", ""));
        s.follower().drainOnce();
        raw.cmd().del(RedisKeys.order("p-redis"));
        RawSql.update("UPDATE orders SET status = 1, version = 1 WHERE order_id = 'p-ahead'");
        RawSql.update("UPDATE orders SET status = 6, version = 2 WHERE order_id = 'p-mysql-ahead'");
        raw.cmd().zrem(RedisKeys.cancelQueue(RedisKeys.bucket("p-noqueue")), "p-noqueue");
        raw.cmd().zadd(RedisKeys.cancelQueue(RedisKeys.bucket("p-stale")), 99, "p-stale");
        raw.cmd().hset(RedisKeys.order("x-redis-only"), Map.of("status", "2", "version", "2", "updateTime", "5", "createTime", "1"));
        s.transitions().transition(by, TransitionRequest.of("p-pending", OrderStatus.PAID, "t", ""));
    }
}
