package com.orderconsole.service.queue;

import com.orderconsole.RawRedis;
import com.orderconsole.StallingProxy;
import com.orderconsole.TestServers;
import com.orderconsole.app.Engine;
import com.orderconsole.app.Services;
import com.orderconsole.domain.Operator;
import com.orderconsole.domain.Role;
import com.orderconsole.embedded.EmbeddedMariaDb;
import com.orderconsole.redis.RedisKeys;
import org.junit.jupiter.api.Test;

import java.time.Duration;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * Issue 34: while MySQL was down the sweeper cancelled nothing (its fence asks MySQL) but its tick time stayed fresh, so
 * the "sweeper stalled" alert could not fire. The tick time is now that of the last tick that did its work (swept every
 * bucket, or obeyed a pause): a tick that could not sweep leaves it to grow old.
 */
class SweeperTickDuringOutageTest {
    private final Operator ops = new Operator("olga", Role.OPS);

    @Test
    void aTickThatCannotSweepBecauseMySqlIsDownLeavesTheTickTimeOld() throws Exception {
        TestServers.reset();
        EmbeddedMariaDb mariaDb = TestServers.mariaDb();
        try (StallingProxy proxy = new StallingProxy(mariaDb.port())) {
            String jdbc = mariaDb.jdbcUrl().replace(":" + mariaDb.port() + "/", ":" + proxy.port() + "/");
            try (Engine e = Engine.start(TestServers.config().withServers(TestServers.redis().uri(), jdbc, "root", "")
                    .withCommandTimeout(Duration.ofSeconds(2)))) {
                Services s = e.services();
                s.orders().create(ops, "out-1", null, Duration.ofMinutes(30));
                assertThat(s.sweeper().tick()).as("nothing due yet: a full sweep").isZero();
                Long swept = s.sweeper().status().lastTickMs();
                assertThat(swept).isNotNull();
                try (RawRedis raw = new RawRedis()) {
                    raw.cmd().zadd(RedisKeys.cancelQueue(RedisKeys.bucket("out-1")), 1000, "out-1");
                }
                // Due in MySQL's record too: the sweeper queues an order again at a later deadline MySQL records.
                com.orderconsole.RawSql.update("UPDATE orders SET expire_at_ms = 1000 WHERE order_id = 'out-1'");

                proxy.down(true);
                Thread.sleep(20); // the next tick's Redis clock is later than the last sweep's
                assertThatThrownBy(s.sweeper()::tick).as("the fence cannot be checked without MySQL");
                assertThat(s.sweeper().status().lastTickMs()).as("the failed tick is not a sweep").isEqualTo(swept);

                proxy.down(false);
                // A pooled connection cut during the outage may fail the first tick after it; the next takes a new one.
                int[] cancelled = {0};
                org.awaitility.Awaitility.await("the sweeper cancels the unpaid order once MySQL is back")
                        .atMost(Duration.ofSeconds(10)).ignoreExceptions()
                        .until(() -> (cancelled[0] += s.sweeper().tick()) > 0);
                assertThat(cancelled[0]).as("still unpaid: cancelled once, once MySQL is back").isEqualTo(1);
                assertThat(s.sweeper().status().lastTickMs()).isGreaterThan(swept);
            }
        }
    }
}
