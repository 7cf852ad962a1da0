package com.orderconsole.service.follower;

import ch.qos.logback.classic.Level;
import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.core.read.ListAppender;
import com.orderconsole.FreshEngine;
import com.orderconsole.RawRedis;
import com.orderconsole.RawSql;
import com.orderconsole.domain.Operator;
import com.orderconsole.domain.OrderStatus;
import com.orderconsole.domain.Role;
import com.orderconsole.domain.TransitionRequest;
import com.orderconsole.redis.RedisKeys;
import com.orderconsole.app.Services;
import com.orderconsole.service.deadletter.DeadLetter;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.slf4j.LoggerFactory;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.function.Supplier;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Defect D2, "invented history": an outbox entry for an order that neither MySQL nor Redis has is explained by no
 * recorded order, so it is set aside instead of becoming history. An order Redis has and MySQL lacks (MySQL restored
 * from an older backup) is real: its transitions are kept. Orders are written to MySQL before Redis, so no third case
 * exists for an entry the transition script wrote.
 */
class InventedHistoryTest {
    @RegisterExtension
    final FreshEngine engine = new FreshEngine();
    private final Operator support = new Operator("alice", Role.SUPPORT);

    /** @return {@code n} new ids in the bucket of {@code like}, so that they share one follower batch with it */
    private static List<String> idsInBucketOf(String like, String prefix, int n) {
        List<String> out = new ArrayList<>();
        for (int i = 0; out.size() < n; i++) {
            if (RedisKeys.bucket(prefix + i) == RedisKeys.bucket(like)) {
                out.add(prefix + i);
            }
        }
        return out;
    }

    /** An entry as transition.lua writes it (compact form, the bucket's next sequence number) with nothing behind it. */
    private static void plant(String orderId, OrderStatus from, OrderStatus to, long version, int code) {
        int bucket = RedisKeys.bucket(orderId);
        try (RawRedis raw = new RawRedis()) {
            long seq = raw.cmd().hincrby(RedisKeys.stats(bucket), "seq", 1);
            raw.cmd().xadd(RedisKeys.outbox(bucket), Map.of("k", orderId + "," + from.code() + "," + to.code() + "," + version + ","
                    + code + "," + seq, "a", "mallory", "s", "api", "r", "planted"));
        }
    }

    private void pay(String id) {
        assertThat(engine.services().transitions().transition(support, TransitionRequest.of(id, OrderStatus.PAID, "t", "")).applied())
                .isTrue();
    }

    private static List<ILoggingEvent> logged(Runnable r) {
        Logger followerLog = (Logger) LoggerFactory.getLogger(Follower.class);
        ListAppender<ILoggingEvent> a = new ListAppender<>();
        a.start();
        followerLog.addAppender(a);
        try {
            r.run();
        } finally {
            followerLog.detachAppender(a);
        }
        return a.list;
    }

    private static <T> T logged(Supplier<T> s, List<ILoggingEvent> into) {
        java.util.concurrent.atomic.AtomicReference<T> out = new java.util.concurrent.atomic.AtomicReference<>();
        into.addAll(logged(() -> out.set(s.get())));
        return out.get();
    }

    @Test
    void anEntryForAnOrderInNeitherStoreIsSetAsideAndTheEntriesAroundItAreApplied() {
        Services s = engine.services();
        List<String> ok = idsInBucketOf("GHOST-1", "ok-", 2);
        ok.forEach(id -> s.orders().create(support, id, null, Duration.ofMinutes(30)));
        s.follower().drainOnce();
        pay(ok.get(0));
        plant("GHOST-1", OrderStatus.WAIT_PAY, OrderStatus.PAID, 2, 1);
        plant("GHOST-1", OrderStatus.PAID, OrderStatus.CANCELLED, 2, 0); // a refused attempt: as invented as the move
        pay(ok.get(1));

        // Issue 33: the count is what reached MySQL's history (the two payments), not the entries read.
        assertThat(s.follower().drainOnce()).as("the two real payments applied").isEqualTo(2);
        assertThat(s.follower().status().pending()).as("every entry handled, none holds the bucket back").isZero();

        assertThat(RawSql.count("SELECT COUNT(*) FROM order_history WHERE order_id = 'GHOST-1'")).as("no invented history").isZero();
        assertThat(RawSql.count("SELECT COUNT(*) FROM orders WHERE order_id = 'GHOST-1'")).isZero();
        for (String id : ok) {
            assertThat(RawSql.count("SELECT status FROM orders WHERE order_id = '" + id + "'")).isEqualTo(OrderStatus.PAID.code());
            assertThat(RawSql.count("SELECT COUNT(*) FROM order_history WHERE order_id = '" + id + "' AND to_status = 2 AND result_code = 1"))
                    .isEqualTo(1);
        }
        List<DeadLetter> letters = s.deadLetters().open(10);
        assertThat(letters).hasSize(2).allSatisfy(d -> {
            assertThat(d.kind()).isEqualTo("UNKNOWN_ORDER");
            assertThat(d.orderId()).isEqualTo("GHOST-1");
            assertThat(d.bucket()).isEqualTo(RedisKeys.bucket("GHOST-1"));
            assertThat(d.entryId()).isNotBlank();
            assertThat(d.reason()).contains("GHOST-1").contains("neither MySQL nor Redis").doesNotContain("null")
                    .doesNotContain("Exception");
            assertThat(d.body()).contains("k=GHOST-1,");
        });
        assertThat(s.follower().status().pending()).isZero();
        // Read again (a second follower, a replay): set aside once.
        assertThat(s.follower().drainOnce()).isZero();
        assertThat(s.deadLetters().countOpen()).isEqualTo(2);
    }

