package com.orderconsole.service.reliability;

import com.orderconsole.FreshEngine;
import com.orderconsole.RawRedis;
import com.orderconsole.RawSql;
import com.orderconsole.domain.Operator;
import com.orderconsole.domain.OrderStatus;
import com.orderconsole.domain.ResultCode;
import com.orderconsole.domain.Role;
import com.orderconsole.domain.TransitionRequest;
import com.orderconsole.domain.TransitionResult;
import com.orderconsole.redis.RedisKeys;
import com.orderconsole.app.Services;
import com.orderconsole.service.deadletter.DeadLetter;
import com.orderconsole.service.recon.ReconCategory;
import com.orderconsole.service.recon.ReconProgress;
import com.orderconsole.service.recon.ReconReport;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** Issue 11.2: one record that cannot be processed is set aside; everything else goes on. */
class PoisonRecordTest {
    @RegisterExtension
    final FreshEngine engine = new FreshEngine();
    private final Operator support = new Operator("alice", Role.SUPPORT);
    private final Operator ops = new Operator("olga", Role.OPS);

    /** One order per bucket, so that every bucket has work beside the poisoned one. */
    private List<String> oneOrderPerBucket(String prefix, Duration expireIn) {
        List<String> ids = new ArrayList<>();
        boolean[] seen = new boolean[RedisKeys.buckets()];
        for (int i = 0; ids.size() < RedisKeys.buckets(); i++) {
            String id = prefix + i;
            if (!seen[RedisKeys.bucket(id)]) {
                seen[RedisKeys.bucket(id)] = true;
                engine.services().orders().create(support, id, null, expireIn);
                ids.add(id);
            }
        }
        return ids;
    }

    @ParameterizedTest
    @ValueSource(strings = {"7", "x", "0", "-1", "2.5", ""})
    void theScriptRefusesAMalformedRecordAndTheRestGoesOn(String badStatus) {
        Services s = engine.services();
        List<String> ids = oneOrderPerBucket("p-", Duration.ofMinutes(30));
        String poisoned = ids.get(3);
        try (RawRedis raw = new RawRedis()) {
            raw.cmd().hset(RedisKeys.order(poisoned), "status", badStatus);
        }
        TransitionResult bad = s.transitions().transition(support, TransitionRequest.of(poisoned, OrderStatus.PAID, "t", ""));
        assertThat(bad.code()).isEqualTo(ResultCode.MALFORMED);
        for (String id : ids) {
            if (!id.equals(poisoned)) {
                assertThat(s.transitions().transition(support, TransitionRequest.of(id, OrderStatus.PAID, "t", "")).applied()).isTrue();
            }
        }
        assertThat(s.follower().drainOnce()).as("the other buckets' changes reach MySQL").isEqualTo(ids.size() - 1);
        assertThat(RawSql.count("SELECT COUNT(*) FROM orders WHERE status = 2")).isEqualTo(ids.size() - 1);
        assertThat(s.follower().status().pending()).isZero();
        List<DeadLetter> letters = s.deadLetters().open(100);
        assertThat(letters).singleElement().satisfies(d -> {
            assertThat(d.kind()).isEqualTo("ORDER_RECORD");
            assertThat(d.orderId()).isEqualTo(poisoned);
            assertThat(d.bucket()).isEqualTo(RedisKeys.bucket(poisoned));
            assertThat(d.reason()).contains("status");
        });
        // A second attempt does not add a second letter while the first is open.
        s.transitions().transition(support, TransitionRequest.of(poisoned, OrderStatus.PAID, "t", ""));
        assertThat(s.deadLetters().countOpen()).isEqualTo(1);
        // Reads that span every order keep working and name the record.
        ReconReport r = s.reconciliation().run(null, ReconProgress.NONE, () -> false);
        assertThat(r.findings(ReconCategory.MALFORMED_IN_REDIS)).extracting(f -> f.orderId()).containsExactly(poisoned);
        assertThat(s.monitor().stateCounts()).isNotNull();
    }

