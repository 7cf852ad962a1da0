package com.orderconsole.identity;

import com.orderconsole.RawRedis;
import com.orderconsole.Slow;
import com.orderconsole.app.Engine;
import com.orderconsole.domain.OrderStatus;
import com.orderconsole.redis.RedisKeys;
import org.junit.jupiter.api.Test;

import java.sql.Connection;
import java.sql.Statement;
import java.time.Duration;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * On a server that checks accounts, ops call {@code order_console_set_expiry} directly (as the DBA guide lists it) to
 * give a customer more time: MySQL's deadline moves, Redis' cancel-queue entry does not. At Redis' deadline the sweeper
 * must not cancel an order the record says is not due (the follower would set that cancel aside, leaving the order
 * CANCELLED in Redis and WAIT_PAY in MySQL until a restore): it queues the order again at MySQL's deadline, and both
 * stores keep one state and one deadline.
 */
@Slow
class DirectDeadlineTest {
    @Test
    void aDeadlineMovedInMySqlAloneIsTheOneTheSweeperKeeps() throws Exception {
        AccessControlledDb.reset();
        try (Engine olga = Engine.start(AccessControlledDb.config("olga"))) {
            olga.services().orders().create(olga.operator(), "dl-1", null, Duration.ofMillis(500));
        }
        long later = System.currentTimeMillis() + 600_000;
        try (Connection c = AccessControlledDb.connect("olga"); Statement st = c.createStatement()) {
            st.execute("CALL order_console_set_expiry('dl-1', " + later + ", 'cli', 'customer asked for time', 'by hand')");
        }
        Thread.sleep(800); // Redis' deadline passes
        try (Engine fred = Engine.start(AccessControlledDb.config(AccessControlledDb.FOLLOWER))) {
            assertThat(fred.services().sweeper().tick()).as("nothing cancelled").isZero();
            fred.services().follower().drainOnce();
            assertThat(fred.services().deadLetters().open(10)).isEmpty();
        }
        assertThat(AccessControlledDb.count("SELECT status FROM orders WHERE order_id = 'dl-1'")).isEqualTo(OrderStatus.WAIT_PAY.code());
        assertThat(AccessControlledDb.count("SELECT expire_at_ms FROM orders WHERE order_id = 'dl-1'")).isEqualTo(later);
        try (RawRedis raw = new RawRedis()) {
            assertThat(raw.cmd().hget(RedisKeys.order("dl-1"), "status")).as("WAIT_PAY in Redis too").isEqualTo("1");
            assertThat(raw.cmd().zscore(RedisKeys.cancelQueue(RedisKeys.bucket("dl-1")), "dl-1")).as("Redis' entry at MySQL's deadline")
                    .isEqualTo((double) later);
        }
    }
}
