package com.orderconsole.service.follower;

import com.orderconsole.FreshEngine;
import com.orderconsole.RawRedis;
import com.orderconsole.RawSql;
import com.orderconsole.TestServers;
import com.orderconsole.app.Engine;
import com.orderconsole.app.Services;
import com.orderconsole.domain.Operator;
import com.orderconsole.domain.OrderStatus;
import com.orderconsole.domain.Role;
import com.orderconsole.domain.TransitionRequest;
import com.orderconsole.domain.TransitionResult;
import com.orderconsole.redis.RedisKeys;
import com.orderconsole.service.deadletter.DeadLetter;
import io.lettuce.core.XAddArgs;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import java.time.Duration;
import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Times are the server's: an outbox entry is dated by Redis' clock in the transition script, an entry XADDed by hand
 * with an id far from that clock is set aside in words and moves no clock (no later move, history row or sweeper cancel
 * takes its time), and the checks against deadlines and order creation judge that time.
 */
class ServerClockTest {
    @RegisterExtension
    final FreshEngine engine = new FreshEngine();
    private final Operator support = new Operator("alice", Role.SUPPORT);

    private static long redisNow() {
        try (RawRedis raw = new RawRedis()) {
            List<String> t = raw.cmd().time();
            return Long.parseLong(t.get(0)) * 1000 + Long.parseLong(t.get(1)) / 1000;
        }
    }

    private static String xadd(String id, long atMs, String entry) {
        try (RawRedis raw = new RawRedis()) {
            return raw.cmd().xadd(RedisKeys.outbox(RedisKeys.bucket(id)), new XAddArgs().id(atMs + "-0"), Map.of("e", entry));
        }
    }

    private static long mysql(String sql) {
        return RawSql.count(sql);
    }

    private TransitionResult move(String id, OrderStatus to) {
        TransitionResult r = engine.services().transitions().transition(support, TransitionRequest.of(id, to, "console", ""));
        assertThat(r.applied()).as(id + " to " + to).isTrue();
        return r;
    }

    @Test
    void anEntryDatedFiveMinutesAheadMovesNoClockAndIsSetAsideInWords() {
        Services s = engine.services();
        s.orders().create(support, "CK-1", null, Duration.ofMinutes(30));
        s.follower().drainOnce();
        long ahead = redisNow() + 5 * 60_000;
        String junk = xadd("CK-1", ahead, "not an outcome at all");
        String forged = xadd("CK-1", ahead + 1, "CK-1,1,6,2,1\nalice\nconsole\nforged in the future");

        long before = redisNow();
        TransitionResult paid = move("CK-1", OrderStatus.PAID);
        long after = redisNow();
        assertThat(paid.timeMs()).as("the answer's time is Redis' clock, not the junk entry's").isBetween(before, after);
        try (RawRedis raw = new RawRedis()) {
            assertThat(Long.parseLong(raw.cmd().hget(RedisKeys.order("CK-1"), "updateTime"))).isBetween(before, after);
        }
        s.follower().drainOnce();
        assertThat(mysql("SELECT status FROM orders WHERE order_id = 'CK-1'")).isEqualTo(OrderStatus.PAID.code());
        assertThat(mysql("SELECT status_since_ms FROM orders WHERE order_id = 'CK-1'")).isBetween(before, after);
        assertThat(mysql("SELECT at_ms FROM order_history WHERE order_id = 'CK-1' AND version = 2 AND result_code = 1"))
                .as("the history row is dated by Redis' clock").isBetween(before, after);
        List<DeadLetter> letters = s.deadLetters().open(10);
        assertThat(letters).extracting(DeadLetter::entryId).containsExactlyInAnyOrder(junk, forged);
        assertThat(letters).filteredOn(d -> d.entryId().equals(forged)).singleElement().satisfies(d -> {
            assertThat(d.kind()).isEqualTo("OFF_CLOCK");
            assertThat(d.orderId()).isEqualTo("CK-1");
            assertThat(d.reason()).contains("minutes after Redis' clock").contains("no script wrote it").doesNotContain("Exception");
        });
        assertThat(mysql("SELECT COUNT(*) FROM order_history WHERE order_id = 'CK-1' AND reason = 'forged in the future'")).isZero();
    }

    @Test
    void theSweepersCancelAfterAFutureEntryIsDatedByRedisAndReachesMySql() throws Exception {
        Services s = engine.services();
        s.orders().create(support, "CK-2", null, Duration.ofMillis(300));
        s.follower().drainOnce();
        xadd("CK-2", redisNow() + 5 * 60_000, "not an outcome at all");
        Thread.sleep(600);
        assertThat(s.sweeper().tick()).isEqualTo(1);
        s.follower().drainOnce();
        assertThat(mysql("SELECT status FROM orders WHERE order_id = 'CK-2'")).as("cancelled in MySQL too").isEqualTo(OrderStatus.CANCELLED.code());
        assertThat(s.deadLetters().open(10)).extracting(DeadLetter::kind).containsExactly("OUTBOX_ENTRY");
    }

    @Test
    void anEntryBackDatedBeforeTheFollowersLastReadIsSetAside() {
        Services s = engine.services();
        s.orders().create(support, "CK-3", null, Duration.ofMinutes(30));
        s.follower().drainOnce(); // reads every bucket to its end: what is added later is written after this
        String forged = xadd("CK-3", redisNow() - 60_000, "CK-3,1,2,2,1\nalice\nconsole\nback-dated");
        s.follower().drainOnce();
        assertThat(mysql("SELECT status FROM orders WHERE order_id = 'CK-3'")).as("still WAIT_PAY").isEqualTo(OrderStatus.WAIT_PAY.code());
        assertThat(s.deadLetters().open(10)).singleElement().satisfies(d -> {
            assertThat(d.kind()).isEqualTo("OFF_CLOCK");
            assertThat(d.entryId()).isEqualTo(forged);
            assertThat(d.reason()).contains("before the follower read this bucket's outbox to its end").contains("added after that read");
        });
        move("CK-3", OrderStatus.PAID);
        s.follower().drainOnce();
        assertThat(mysql("SELECT status FROM orders WHERE order_id = 'CK-3'")).as("the real move goes on").isEqualTo(OrderStatus.PAID.code());
    }

    @Test
    void anEntryDatedBeforeItsOrderWasCreatedIsSetAside() {
        Services s = engine.services();
        s.orders().create(support, "CK-4", null, Duration.ofMinutes(30));
        String forged = xadd("CK-4", redisNow() - 10 * 60_000, "CK-4,1,2,2,1\nalice\nconsole\nbefore creation");
        // A follower that just started has read no bucket yet: the creation time in MySQL is what the entry is judged by.
        try (Engine restarted = Engine.start(TestServers.config())) {
            restarted.services().follower().drainOnce();
        }
        assertThat(mysql("SELECT status FROM orders WHERE order_id = 'CK-4'")).isEqualTo(OrderStatus.WAIT_PAY.code());
        assertThat(s.deadLetters().open(10)).singleElement().satisfies(d -> {
            assertThat(d.entryId()).isEqualTo(forged);
            assertThat(d.reason()).contains("before order CK-4 was created");
        });
    }
}