    /**
     * Issue 33: reconciliation's repair of a malformed record restores it from MySQL and closes the dead letter that set
     * it aside, as retried, with an audit row; before, the letter stayed open for someone to retry what was repaired.
     */
    @Test
    void theRepairOfAMalformedRecordClosesItsDeadLetterAudited() {
        Services s = engine.services();
        s.orders().create(support, "pr-1", null, Duration.ofMinutes(30));
        s.follower().drainOnce();
        try (RawRedis raw = new RawRedis()) {
            raw.cmd().hset(RedisKeys.order("pr-1"), "status", "x");
        }
        assertThat(s.transitions().transition(support, TransitionRequest.of("pr-1", OrderStatus.PAID, "t", "")).code())
                .isEqualTo(ResultCode.MALFORMED);
        long letter = s.deadLetters().open(10).get(0).id();
        ReconReport r = s.reconciliation().run(null, ReconProgress.NONE, () -> false);
        var repaired = s.reconciliation().repair(ops, r, ReconCategory.MALFORMED_IN_REDIS, ReconProgress.NONE, () -> false);
        assertThat(repaired.repaired()).isEqualTo(1);
        assertThat(s.deadLetters().open(10)).as("the repair closed the letter").isEmpty();
        assertThat(RawSql.count("SELECT COUNT(*) FROM dead_letter WHERE id = " + letter + " AND state = 'RETRIED' AND resolved_by = 'olga'"))
                .isEqualTo(1);
        assertThat(RawSql.count("SELECT COUNT(*) FROM audit_log WHERE action = 'DEAD_LETTER_RETRY' AND order_id = 'pr-1'"))
                .as("audited").isEqualTo(1);
        assertThat(s.transitions().transition(support, TransitionRequest.of("pr-1", OrderStatus.PAID, "t", "")).applied()).isTrue();
    }

    /**
     * A version Lua reads as a number but that is no whole count ("inf" passed the script's old math.floor
     * check, was bumped and written into an outbox entry the follower then had to set aside) is refused:
     * nothing written but the counter.
     */
    @ParameterizedTest
    @ValueSource(strings = {"inf", "-inf", "1e999", "nan", "1.5", "many"})
    void theScriptRefusesAMalformedVersionAndWritesNothingButTheCounter(String badVersion) {
        Services s = engine.services();
        s.orders().create(support, "v-1", null, Duration.ofMinutes(30));
        int b = RedisKeys.bucket("v-1");
        try (RawRedis raw = new RawRedis()) {
            raw.cmd().hset(RedisKeys.order("v-1"), "version", badVersion);
            long entries = raw.cmd().xlen(RedisKeys.outbox(b));
            TransitionResult bad = s.transitions().transition(support, TransitionRequest.of("v-1", OrderStatus.PAID, "t", ""));
            assertThat(bad.code()).isEqualTo(ResultCode.MALFORMED);
            assertThat(raw.cmd().xlen(RedisKeys.outbox(b))).as("no outbox entry").isEqualTo(entries);
            assertThat(raw.cmd().hget(RedisKeys.order("v-1"), "status")).isEqualTo("1");
            assertThat(raw.cmd().hget(RedisKeys.order("v-1"), "version")).isEqualTo(badVersion);
            assertThat(raw.cmd().hget(RedisKeys.stats(b), "c:-6")).isEqualTo("1");
        }
        assertThat(s.deadLetters().open(10)).singleElement().satisfies(d -> assertThat(d.kind()).isEqualTo("ORDER_RECORD"));
    }

    @Test
    void aMalformedOrderInTheCancelQueueDoesNotHoldBackTheOthers() {
        Services s = engine.services();
        List<String> ids = oneOrderPerBucket("q-", Duration.ofMillis(1));
        String poisoned = ids.get(0);
        try (RawRedis raw = new RawRedis()) {
            raw.cmd().hset(RedisKeys.order(poisoned), "version", "many");
        }
        assertThat(s.sweeper().sweepNow(ops)).isEqualTo(ids.size() - 1);
        try (RawRedis raw = new RawRedis()) {
            assertThat(raw.cmd().zscore(RedisKeys.cancelQueue(RedisKeys.bucket(poisoned)), poisoned))
                    .as("the poisoned entry leaves the queue instead of failing every tick").isNull();
        }
        assertThat(s.deadLetters().open(10)).extracting(DeadLetter::orderId).containsExactly(poisoned);
    }