    /** A refused attempt moves no order row, so no UPDATE count can give it away: it is checked on its own. */
    @Test
    void aRefusedAttemptAloneForAnOrderInNeitherStoreIsSetAside() {
        Services s = engine.services();
        String ok = idsInBucketOf("GHOST-2", "ok-", 1).get(0);
        s.orders().create(support, ok, null, Duration.ofMinutes(30));
        s.follower().drainOnce();
        pay(ok);
        plant("GHOST-2", OrderStatus.WAIT_PAY, OrderStatus.WAIT_PAY, 1, -4);

        assertThat(s.follower().drainOnce()).as("the payment, not the planted attempt").isEqualTo(1);

        assertThat(RawSql.count("SELECT COUNT(*) FROM order_history WHERE order_id = 'GHOST-2'")).isZero();
        assertThat(RawSql.count("SELECT status FROM orders WHERE order_id = '" + ok + "'")).isEqualTo(OrderStatus.PAID.code());
        assertThat(s.deadLetters().open(10)).singleElement().satisfies(d -> {
            assertThat(d.kind()).isEqualTo("UNKNOWN_ORDER");
            assertThat(d.orderId()).isEqualTo("GHOST-2");
        });
    }

    /**
     * MySQL restored from a backup older than an order: Redis still has the order and goes on moving it. Its
     * transitions happened; they are kept (reconciliation lists the order under "Missing in MySQL" for an admin to copy).
     */
    @Test
    void anOrderRedisHasButMySqlLacksKeepsItsHistory() {
        Services s = engine.services();
        s.orders().create(support, "late-1", null, Duration.ofMinutes(30));
        s.orders().create(support, "early-1", null, Duration.ofMinutes(30));
        s.follower().drainOnce();
        RawSql.update("DELETE FROM order_history WHERE order_id = 'late-1'");
        RawSql.update("DELETE FROM orders WHERE order_id = 'late-1'");
        pay("late-1");
        pay("early-1");

        List<ILoggingEvent> log = new ArrayList<>();
        assertThat(logged(() -> s.follower().drainOnce(), log)).isEqualTo(2);

        assertThat(RawSql.count("SELECT COUNT(*) FROM order_history WHERE order_id = 'late-1' AND to_status = 2 AND result_code = 1"))
                .as("the real transition is kept").isEqualTo(1);
        assertThat(RawSql.count("SELECT status FROM orders WHERE order_id = 'early-1'")).isEqualTo(OrderStatus.PAID.code());
        assertThat(s.deadLetters().countOpen()).isZero();
        assertThat(log).anySatisfy(ev -> {
            assertThat(ev.getLevel()).isEqualTo(Level.WARN);
            assertThat(ev.getFormattedMessage()).contains("MySQL lacks 1 order").contains("Missing in MySQL");
        });
        // Said once, not for every batch that brings another of its moves.
        assertThat(s.transitions().transition(support, TransitionRequest.of("late-1", OrderStatus.WAIT_SHIP, "t", "")).applied()).isTrue();
        List<ILoggingEvent> again = new ArrayList<>();
        assertThat(logged(() -> s.follower().drainOnce(), again)).isEqualTo(1);
        assertThat(again).noneSatisfy(ev -> assertThat(ev.getFormattedMessage()).contains("MySQL lacks"));
        assertThat(RawSql.count("SELECT COUNT(*) FROM order_history WHERE order_id = 'late-1' AND to_status = 3")).isEqualTo(1);
    }

