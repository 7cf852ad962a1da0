package com.orderconsole.service.reliability;

import ch.qos.logback.classic.Level;
import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.core.read.ListAppender;
import com.orderconsole.RawRedis;
import com.orderconsole.RawSql;
import com.orderconsole.TestServers;
import com.orderconsole.app.Engine;
import com.orderconsole.app.EngineConfig;
import com.orderconsole.domain.Operator;
import com.orderconsole.domain.OrderStatus;
import com.orderconsole.domain.Role;
import com.orderconsole.domain.TransitionRequest;
import com.orderconsole.redis.RedisKeys;
import com.orderconsole.app.Services;
import com.orderconsole.service.follower.Follower;
import com.orderconsole.service.transition.TransitionOutcome;
import org.junit.jupiter.api.Test;
import org.slf4j.LoggerFactory;

import java.time.Duration;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * Issue 11.1 and 11.3–11.5: Redis and MySQL are one system's pair, and the follower's position, the
 * rebuild of lost state and the rules never mix two data sets.
 */
class DataSetTest {
    private final Operator support = new Operator("alice", Role.SUPPORT);
    private final Operator ops = new Operator("olga", Role.OPS);

    @Test
    void oneExternalServerBesideAnEmbeddedOneIsRefused() {
        EngineConfig base = EngineConfig.embeddedDefault().withBackgroundJobs(null, null);
        assertThatThrownBy(() -> Engine.start(base.withServers(TestServers.redis().uri(), null, "root", "")))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("Redis URI was given without a MySQL URL");
        assertThatThrownBy(() -> Engine.start(base.withServers(null, TestServers.mariaDb().jdbcUrl(), "root", "")))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("MySQL URL was given without a Redis URI");
    }

    @Test
    void aRedisIsNeverPairedWithAnotherSystemsMySql() {
        try (Engine e = TestServers.freshEngine()) {
            e.services().orders().create(support, "pair-1", null, Duration.ofMinutes(30));
            e.services().transitions().transition(support, TransitionRequest.of("pair-1", OrderStatus.PAID, "t", ""));
        }
        RawSql.update("CREATE DATABASE IF NOT EXISTS other_shop");
        RawSql.update("DROP TABLE IF EXISTS other_shop.flyway_schema_history");
        String otherJdbc = TestServers.mariaDb().jdbcUrl().replace("/orders?", "/other_shop?");
        EngineConfig other = TestServers.config().withServers(TestServers.redis().uri(), otherJdbc, "root", "");
        assertThatThrownBy(() -> Engine.start(other)).isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("refusing to pair them");
        assertThat(RawSql.count("SELECT COUNT(*) FROM other_shop.order_history")).as("nothing applied into the other database").isZero();
        try (RawRedis raw = new RawRedis()) {
            assertThat(raw.cmd().xlen(RedisKeys.outbox(RedisKeys.bucket("pair-1")))).as("nothing trimmed from the real Redis")
                    .isPositive();
            raw.cmd().set(RedisKeys.DATASET, "someone-else");
        }
        assertThatThrownBy(() -> Engine.start(TestServers.config())).isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("they are not a pair");
        RawSql.update("DROP DATABASE other_shop");
    }

    @Test
    void aRedisThatCameBackEmptyWithItsClockBehindStillReachesMySql() {
        try (Engine e = TestServers.freshEngine()) {
            Services s = e.services();
            s.orders().create(support, "clock-1", null, Duration.ofMinutes(30));
            s.transitions().transition(support, TransitionRequest.of("clock-1", OrderStatus.PAID, "t", ""));
            s.follower().drainOnce();
            // The old Redis' clock ran ahead: every cursor sits past any id the new Redis will hand out.
            RawSql.update("UPDATE sync_cursor SET last_id = '99999999999999-0'");
            try (RawRedis raw = new RawRedis()) {
                raw.cmd().flushall();
            }
            s.maintenance().runOnce();
            TransitionOutcome o = s.transitions().transitionAndWait(support,
                    TransitionRequest.of("clock-1", OrderStatus.WAIT_SHIP, "t", "after the restart"), Duration.ofSeconds(10));
            assertThat(o.result().applied()).isTrue();
            assertThat(o.mysqlSynced()).isTrue();
            assertThat(RawSql.count("SELECT status FROM orders WHERE order_id = 'clock-1'")).isEqualTo(3);
            assertThat(RawSql.count("SELECT COUNT(*) FROM order_history WHERE order_id = 'clock-1' AND reason = 'after the restart'"))
                    .as("the history row, with its reason, reached MySQL").isEqualTo(1);
        }
    }