    @Test
    void anOutboxEntryTheFollowerCannotReadIsSetAsideAndTheBucketGoesOn() {
        Services s = engine.services();
        s.orders().create(support, "o-1", null, Duration.ofMinutes(30));
        int bucket = RedisKeys.bucket("o-1");
        try (RawRedis raw = new RawRedis()) {
            // As an older script wrote it for a corrupt record: a status code no one can read.
            raw.cmd().xadd(RedisKeys.outbox(bucket), Map.of("o", "o-1", "f", "7", "t", "2", "v", "3", "c", "1",
                    "a", "x", "s", "t", "r", "", "ts", "1"));
        }
        s.transitions().transition(support, TransitionRequest.of("o-1", OrderStatus.PAID, "t", "after the bad one"));
        assertThat(s.follower().drainOnce()).as("the payment applied; the unreadable entry is not").isEqualTo(1);
        assertThat(RawSql.count("SELECT status FROM orders WHERE order_id = 'o-1'")).isEqualTo(2);
        assertThat(s.follower().status().pending()).isZero();
        assertThat(s.deadLetters().open(10)).singleElement().satisfies(d -> {
            assertThat(d.kind()).isEqualTo("OUTBOX_ENTRY");
            assertThat(d.orderId()).isEqualTo("o-1");
            assertThat(d.entryId()).isNotBlank();
            assertThat(d.reason()).contains("unknown status code 7");
            assertThat(d.body()).contains("f=7");
        });
        // Read again (a second follower, a replay): set aside once.
        assertThat(s.follower().drainOnce()).isZero();
        assertThat(s.deadLetters().countOpen()).isEqualTo(1);
    }

    /** Issue 15: the compact entry form is parsed as tolerantly as the earlier one. */
    @ParameterizedTest
    @ValueSource(strings = {"k-1,1,2,3", "k-1,1,9,2,1,5", "k-1,1,2,two,1,5", ",1,2,2,1,5"})
    void aCompactOutboxEntryTheFollowerCannotReadIsSetAsideAndTheBucketGoesOn(String k) {
        DeadLetter d = setAsideBeforeAPayment("k-1", Map.of("k", k, "a", "x", "s", "t", "r", ""));
        assertThat(d.orderId()).isEqualTo(k.startsWith(",") ? null : "k-1");
        assertThat(d.body()).contains("k=" + k);
    }

    /**
     * Issue 15.3: the one-field entry form too; a planted one is counted nowhere, even when its outcome line reads as one
     * (issue 33: an entry set aside moved nothing MySQL records).
     */
    @ParameterizedTest
    @ValueSource(strings = {"e-1,1,2,2,1\nx\nt", "e-1,1,2,2\nx\nt\n", "e-1,1,2,two,1\nx\nt\n", "e-1,1,2,2,1\n\nt\n"})
    void aOneFieldOutboxEntryTheFollowerCannotReadIsSetAsideAndTheBucketGoesOn(String e) {
        DeadLetter d = setAsideBeforeAPayment("e-1", Map.of("e", e));
        assertThat(d.orderId()).isEqualTo("e-1");
        long applied = engine.services().monitor().appliedByEdge().values().stream().mapToLong(Long::longValue).sum();
        assertThat(applied).as("the payment only").isEqualTo(1);
    }

