package com.orderconsole.service.forgery;

import com.orderconsole.RawRedis;
import com.orderconsole.RawSql;
import com.orderconsole.TestServers;
import com.orderconsole.app.Engine;
import com.orderconsole.app.Services;
import com.orderconsole.domain.Operator;
import com.orderconsole.domain.OrderStatus;
import com.orderconsole.domain.ResultCode;
import com.orderconsole.domain.Role;
import com.orderconsole.domain.TransitionRequest;
import com.orderconsole.domain.TransitionResult;
import com.orderconsole.redis.RedisKeys;
import com.orderconsole.service.bulk.BulkBatch;
import com.orderconsole.service.bulk.BulkItem;
import com.orderconsole.service.bulk.BulkPreview;
import com.orderconsole.service.bulk.BulkProgress;
import com.orderconsole.service.bulk.BulkScope;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Issue 33.5: a Redis restored from an older copy (DUMP of every key, put back with RESTORE) is caught every time, the
 * same copy restored again included, and no transition, bulk move or sweep answers "applied" on it, whether a follower
 * runs or not.
 */
class RestoredCopyTest {
    private final Operator support = new Operator("alice", Role.SUPPORT);
    private final Operator ops = new Operator("olga", Role.OPS);

    /** Every key of the data set, as DUMP gives it. */
    private static Map<String, byte[]> copy() {
        Map<String, byte[]> out = new HashMap<>();
        try (RawRedis raw = new RawRedis()) {
            for (String k : raw.cmd().keys("osm:*")) {
                out.put(k, raw.cmd().dump(k));
            }
        }
        return out;
    }

    /** Puts Redis back to {@code copy}, as an operator restoring a snapshot would. */
    private static void restore(Map<String, byte[]> copy) {
        try (RawRedis raw = new RawRedis()) {
            raw.cmd().flushall();
            copy.forEach((k, v) -> raw.cmd().restore(k, 0, v));
        }
    }

    private static long mysqlStatus(String id) {
        return RawSql.count("SELECT status FROM orders WHERE order_id = '" + id + "'");
    }

    /** Creates two unpaid orders, takes the copy, then pays the first one (MySQL has it PAID). */
    private Map<String, byte[]> copyThenPay(Services s, String paid, String unpaid) {
        s.orders().create(support, paid, null, Duration.ofMinutes(30));
        s.orders().create(support, unpaid, null, Duration.ofMinutes(30));
        s.follower().drainOnce();
        Map<String, byte[]> c = copy();
        assertThat(s.transitions().transition(support, TransitionRequest.of(paid, OrderStatus.PAID, "t", "paid")).applied()).isTrue();
        s.follower().drainOnce();
        assertThat(mysqlStatus(paid)).isEqualTo((long) OrderStatus.PAID.code());
        return c;
    }

    private TransitionResult cancel(Services s, String id) {
        return s.transitions().transition(support, TransitionRequest.of(id, OrderStatus.CANCELLED, "t", "support cancel"));
    }

    /** A bulk cancel of {@code ids}, previewed now, to be applied later. */
    private BulkPreview bulkCancel(Services s, String... ids) {
        return s.bulk().preview(BulkScope.of(List.of(ids)), OrderStatus.CANCELLED, false, BulkProgress.NONE, () -> false);
    }

    private BulkItem bulkOutcome(Services s, BulkPreview p) {
        BulkBatch b = s.bulk().apply(support, p, "campaign closed", "console", BulkProgress.NONE, () -> false);
        assertThat(b.counts().applied()).as("no bulk move applied").isZero();
        return s.bulk().items(b.id(), null, null, 10).get(0);
    }

