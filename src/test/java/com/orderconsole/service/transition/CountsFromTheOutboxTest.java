package com.orderconsole.service.transition;

import com.orderconsole.FreshEngine;
import com.orderconsole.RawRedis;
import com.orderconsole.domain.Operator;
import com.orderconsole.domain.OrderStatus;
import com.orderconsole.domain.ResultCode;
import com.orderconsole.domain.Role;
import com.orderconsole.domain.TransitionRequest;
import com.orderconsole.redis.LuaScript;
import com.orderconsole.redis.RedisKeys;
import com.orderconsole.app.Services;
import com.orderconsole.service.monitor.Edge;
import com.orderconsole.service.recon.ReconCategory;
import com.orderconsole.service.recon.ReconProgress;
import io.lettuce.core.ScriptOutputType;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import java.time.Duration;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * Issue 15.3: transition.lua no longer counts moves and rejections; count_outbox.lua counts them from the outbox. What
 * users read must not change: every outcome Redis accepted is in the counts at once, once, whatever the follower did.
 */
class CountsFromTheOutboxTest {
    @RegisterExtension
    final FreshEngine engine = new FreshEngine();
    private Services s;
    private final Operator support = new Operator("alice", Role.SUPPORT);
    private final Operator ops = new Operator("olga", Role.OPS);

    @BeforeEach
    void start() {
        s = engine.services();
    }

    private ResultCode move(String id, OrderStatus to) {
        return s.transitions().transition(support, TransitionRequest.of(id, to, "test", "")).code();
    }

    @Test
    void theCountsShowEveryOutcomeAtOnceWithoutTheFollower() {
        for (int i = 0; i < 5; i++) {
            s.orders().create(support, "c-" + i, null, Duration.ofMinutes(30));
            assertThat(move("c-" + i, OrderStatus.PAID)).isEqualTo(ResultCode.APPLIED);
        }
        assertThat(move("c-0", OrderStatus.PAID)).isEqualTo(ResultCode.ALREADY_IN_STATUS);
        assertThat(move("c-1", OrderStatus.FINISHED)).isEqualTo(ResultCode.NOT_ALLOWED);

        assertThat(s.monitor().appliedByEdge()).containsEntry(new Edge(OrderStatus.WAIT_PAY, OrderStatus.PAID), 5L);
        assertThat(s.monitor().resultCounts()).containsEntry(ResultCode.APPLIED, 5L).containsEntry(ResultCode.ALREADY_IN_STATUS, 1L)
                .containsEntry(ResultCode.NOT_ALLOWED, 1L);
        assertThat(s.monitor().stateCounts().live()).containsEntry(OrderStatus.WAIT_PAY, 0L).containsEntry(OrderStatus.PAID, 5L);
        assertThat(s.monitor().appliedByEdge()).as("reading twice counts nothing twice")
                .containsEntry(new Edge(OrderStatus.WAIT_PAY, OrderStatus.PAID), 5L);
    }

    @Test
    void theFollowerCountsWhatItTrimsSoNoMoveIsLostWithTheEntry() {
        for (int i = 0; i < 30; i++) {
            s.orders().create(support, "t-" + i, null, Duration.ofMinutes(30));
            move("t-" + i, OrderStatus.PAID);
        }
        // Nobody read the counts: the follower applies and trims every entry but the last one of each bucket.
        s.follower().drainOnce();
        long left = 0;
        try (RawRedis raw = new RawRedis()) {
            for (int b = 0; b < RedisKeys.buckets(); b++) {
                left += raw.cmd().xlen(RedisKeys.outbox(b));
            }
        }
        assertThat(left).as("the outbox was trimmed").isLessThan(30);
        assertThat(s.monitor().appliedByEdge()).containsEntry(new Edge(OrderStatus.WAIT_PAY, OrderStatus.PAID), 30L);
        assertThat(s.monitor().stateCounts().live()).containsEntry(OrderStatus.PAID, 30L).containsEntry(OrderStatus.WAIT_PAY, 0L);
    }

    @Test
    void aBatchCountedTwiceOrAfterTheCountingWentAheadAddsEachEntryOnce() {
        s.orders().create(support, "b-1", null, Duration.ofMinutes(30));
        s.orders().create(support, "b-2", null, Duration.ofMinutes(30));
        int b = RedisKeys.bucket("b-1");
        try (com.orderconsole.redis.RedisStores redis = com.orderconsole.redis.RedisStores.connect(
                com.orderconsole.TestServers.redis().uri(), Duration.ofSeconds(5))) {
            com.orderconsole.redis.OutboxStore outbox = redis.outbox();
            move("b-1", OrderStatus.PAID);
            String epoch = redis.dataSet().epoch();
            var first = outbox.read(b, "0-0", 100, epoch);
            outbox.count(b, "0-0", first);
            outbox.count(b, "0-0", first); // as a MySQL transaction that failed after counting, read again
            // What came next is counted before the follower reads it (as the follower loop does while MySQL is down).
            if (RedisKeys.bucket("b-2") == b) {
                move("b-2", OrderStatus.PAID);
            } else {
                move("b-1", OrderStatus.WAIT_SHIP);
            }
            assertThat(s.monitor().appliedByEdge().values().stream().mapToLong(Long::longValue).sum()).as("read, not yet counted")
                    .isEqualTo(2);
            outbox.count(b);
            String after = first.get(first.size() - 1).streamId();
            outbox.count(b, after, outbox.read(b, after, 100, epoch));
        }
        assertThat(s.monitor().appliedByEdge().values().stream().mapToLong(Long::longValue).sum()).as("each move once").isEqualTo(2);
        s.follower().drainOnce();
        assertThat(s.monitor().appliedByEdge().values().stream().mapToLong(Long::longValue).sum()).isEqualTo(2);
        assertThat(s.monitor().stateCounts().live().values().stream().mapToLong(Long::longValue).sum()).isEqualTo(2);
    }

