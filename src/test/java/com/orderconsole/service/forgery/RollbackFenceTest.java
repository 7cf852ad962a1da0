package com.orderconsole.service.forgery;

import com.orderconsole.RawRedis;
import com.orderconsole.RawSql;
import com.orderconsole.TestServers;
import com.orderconsole.app.Engine;
import com.orderconsole.domain.Operator;
import com.orderconsole.domain.OrderStatus;
import com.orderconsole.domain.ResultCode;
import com.orderconsole.domain.Role;
import com.orderconsole.domain.TransitionRequest;
import com.orderconsole.domain.TransitionResult;
import com.orderconsole.redis.RedisKeys;
import com.orderconsole.app.Services;
import com.orderconsole.service.transition.TransitionOutcome;
import io.lettuce.core.Range;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Issue 25.4: after Redis came back from an older copy, the sweeper does not cancel an order MySQL has as paid, even
 * before the follower noticed, and no transition answers "applied" on the stale data set until it is restored.
 */
class RollbackFenceTest {
    private final Operator support = new Operator("alice", Role.SUPPORT);
    private final Operator ops = new Operator("olga", Role.OPS);

    /** Pays snap-1 (MySQL has it PAID), then puts Redis back to a copy from before the payment. */
    private static void rollBack(Services s, String id) {
        String outbox = RedisKeys.outbox(RedisKeys.bucket(id));
        Set<String> inTheCopy = new HashSet<>();
        try (RawRedis raw = new RawRedis()) {
            raw.cmd().xrange(outbox, Range.create("-", "+")).forEach(m -> inTheCopy.add(m.getId()));
        }
        s.transitions().transition(new Operator("alice", Role.SUPPORT), TransitionRequest.of(id, OrderStatus.PAID, "t", "paid in time"));
        s.follower().drainOnce();
        assertThat(RawSql.count("SELECT status FROM orders WHERE order_id = '" + id + "'")).isEqualTo(OrderStatus.PAID.code());
        try (RawRedis raw = new RawRedis()) {
            raw.cmd().hset(RedisKeys.order(id), Map.of("status", "1", "version", "1"));
            raw.cmd().zadd(RedisKeys.cancelQueue(RedisKeys.bucket(id)), 1, id);
            raw.cmd().xrange(outbox, Range.create("-", "+")).stream().map(m -> m.getId())
                    .filter(x -> !inTheCopy.contains(x)).forEach(x -> raw.cmd().xdel(outbox, x));
        }
    }

    @Test
    void theSweeperChecksTheFenceBeforeTheFollowerNoticesAndCancelsNothing() {
        try (Engine e = TestServers.freshEngine()) {
            Services s = e.services();
            s.orders().create(support, "snap-1", null, Duration.ofMinutes(30));
            rollBack(s, "snap-1");
            // The follower has not read the bucket since: only the sweeper's own look at the fence can tell.
            assertThat(s.sweeper().sweepNow(ops)).as("nothing cancelled on the stale copy").isZero();
            try (RawRedis raw = new RawRedis()) {
                assertThat(raw.cmd().hget(RedisKeys.order("snap-1"), "status")).as("Redis never showed it CANCELLED").isEqualTo("1");
                assertThat(raw.cmd().get(RedisKeys.EPOCH)).as("the data set is dropped for a restore").isNull();
                assertThat(raw.cmd().get(RedisKeys.FENCED)).contains("went back in time").contains("cancel sweeper");
            }
            s.maintenance().runOnce();
            s.follower().drainOnce();
            assertThat(s.orders().lookup("snap-1").summary().redisStatus()).as("Redis follows MySQL").isEqualTo(OrderStatus.PAID);
            assertThat(RawSql.count("SELECT COUNT(*) FROM order_history WHERE order_id = 'snap-1' AND to_status = 6"))
                    .as("no cancel attempt reached the history").isZero();
        }
    }

    @Test
    void aTransitionOnAFencedDataSetIsRefusedInWordsAndCounted() {
        try (Engine e = TestServers.freshEngine()) {
            Services s = e.services();
            s.orders().create(support, "snap-2", null, Duration.ofMinutes(30));
            rollBack(s, "snap-2");
            // The follower notices (its fence) and drops the data set; the restore has not run yet.
            try {
                s.follower().drainOnce();
            } catch (IllegalStateException expected) {
                assertThat(expected).hasMessageContaining("went back in time");
            }
            TransitionOutcome o = s.transitions().transitionAndWait(support,
                    TransitionRequest.of("snap-2", OrderStatus.CANCELLED, "t", "support cancel"), Duration.ofSeconds(5));
            TransitionResult r = o.result();
            assertThat(r.applied()).isFalse();
            assertThat(r.code()).isEqualTo(ResultCode.RESTORING);
            assertThat(r.code().description()).contains("Redis is being restored");
            try (RawRedis raw = new RawRedis()) {
                assertThat(raw.cmd().hget(RedisKeys.order("snap-2"), "status")).as("nothing written").isEqualTo("1");
                assertThat(raw.cmd().hget(RedisKeys.stats(RedisKeys.bucket("snap-2")), "c:-7")).as("counted").isEqualTo("1");
            }
            assertThat(s.monitor().resultCounts().get(ResultCode.RESTORING)).isEqualTo(1L);
            s.maintenance().runOnce();
            try (RawRedis raw = new RawRedis()) {
                assertThat(raw.cmd().get(RedisKeys.FENCED)).as("the restore lifts the fence").isNull();
            }
            TransitionResult after = s.transitions().transition(support, TransitionRequest.of("snap-2", OrderStatus.WAIT_SHIP, "t", "ship"));
            assertThat(after.applied()).as("moves work again once restored, from MySQL's state").isTrue();
            assertThat(after.from()).isEqualTo(OrderStatus.PAID);
        }
    }