    /** Both in one batch: the invented entry goes, the restored-backup order's and everyone else's stay. */
    @Test
    void inOneBatchTheInventedEntryIsSetAsideAndTheRedisOnlyOrdersAreKept() {
        Services s = engine.services();
        List<String> ids = idsInBucketOf("GHOST-3", "mix-", 2);
        String late = ids.get(0);
        String normal = ids.get(1);
        ids.forEach(id -> s.orders().create(support, id, null, Duration.ofMinutes(30)));
        s.follower().drainOnce();
        RawSql.update("DELETE FROM order_history WHERE order_id = '" + late + "'");
        RawSql.update("DELETE FROM orders WHERE order_id = '" + late + "'");
        pay(late);
        plant("GHOST-3", OrderStatus.WAIT_PAY, OrderStatus.PAID, 2, 1);
        pay(normal);
        s.transitions().transition(support, TransitionRequest.of(normal, OrderStatus.PAID, "t", "a repeated callback"));

        assertThat(s.follower().drainOnce()).as("all but the invented entry").isEqualTo(3);

        assertThat(RawSql.count("SELECT COUNT(*) FROM order_history WHERE order_id = 'GHOST-3'")).isZero();
        assertThat(RawSql.count("SELECT COUNT(*) FROM order_history WHERE order_id = '" + late + "' AND to_status = 2")).isEqualTo(1);
        assertThat(RawSql.count("SELECT COUNT(*) FROM order_history WHERE order_id = '" + normal + "' AND version >= 2")).isEqualTo(2);
        assertThat(RawSql.count("SELECT status FROM orders WHERE order_id = '" + normal + "'")).isEqualTo(OrderStatus.PAID.code());
        assertThat(s.deadLetters().open(10)).singleElement().satisfies(d -> assertThat(d.orderId()).isEqualTo("GHOST-3"));
    }

    /** The version guard changes no row for an entry applied before: that order exists, nothing is set aside. */
    @Test
    void aDuplicateDeliveryIsNotTakenForAnInventedEntry() {
        Services s = engine.services();
        s.orders().create(support, "dup-1", null, Duration.ofMinutes(30));
        pay("dup-1");
        s.follower().drainOnce();
        long rows = RawSql.count("SELECT COUNT(*) FROM order_history WHERE order_id = 'dup-1'");
        // The follower reads again what the trim kept (as after a cursor restored from a backup).
        RawSql.update("UPDATE sync_cursor SET last_id = '0-0'");

        assertThat(s.follower().drainOnce()).isPositive();

        assertThat(RawSql.count("SELECT COUNT(*) FROM order_history WHERE order_id = 'dup-1'")).isEqualTo(rows);
        assertThat(RawSql.count("SELECT version FROM orders WHERE order_id = 'dup-1'")).isEqualTo(2);
        assertThat(s.deadLetters().countOpen()).isZero();
    }

    /** A terminal order that left Redis (issue 16) is MySQL's: what the outbox still holds for it is normal. */
    @Test
    void aTerminalOrderRetiredFromRedisIsNoInventedOrder() {
        Services s = engine.services();
        s.orders().create(support, "done-1", null, Duration.ofMinutes(30));
        s.follower().drainOnce();
        assertThat(s.transitions().transition(support, TransitionRequest.of("done-1", OrderStatus.CANCELLED, "t", "")).applied()).isTrue();
        s.transitions().transition(support, TransitionRequest.of("done-1", OrderStatus.PAID, "t", "too late"));
        try (RawRedis raw = new RawRedis()) {
            raw.cmd().del(RedisKeys.order("done-1"));
        }

        assertThat(s.follower().drainOnce()).isEqualTo(2);

        assertThat(RawSql.count("SELECT COUNT(*) FROM order_history WHERE order_id = 'done-1' AND version = 2")).isEqualTo(2);
        assertThat(RawSql.count("SELECT status FROM orders WHERE order_id = 'done-1'")).isEqualTo(OrderStatus.CANCELLED.code());
        assertThat(s.deadLetters().countOpen()).isZero();
    }

    /** The log said "(order null)" for an entry whose order id cannot be read. */
    @Test
    void anEntryWithoutAReadableOrderIdIsLoggedInWords() {
        Services s = engine.services();
        int bucket = RedisKeys.bucket("x");
        try (RawRedis raw = new RawRedis()) {
            raw.cmd().xadd(RedisKeys.outbox(bucket), Map.of("k", ",1,2,2,1,5", "a", "x", "s", "t", "r", ""));
        }
        List<ILoggingEvent> log = logged(() -> s.follower().drainOnce());
        assertThat(log).anySatisfy(ev -> assertThat(ev.getFormattedMessage()).contains("set aside outbox entry")
                .contains("no order id could be read").doesNotContain("null"));
    }
}
