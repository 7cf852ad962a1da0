package com.orderconsole.service.reliability;

import com.orderconsole.FreshEngine;
import com.orderconsole.RawRedis;
import com.orderconsole.RawSql;
import com.orderconsole.domain.Operator;
import com.orderconsole.domain.OrderStatus;
import com.orderconsole.domain.Role;
import com.orderconsole.domain.TransitionRequest;
import com.orderconsole.redis.RedisKeys;
import com.orderconsole.app.Services;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import java.time.Duration;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Found by the 30-minute fault soak (seed 11255037545513): Redis killed right after an acknowledged
 * creation came back from its once-a-second append-only file without that order, while MySQL had it.
 * The data-set marker survived, so no restore ran, and the unpaid order was never cancelled.
 */
class LostCreationTest {
    @RegisterExtension
    final FreshEngine engine = new FreshEngine();
    private final Operator support = new Operator("alice", Role.SUPPORT);
    private final Operator ops = new Operator("olga", Role.OPS);

    @Test
    void anOverdueUnpaidOrderWhoseRedisStateWasLostIsCancelledAfterAll() {
        Services s = engine.services();
        s.orders().create(support, "lost-1", null, Duration.ofMinutes(30));
        s.orders().create(support, "paid-1", null, Duration.ofMinutes(30));
        s.orders().create(support, "held-1", null, Duration.ofMinutes(30));
        s.follower().drainOnce();
        // All three ran out of time a minute ago, as far as MySQL knows.
        RawSql.update("UPDATE orders SET expire_at_ms = expire_at_ms - 31 * 60 * 1000, status_since_ms = status_since_ms - 31 * 60 * 1000,"
                + " created_at_ms = created_at_ms - 31 * 60 * 1000 WHERE order_id IN ('lost-1', 'paid-1', 'held-1')");
        // paid-1 was paid in Redis and that is still on its way to MySQL; held-1 was taken off the queue by ops on purpose.
        s.transitions().transition(support, TransitionRequest.of("paid-1", OrderStatus.PAID, "callback", ""));
        s.queue().remove(ops, "held-1", "console", "customer called, keep it open");
        try (RawRedis raw = new RawRedis()) {
            // What the append-only file's last second took with it: lost-1's state and queue entry.
            raw.cmd().del(RedisKeys.order("lost-1"));
            raw.cmd().zrem(RedisKeys.cancelQueue(RedisKeys.bucket("lost-1")), "lost-1");
        }

        s.maintenance().runOnce();
        s.sweeper().tick();
        s.follower().drainOnce();

        assertThat(RawSql.column("SELECT status FROM orders WHERE order_id = 'lost-1'")).containsExactly("6");
        assertThat(RawSql.column("SELECT source FROM order_history WHERE order_id = 'lost-1' AND to_status = 6 AND result_code = 1"))
                .as("cancelled by the sweeper, in the history").containsExactly("sweeper");
        assertThat(RawSql.column("SELECT status FROM orders WHERE order_id = 'paid-1'")).as("a payment on its way is not undone")
                .containsExactly("2");
        assertThat(s.orders().lookup("held-1").summary().redisStatus()).as("an entry ops removed stays removed")
                .isEqualTo(OrderStatus.WAIT_PAY);
        assertThat(RawSql.count("SELECT COUNT(*) FROM order_history WHERE order_id = 'held-1' AND to_status = 6")).isZero();
    }
}