    @Test
    void aRedisRestoredFromAnOlderCopyIsRestoredFromMySqlAndNeverCancelsAPaidOrder() {
        try (Engine e = TestServers.freshEngine()) {
            Services s = e.services();
            s.orders().create(support, "snap-1", null, Duration.ofMillis(300));
            String outbox = RedisKeys.outbox(RedisKeys.bucket("snap-1"));
            java.util.Set<String> inTheCopy = new java.util.HashSet<>();
            try (RawRedis raw = new RawRedis()) {
                raw.cmd().xrange(outbox, io.lettuce.core.Range.create("-", "+")).forEach(m -> inTheCopy.add(m.getId()));
            }
            s.transitions().transition(support, TransitionRequest.of("snap-1", OrderStatus.PAID, "t", "paid in time"));
            s.follower().drainOnce();
            // Redis goes back to a copy taken before the payment: the order waits for payment again, its
            // queue entry is back, and the bucket's outbox is as it was then (without the payment's entry).
            try (RawRedis raw = new RawRedis()) {
                raw.cmd().hset(RedisKeys.order("snap-1"), java.util.Map.of("status", "1", "version", "1"));
                raw.cmd().zadd(RedisKeys.cancelQueue(RedisKeys.bucket("snap-1")), 1, "snap-1");
                raw.cmd().xrange(outbox, io.lettuce.core.Range.create("-", "+")).stream().map(m -> m.getId())
                        .filter(id -> !inTheCopy.contains(id)).forEach(id -> raw.cmd().xdel(outbox, id));
            }
            // A payment-timeout cancel on the stale copy: since issue 33.5 the transition itself finds the entry MySQL
            // applied last gone (before, it was applied here and the follower found the copy on its next read).
            assertThat(s.transitions().transition(ops, TransitionRequest.of("snap-1", OrderStatus.CANCELLED, "t", "stale copy")).code())
                    .isEqualTo(com.orderconsole.domain.ResultCode.RESTORING);
            try (RawRedis raw = new RawRedis()) {
                assertThat(raw.cmd().get(RedisKeys.FENCED)).contains("no longer holds entry").contains("went back in time");
            }
            assertThatThrownBy(() -> s.follower().drainOnce()).hasMessageContaining("waits for maintenance");
            assertThat(s.sweeper().sweepNow(ops)).as("the sweeper waits for the restore").isZero();
            s.maintenance().runOnce();
            s.follower().drainOnce();
            assertThat(RawSql.count("SELECT status FROM orders WHERE order_id = 'snap-1'")).isEqualTo(OrderStatus.PAID.code());
            assertThat(s.orders().lookup("snap-1").summary().redisStatus()).as("Redis follows MySQL").isEqualTo(OrderStatus.PAID);
            assertThat(RawSql.count("SELECT COUNT(*) FROM order_history WHERE order_id = 'snap-1' AND result_code = 1 AND to_status = 6"))
                    .as("no cancel after the payment in the durable record").isZero();
            assertThat(s.deadLetters().open(10)).as("no stale move reached the outbox").isEmpty();
        }
    }