    /**
     * The same copy restored three times, no follower reading in between; each time a different one of the three
     * writers meets it first (a transition, a bulk move, the sweeper), and all three are refused with the fence code.
     */
    @Test
    void theSameCopyRestoredAgainAndAgainIsCaughtByWhicheverWriterMeetsItFirstWithNoFollowerRunning() {
        try (Engine e = TestServers.freshEngine()) {
            Services s = e.services();
            Map<String, byte[]> old = copyThenPay(s, "rc-1", "rc-2");
            for (String first : List.of("transition", "bulk", "sweeper")) {
                BulkPreview bulk = bulkCancel(s, "rc-2");
                restore(old);
                try (RawRedis raw = new RawRedis()) {
                    raw.cmd().zadd(RedisKeys.cancelQueue(RedisKeys.bucket("rc-1")), 1, "rc-1"); // the paid order, due in the copy
                }
                // No follower reads after the restore: the writer's own look must find it.
                int swept = -1;
                BulkItem item = null;
                if (first.equals("bulk")) {
                    item = bulkOutcome(s, bulk);
                } else if (first.equals("sweeper")) {
                    swept = s.sweeper().sweepNow(ops);
                }
                TransitionResult r = cancel(s, "rc-1");
                assertThat(r.code()).as("%s first: a transition is refused, not applied", first).isEqualTo(ResultCode.RESTORING);
                assertThat(cancel(s, "rc-2").code()).as("%s first: any order of the copy", first).isEqualTo(ResultCode.RESTORING);
                if (item == null) {
                    item = bulkOutcome(s, bulk);
                }
                assertThat(item.outcome()).as("%s first: the bulk move", first).isEqualTo(BulkItem.Outcome.REJECTED);
                assertThat(item.code()).as("%s first: the bulk move's code", first).isEqualTo(ResultCode.RESTORING);
                if (swept < 0) {
                    swept = s.sweeper().sweepNow(ops);
                }
                assertThat(swept).as("%s first: the sweeper cancels nothing", first).isZero();
                try (RawRedis raw = new RawRedis()) {
                    assertThat(raw.cmd().get(RedisKeys.FENCED)).as("%s first: fenced", first).isNotNull();
                    assertThat(raw.cmd().hget(RedisKeys.order("rc-1"), "status")).isEqualTo("1");
                    assertThat(raw.cmd().hget(RedisKeys.order("rc-2"), "status")).isEqualTo("1");
                }
                s.maintenance().runOnce();
                assertThat(s.orders().lookup("rc-1").summary().redisStatus()).as("%s first: Redis follows MySQL", first)
                        .isEqualTo(OrderStatus.PAID);
            }
            assertThat(RawSql.count("SELECT COUNT(*) FROM order_history WHERE to_status = 6"))
                    .as("no cancel reached the history").isZero();
            TransitionResult ship = s.transitions().transition(support, TransitionRequest.of("rc-1", OrderStatus.WAIT_SHIP, "t", "ship"));
            assertThat(ship.applied()).as("moves work again once restored").isTrue();
        }
    }

    @Test
    void aSecondRestoreOfTheSameCopyIsCaughtByAProcessStartedOnIt() {
        Map<String, byte[]> old;
        try (Engine e = TestServers.freshEngine()) {
            Services s = e.services();
            old = copyThenPay(s, "rc-3", "rc-4");
            restore(old);
            firstRestoreFoundByTheFollower(s);
        }
        // The same copy again, met by a process that starts on it (a command run while serve is stopped).
        restore(old);
        try (Engine e = Engine.start(TestServers.config())) {
            Services s = e.services();
            // It found the copy at its start and restored the data set from MySQL before anything moved.
            assertThat(s.orders().lookup("rc-3").summary().redisStatus()).isEqualTo(OrderStatus.PAID);
            assertThat(s.sweeper().sweepNow(ops)).isZero();
        }
        assertThat(mysqlStatus("rc-3")).isEqualTo((long) OrderStatus.PAID.code());
    }

    @Test
    void aSecondRestoreIsCaughtByTheFollowerAndByMaintenance() {
        try (Engine e = TestServers.freshEngine()) {
            Services s = e.services();
            Map<String, byte[]> old = copyThenPay(s, "rc-5", "rc-6");
            restore(old);
            firstRestoreFoundByTheFollower(s);
            restore(old);
            // Before the fix the follower read the copy as a new data set (its marker is not the cursors' any more).
            assertThat(org.junit.jupiter.api.Assertions.assertThrows(IllegalStateException.class, () -> s.follower().drainOnce()))
                    .hasMessageContaining("older copy");
            s.maintenance().runOnce();
            assertThat(s.orders().lookup("rc-5").summary().redisStatus()).isEqualTo(OrderStatus.PAID);
            restore(old);
            // Maintenance alone (its 5 s round) finds it too, before any follower read.
            s.maintenance().runOnce();
            assertThat(s.orders().lookup("rc-5").summary().redisStatus()).isEqualTo(OrderStatus.PAID);
            try (RawRedis raw = new RawRedis()) {
                assertThat(raw.cmd().get(RedisKeys.FENCED)).as("restored and lifted").isNull();
            }
        }
    }

    /** The follower's trimmed-entry fence finds a first restore; maintenance restores from MySQL. */
    private static void firstRestoreFoundByTheFollower(Services s) {
        assertThat(org.junit.jupiter.api.Assertions.assertThrows(IllegalStateException.class, () -> s.follower().drainOnce()))
                .hasMessageContaining("went back in time");
        s.maintenance().runOnce();
        s.follower().drainOnce();
    }
}