    /**
     * Issue 33.5: the same old copy (a real snapshot: every key dumped, then restored over a flushed Redis) restored a
     * second time. The first restore moved the data set to a new marker; the copy brings back the old one, whose stream
     * was read from its start as a new data set, unfenced: the sweeper cancelled paid orders. Caught both times now, by
     * the follower and by the sweeper's own look, and nothing is cancelled.
     */
    @Test
    void theSameOldCopyRestoredTwiceIsCaughtBothTimes() {
        try (Engine e = TestServers.freshEngine()) {
            Services s = e.services();
            s.orders().create(support, "twice-1", null, Duration.ofMinutes(30));
            s.follower().drainOnce();
            Map<String, byte[]> copy = new java.util.HashMap<>();
            try (var client = io.lettuce.core.RedisClient.create(TestServers.redis().uri());
                 var conn = client.connect(io.lettuce.core.codec.ByteArrayCodec.INSTANCE)) {
                List<String> keys;
                try (RawRedis raw = new RawRedis()) {
                    keys = raw.cmd().keys("*");
                }
                for (String k : keys) {
                    copy.put(k, conn.sync().dump(k.getBytes(java.nio.charset.StandardCharsets.UTF_8)));
                }
            }
            assertThat(s.transitions().transition(support, TransitionRequest.of("twice-1", OrderStatus.PAID, "t", "paid in time")).applied())
                    .isTrue();
            s.follower().drainOnce();
            for (int time = 1; time <= 2; time++) {
                restore(copy);
                try (RawRedis raw = new RawRedis()) {
                    assertThat(raw.cmd().hget(RedisKeys.order("twice-1"), "status")).as("restore %d: the copy's state", time).isEqualTo("1");
                    raw.cmd().zadd(RedisKeys.cancelQueue(RedisKeys.bucket("twice-1")), 1, "twice-1"); // and due, too
                }
                assertThat(s.sweeper().sweepNow(ops)).as("restore %d: nothing cancelled on the stale copy", time).isZero();
                try (RawRedis raw = new RawRedis()) {
                    assertThat(raw.cmd().get(RedisKeys.FENCED)).as("restore %d: fenced", time).contains("Redis");
                }
                s.maintenance().runOnce();
                s.follower().drainOnce();
                assertThat(s.orders().lookup("twice-1").summary().redisStatus()).as("restore %d: Redis follows MySQL", time)
                        .isEqualTo(OrderStatus.PAID);
            }
            assertThat(RawSql.count("SELECT COUNT(*) FROM order_history WHERE order_id = 'twice-1' AND to_status = 6")).isZero();
            assertThat(RawSql.count("SELECT status FROM orders WHERE order_id = 'twice-1'")).isEqualTo(OrderStatus.PAID.code());
        }
    }

    /** Flushes Redis and puts back every key of a copy, as a restore of that snapshot would. */
    private static void restore(Map<String, byte[]> copy) {
        try (var client = io.lettuce.core.RedisClient.create(TestServers.redis().uri());
             var conn = client.connect(io.lettuce.core.codec.ByteArrayCodec.INSTANCE)) {
            conn.sync().flushall();
            copy.forEach((k, v) -> conn.sync().restore(k.getBytes(java.nio.charset.StandardCharsets.UTF_8), 0, v));
        }
    }

    /** A Redis that lost everything has no fence: its orders are rebuilt from MySQL on use, as before. */
    @Test
    void aRedisThatLostEverythingIsNotFenced() {
        try (Engine e = TestServers.freshEngine()) {
            Services s = e.services();
            s.orders().create(support, "gone-1", null, Duration.ofMinutes(30));
            s.follower().drainOnce();
            try (RawRedis raw = new RawRedis()) {
                raw.cmd().flushall();
                assertThat(raw.cmd().get(RedisKeys.FENCED)).isNull();
            }
            s.maintenance().runOnce();
            TransitionResult r = s.transitions().transition(support, TransitionRequest.of("gone-1", OrderStatus.PAID, "t", "paid"));
            assertThat(r.applied()).isTrue();
        }
    }
}