    /**
     * Plants an unreadable entry in the bucket of a new order {@code id}, then pays the order: the follower sets the
     * entry aside and applies the payment behind it.
     *
     * @return the one open dead letter
     */
    private DeadLetter setAsideBeforeAPayment(String id, Map<String, String> planted) {
        Services s = engine.services();
        s.orders().create(support, id, null, Duration.ofMinutes(30));
        try (RawRedis raw = new RawRedis()) {
            raw.cmd().xadd(RedisKeys.outbox(RedisKeys.bucket(id)), planted);
        }
        s.transitions().transition(support, TransitionRequest.of(id, OrderStatus.PAID, "t", "after the bad one"));
        assertThat(s.follower().drainOnce()).as("the payment applied; the unreadable entry is not").isEqualTo(1);
        assertThat(RawSql.count("SELECT status FROM orders WHERE order_id = '" + id + "'")).isEqualTo(2);
        assertThat(s.follower().status().pending()).isZero();
        List<DeadLetter> open = s.deadLetters().open(10);
        assertThat(open).singleElement().satisfies(d -> {
            assertThat(d.kind()).isEqualTo("OUTBOX_ENTRY");
            assertThat(d.reason()).doesNotContain("Exception");
        });
        return open.get(0);
    }

    /**
     * A well-formed entry in another bucket's outbox than its order's was not written by transition.lua (every key it
     * touches shares the order's bucket). A hand trial planted one moving a FINISHED order at version 5 to SHIPPED at
     * version 9, and MySQL took it, with a history row nobody made. It is set aside; MySQL keeps the order as it was.
     */
    @Test
    void anEntryInAnotherBucketsOutboxIsSetAsideAndMySqlKeepsTheOrder() {
        Services s = engine.services();
        s.orders().create(support, "w-1", null, Duration.ofMinutes(30));
        s.follower().drainOnce();
        int home = RedisKeys.bucket("w-1");
        int other = (home + 1) % RedisKeys.buckets();
        try (RawRedis raw = new RawRedis()) {
            raw.cmd().xadd(RedisKeys.outbox(other), Map.of("e", "w-1,3,4,9,1\nsupport-bot\ntrial\nplanted"));
        }
        s.follower().drainOnce();
        assertThat(RawSql.count("SELECT COUNT(*) FROM orders WHERE order_id = 'w-1' AND status = 1 AND version = 1")).isEqualTo(1);
        assertThat(RawSql.count("SELECT COUNT(*) FROM order_history WHERE order_id = 'w-1'")).isEqualTo(1);
        assertThat(s.follower().status().pending()).isZero();
        assertThat(s.deadLetters().open(10)).singleElement().satisfies(d -> {
            assertThat(d.kind()).isEqualTo("OUTBOX_ENTRY");
            assertThat(d.orderId()).isEqualTo("w-1");
            assertThat(d.reason()).contains("order w-1 of bucket " + home + " found in bucket " + other + "'s outbox");
        });
    }

    /** A dead letter names an order only when the entry does: garbage is not read as an order id. */
    @ParameterizedTest
    @ValueSource(strings = {"not an outcome at all", "bad id!,1,2,2,1\nx\nt\n", "o=1,2"})
    void anEntryThatNamesNoOrderIsSetAsideWithoutOne(String e) {
        Services s = engine.services();
        try (RawRedis raw = new RawRedis()) {
            raw.cmd().xadd(RedisKeys.outbox(0), Map.of("e", e));
        }
        s.follower().drainOnce();
        assertThat(s.deadLetters().open(10)).singleElement().satisfies(d -> {
            assertThat(d.kind()).isEqualTo("OUTBOX_ENTRY");
            assertThat(d.orderId()).as("order of '%s'", e).isNull();
        });
    }

    /**
     * Values an entry can carry but MySQL's columns cannot hold (an id no order can have, texts past their
     * column's length): the entry parsed, the history INSERT failed, the batch rolled back, and the follower
     * retried the same batch for ever, so nothing after it in that bucket reached MySQL. They are set aside.
     */
    static java.util.stream.Stream<org.junit.jupiter.params.provider.Arguments> entriesMySqlCannotHold() {
        return java.util.stream.Stream.of(
                org.junit.jupiter.params.provider.Arguments.of("a".repeat(65), "x", "t", "", "order id"),
                org.junit.jupiter.params.provider.Arguments.of("订单-1", "x", "t", "", "order id"),
                org.junit.jupiter.params.provider.Arguments.of("k-\"1", "x", "t", "", "order id"),
                org.junit.jupiter.params.provider.Arguments.of("k-1", "張".repeat(129), "t", "", "actor"),
                org.junit.jupiter.params.provider.Arguments.of("k-1", "x", "s".repeat(33), "", "source"),
                org.junit.jupiter.params.provider.Arguments.of("k-1", "x", "t", "r".repeat(501), "reason"));
    }