    @Test
    void aRecountWhileEntriesWaitToBeCountedCountsEachMoveOnce() {
        s.orders().create(support, "r-1", null, Duration.ofMinutes(30));
        s.orders().create(support, "r-2", null, Duration.ofMinutes(30));
        move("r-1", OrderStatus.PAID);
        move("r-2", OrderStatus.PAID);
        move("r-2", OrderStatus.WAIT_SHIP);
        try (RawRedis raw = new RawRedis()) {
            raw.cmd().hincrby(RedisKeys.stats(RedisKeys.bucket("r-1")), "n:4", 2); // a drift for the recount to repair
        }
        // The moves above are in the order states the recount counts, and not yet in any counter.
        var report = s.reconciliation().run(null, ReconProgress.NONE, () -> false);
        s.reconciliation().repair(ops, report, ReconCategory.COUNTERS_DRIFT, ReconProgress.NONE, () -> false);
        assertThat(s.monitor().stateCounts().live()).containsEntry(OrderStatus.WAIT_PAY, 0L).containsEntry(OrderStatus.PAID, 1L)
                .containsEntry(OrderStatus.WAIT_SHIP, 1L).containsEntry(OrderStatus.SHIPPED, 0L);
    }

    @Test
    void setStatusCountsRefusesWhileAnEntryIsUncounted() {
        s.orders().create(support, "u-1", null, Duration.ofMinutes(30));
        int b = RedisKeys.bucket("u-1");
        s.monitor().appliedByEdge(); // counts everything so far
        move("u-1", OrderStatus.PAID);
        try (RawRedis raw = new RawRedis()) {
            Long set = raw.cmd().eval(LuaScript.SET_STATUS_COUNTS.source(), ScriptOutputType.INTEGER,
                    new String[]{RedisKeys.stats(b), RedisKeys.outbox(b)}, "0", "1", "0", "0", "0", "0");
            assertThat(set).as("refused: the payment is in the orders counted but not in m: yet").isZero();
            assertThat(raw.cmd().hget(RedisKeys.stats(b), "n:2")).isNull();
        }
    }

    @Test
    void entriesTheEarlierScriptCountedItselfAreNotCountedAgain() {
        s.orders().create(support, "k-1", null, Duration.ofMinutes(30));
        int b = RedisKeys.bucket("k-1");
        try (RawRedis raw = new RawRedis()) {
            // As the script before this change left a payment: state, its own move counter, a compact entry.
            raw.cmd().hset(RedisKeys.order("k-1"), Map.of("status", "2", "version", "2"));
            raw.cmd().zrem(RedisKeys.cancelQueue(b), "k-1");
            raw.cmd().hincrby(RedisKeys.stats(b), "m:1>2", 1);
            raw.cmd().xadd(RedisKeys.outbox(b), Map.of("k", "k-1,1,2,2,1,7", "a", "bob", "s", "api", "r", ""));
        }
        assertThat(move("k-1", OrderStatus.WAIT_SHIP)).isEqualTo(ResultCode.APPLIED);
        assertThat(s.monitor().appliedByEdge()).containsEntry(new Edge(OrderStatus.WAIT_PAY, OrderStatus.PAID), 1L)
                .containsEntry(new Edge(OrderStatus.PAID, OrderStatus.WAIT_SHIP), 1L);
        s.follower().drainOnce();
        assertThat(s.deadLetters().countOpen()).isZero();
        assertThat(s.monitor().appliedByEdge()).containsEntry(new Edge(OrderStatus.WAIT_PAY, OrderStatus.PAID), 1L);
    }

    @Test
    void aSourceOrActorThatCouldBreakTheEntryIsRefusedBeforeRedis() {
        assertThatThrownBy(() -> TransitionRequest.of("x-1", OrderStatus.PAID, "api\nfake", ""))
                .hasMessageContaining("source").hasMessageContaining("control character");
        assertThatThrownBy(() -> TransitionRequest.of("x-1", OrderStatus.PAID, "a".repeat(33), ""))
                .hasMessageContaining("1 to 32 characters");
        s.orders().create(support, "x-1", null, Duration.ofMinutes(30));
        assertThatThrownBy(() -> s.transitions().transition(new Operator("bad\nname", Role.SUPPORT),
                TransitionRequest.of("x-1", OrderStatus.PAID, "api", ""))).hasMessageContaining("name");
    }
}
