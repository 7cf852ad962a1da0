package com.orderconsole.identity;

import com.orderconsole.RawRedis;
import com.orderconsole.Slow;
import com.orderconsole.app.Engine;
import com.orderconsole.app.Services;
import com.orderconsole.domain.OrderStatus;
import com.orderconsole.domain.TransitionRequest;
import com.orderconsole.redis.RedisKeys;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import java.time.Duration;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * Issue 33.6: a person's session applies no outbox (serve's follower does), so its rebuild of a lost order hash could
 * only read MySQL: while the payment Redis accepted still waited in the outbox, the order came back WAIT_PAY v1 and into
 * the cancel queue. A rebuild never uses a MySQL row older than what the outbox holds for the order: it waits for the
 * follower, else refuses in words and writes nothing.
 */
@Slow
class StaleRebuildTest {
    @BeforeEach
    void seeded() {
        AccessControlledDb.reset();
        Engine.start(AccessControlledDb.config("ada")).close();
        // serve ran once (it pairs and marks the Redis data set), then stopped.
        Engine.start(AccessControlledDb.config(AccessControlledDb.FOLLOWER)).close();
    }

    @Test
    void aLostHashIsNotRebuiltFromARowOlderThanTheOutbox() {
        try (Engine e = Engine.start(AccessControlledDb.config("sam"))) {
            Services s = e.services();
            s.orders().create(e.operator(), "lost-1", null, Duration.ofMinutes(30));
            assertThat(s.transitions().transition(e.operator(), TransitionRequest.of("lost-1", OrderStatus.PAID, "t", "paid")).applied())
                    .isTrue();
            // serve is stopped: the payment waits in the outbox; then Redis loses the order's hash.
            try (RawRedis raw = new RawRedis()) {
                raw.cmd().del(RedisKeys.order("lost-1"));
            }
            assertThatThrownBy(() -> s.transitions().transition(e.operator(),
                    TransitionRequest.of("lost-1", OrderStatus.WAIT_SHIP, "t", "ship")))
                    .hasMessageContaining("lost-1").hasMessageContaining("outbox").hasMessageContaining("version 2");
            try (RawRedis raw = new RawRedis()) {
                assertThat(raw.cmd().exists(RedisKeys.order("lost-1"))).as("nothing rebuilt from the older row").isZero();
                assertThat(raw.cmd().zscore(RedisKeys.cancelQueue(RedisKeys.bucket("lost-1")), "lost-1"))
                        .as("a paid order is not put back in the cancel queue").isNull();
            }
        }
        // With serve's follower running, the payment reaches MySQL first and the rebuild takes it.
        try (Engine serve = Engine.start(AccessControlledDb.config(AccessControlledDb.FOLLOWER).withBackgroundJobs(null, Duration.ofMillis(50)));
             Engine e = Engine.start(AccessControlledDb.config("sam"))) {
            Services s = e.services();
            assertThat(s.transitions().transition(e.operator(), TransitionRequest.of("lost-1", OrderStatus.WAIT_SHIP, "t", "ship")).applied())
                    .isTrue();
            assertThat(s.orders().lookup("lost-1").summary().redisVersion()).isEqualTo(3);
        }
    }
}