    @ParameterizedTest
    @org.junit.jupiter.params.provider.MethodSource("entriesMySqlCannotHold")
    void anOutboxEntryWhoseValuesMySqlCannotHoldIsSetAsideAndTheBucketGoesOn(String id, String actor, String source, String reason,
                                                                              String named) {
        Services s = engine.services();
        s.orders().create(support, "k-1", null, Duration.ofMinutes(30));
        int bucket = RedisKeys.bucket("k-1");
        try (RawRedis raw = new RawRedis()) {
            raw.cmd().xadd(RedisKeys.outbox(bucket), Map.of("k", id + ",1,2,2,1,5", "a", actor, "s", source, "r", reason));
        }
        s.transitions().transition(support, TransitionRequest.of("k-1", OrderStatus.PAID, "t", "after the bad one"));
        assertThat(s.follower().drainOnce()).as("the payment applied; the entry MySQL cannot hold is not").isEqualTo(1);
        assertThat(RawSql.count("SELECT status FROM orders WHERE order_id = 'k-1'")).isEqualTo(2);
        assertThat(RawSql.count("SELECT COUNT(*) FROM order_history WHERE reason = 'after the bad one'")).isEqualTo(1);
        assertThat(s.follower().status().pending()).isZero();
        assertThat(s.deadLetters().open(10)).singleElement().satisfies(d -> {
            assertThat(d.kind()).isEqualTo("OUTBOX_ENTRY");
            assertThat(d.reason()).contains(named).doesNotContain("Exception").doesNotContain("Data too long");
        });
    }

    @Test
    void opsRestoreAMalformedRecordFromMySqlOrDiscardItWithAReason() {
        Services s = engine.services();
        s.orders().create(support, "r-1", null, Duration.ofMinutes(30));
        s.transitions().transition(support, TransitionRequest.of("r-1", OrderStatus.PAID, "t", ""));
        s.follower().drainOnce();
        try (RawRedis raw = new RawRedis()) {
            raw.cmd().hset(RedisKeys.order("r-1"), "status", "9");
        }
        s.transitions().transition(support, TransitionRequest.of("r-1", OrderStatus.WAIT_SHIP, "t", ""));
        DeadLetter d = s.deadLetters().open(10).get(0);
        assertThatThrownBy(() -> s.deadLetters().retry(support, d.id())).hasMessageContaining("needs role ops");
        DeadLetter done = s.deadLetters().retry(ops, d.id());
        assertThat(done.state()).isEqualTo("RETRIED");
        assertThat(done.resolvedBy()).isEqualTo("olga");
        assertThat(done.resolution()).contains("PAID v2");
        assertThat(s.orders().lookup("r-1").summary().redisStatus()).isEqualTo(OrderStatus.PAID);
        assertThat(s.transitions().transition(support, TransitionRequest.of("r-1", OrderStatus.WAIT_SHIP, "t", "")).applied()).isTrue();
        assertThat(s.deadLetters().countOpen()).isZero();

        try (RawRedis raw = new RawRedis()) {
            raw.cmd().hset(RedisKeys.order("r-1"), "status", "x");
        }
        s.transitions().transition(support, TransitionRequest.of("r-1", OrderStatus.SHIPPED, "t", ""));
        long second = s.deadLetters().open(10).get(0).id();
        assertThatThrownBy(() -> s.deadLetters().discard(ops, second, " ")).hasMessageContaining("needs a reason");
        assertThat(s.deadLetters().discard(ops, second, "fixed by hand").state()).isEqualTo("DISCARDED");
        assertThatThrownBy(() -> s.deadLetters().discard(ops, second, "again")).hasMessageContaining("no open dead letter");
    }
}