    /**
     * A restore reads each bucket's outbox from its start under the new marker. What the stream still held had been
     * recorded under the old one (the last applied entry, which the trim keeps; a copy's whole backlog), and was
     * recorded a second time under new event keys: every rejected attempt among them twice in the history (applied
     * ones only escaped through the order-and-version key). A new-user trial found 23 extra rows after two restores.
     */
    @Test
    void aDataSetRestoreRecordsEachOutboxEntryOnce() {
        try (Engine e = TestServers.freshEngine()) {
            Services s = e.services();
            s.orders().create(support, "once-1", null, Duration.ofMinutes(30));
            s.transitions().transition(support, TransitionRequest.of("once-1", OrderStatus.PAID, "t", "paid"));
            // A repeated payment callback: refused, recorded, and the bucket's last entry.
            s.transitions().transition(support, TransitionRequest.of("once-1", OrderStatus.PAID, "t", "callback again"));
            s.follower().drainOnce();
            long rows = RawSql.count("SELECT COUNT(*) FROM order_history WHERE order_id = 'once-1'");
            try (RawRedis raw = new RawRedis()) {
                raw.cmd().del(RedisKeys.EPOCH); // as the follower does when the bucket's numbers repeat
            }
            // Until the process that runs the follower restores it, health says why nothing is swept or followed.
            assertThat(s.health().check().warnings()).anySatisfy(w -> assertThat(w).contains("no data-set marker").contains("until serve"));
            s.maintenance().runOnce();
            assertThat(s.health().check().warnings()).noneSatisfy(w -> assertThat(w).contains("data-set marker"));
            s.transitions().transition(support, TransitionRequest.of("once-1", OrderStatus.WAIT_SHIP, "t", "after the restore"));
            s.follower().drainOnce();
            assertThat(RawSql.count("SELECT COUNT(*) FROM order_history WHERE order_id = 'once-1'")).isEqualTo(rows + 1);
            assertThat(RawSql.count("SELECT COUNT(*) FROM (SELECT order_id, version, result_code, at_ms, reason FROM order_history "
                    + "GROUP BY order_id, version, result_code, at_ms, reason HAVING COUNT(*) > 1) d")).as("events recorded twice").isZero();
            assertThat(RawSql.count("SELECT status FROM orders WHERE order_id = 'once-1'")).isEqualTo(OrderStatus.WAIT_SHIP.code());
        }
    }

    @Test
    void aRebuildFirstAppliesWhatTheOutboxStillHoldsForTheOrder() {
        try (Engine e = TestServers.freshEngine()) {
            Services s = e.services();
            s.orders().create(support, "lost-paid", null, Duration.ofMillis(200));
            s.transitions().transition(support, TransitionRequest.of("lost-paid", OrderStatus.PAID, "t", ""));
            try (RawRedis raw = new RawRedis()) {
                raw.cmd().del(RedisKeys.order("lost-paid")); // lost while its PAID entry waits in the outbox
            }
            assertThat(s.orders().rebuildAndLookup("lost-paid").summary().redisStatus()).isEqualTo(OrderStatus.PAID);
            try (RawRedis raw = new RawRedis()) {
                assertThat(raw.cmd().zscore(RedisKeys.cancelQueue(RedisKeys.bucket("lost-paid")), "lost-paid")).isNull();
            }
            assertThat(s.sweeper().sweepNow(ops)).isZero();
            assertThat(s.transitions().transition(support, TransitionRequest.of("lost-paid", OrderStatus.WAIT_SHIP, "t", ""))
                    .applied()).isTrue();
        }
    }

    @Test
    void rulesRolledBackInRedisAreRestoredFromTheNewestArchivedVersion() {
        try (Engine e = TestServers.freshEngine()) {
            Services s = e.services();
            String v1 = s.rules().current().version() == 1 ? com.orderconsole.service.rules.RulesJson.write(s.rules().current()) : null;
            String refund = "{\"terminal\":[\"FINISHED\",\"CANCELLED\"],\"transitions\":{\"WAIT_PAY\":[\"PAID\",\"CANCELLED\"],"
                    + "\"PAID\":[\"WAIT_SHIP\",\"CANCELLED\"],\"WAIT_SHIP\":[\"SHIPPED\"],\"SHIPPED\":[\"FINISHED\"]}}";
            assertThat(s.rules().set(ops, refund).version()).isEqualTo(2);
            try (RawRedis raw = new RawRedis()) {
                raw.cmd().set(RedisKeys.RULES, v1); // an old snapshot's rules
            }
        }
        try (Engine e = Engine.start(TestServers.config())) {
            assertThat(e.services().rules().current().version()).isEqualTo(2);
            assertThat(e.services().rules().current().targets(OrderStatus.PAID)).contains(OrderStatus.CANCELLED);
            String back = "{\"terminal\":[\"FINISHED\",\"CANCELLED\"],\"transitions\":{\"WAIT_PAY\":[\"PAID\",\"CANCELLED\"],"
                    + "\"PAID\":[\"WAIT_SHIP\"],\"WAIT_SHIP\":[\"SHIPPED\"],\"SHIPPED\":[\"FINISHED\"]}}";
            assertThat(e.services().rules().set(ops, back).version()).as("changing the rules works again").isEqualTo(3);
        }
    }
}
