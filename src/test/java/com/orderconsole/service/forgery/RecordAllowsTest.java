package com.orderconsole.service.forgery;

import com.orderconsole.FreshEngine;
import com.orderconsole.RawRedis;
import com.orderconsole.RawSql;
import com.orderconsole.app.Services;
import com.orderconsole.domain.Operator;
import com.orderconsole.domain.OrderStatus;
import com.orderconsole.domain.ResultCode;
import com.orderconsole.domain.Role;
import com.orderconsole.domain.TransitionRequest;
import com.orderconsole.redis.RedisKeys;
import com.orderconsole.service.deadletter.DeadLetter;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import java.time.Duration;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Issue 33.2: the follower applies an entry only when it is a move the record allows: an edge of the rules in force, or
 * an override an admin recorded; a sweeper's cancel only at or after the payment deadline MySQL holds. Anything else is
 * a dead letter in words; set-aside entries move no counter, and the follower says how many it applied.
 */
class RecordAllowsTest {
    @RegisterExtension
    final FreshEngine engine = new FreshEngine();
    private final Operator support = new Operator("alice", Role.SUPPORT);
    private final Operator admin = new Operator("ada", Role.ADMIN);

    /** The WAIT_PAY → SHIPPED and PAID → CANCELLED, naming a real person, in sequence: set aside, counted nowhere. */
    @Test
    void aMoveThatIsNoEdgeOfTheRulesIsSetAsideAndMovesNoCounter() {
        Services s = engine.services();
        s.orders().create(support, "w-1", null, Duration.ofMinutes(30));
        s.orders().create(support, "p-1", null, Duration.ofMinutes(30));
        move("p-1", OrderStatus.PAID);
        assertThat(s.follower().drainOnce()).as("two creations make no entry; the payment is one").isEqualTo(1);
        forge("w-1", "1,4,2,1", "ada");   // WAIT_PAY -> SHIPPED v2
        forge("p-1", "2,6,3,1", "alice"); // PAID -> CANCELLED v3
        move("p-1", OrderStatus.WAIT_SHIP); // the real v3 after it
        assertThat(s.follower().drainOnce()).as("only the real move is reported applied").isEqualTo(1);

        assertThat(mysql("status", "w-1")).isEqualTo(OrderStatus.WAIT_PAY.code());
        assertThat(mysql("status", "p-1")).isEqualTo(OrderStatus.WAIT_SHIP.code());
        assertThat(s.deadLetters().open(10)).extracting(DeadLetter::reason).satisfiesExactlyInAnyOrder(
                r -> assertThat(r).contains("moves order w-1 from WAIT_PAY to SHIPPED, which the rules in force (version 1) do not allow")
                        .contains("no override is recorded"),
                r -> assertThat(r).contains("moves order p-1 from PAID to CANCELLED, which the rules in force"));
        long forgedCounts = 0;
        try (RawRedis raw = new RawRedis()) {
            for (int b = 0; b < RedisKeys.buckets(); b++) {
                Map<String, String> stats = raw.cmd().hgetall(RedisKeys.stats(b));
                forgedCounts += Long.parseLong(stats.getOrDefault("m:1>4", "0")) + Long.parseLong(stats.getOrDefault("m:2>6", "0"));
            }
        }
        assertThat(forgedCounts).as("the set-aside moves are in no live counter").isZero();
    }

    /** An admin's override of a move that is no edge (not out of a terminal status) reaches MySQL with her record. */
    @Test
    void anAdminsOverrideOfAMoveThatIsNoEdgeReachesMySql() {
        Services s = engine.services();
        s.orders().create(support, "o-2", null, Duration.ofMinutes(30));
        assertThat(s.transitions().transition(admin, new TransitionRequest("o-2", OrderStatus.SHIPPED, 1L, "console",
                "shipped before the payment was booked", true)).applied()).isTrue();
        assertThat(s.follower().drainOnce()).isEqualTo(1);
        assertThat(mysql("status", "o-2")).isEqualTo(OrderStatus.SHIPPED.code());
        assertThat(s.deadLetters().open(10)).isEmpty();
    }

    /**
     * The forged sweeper cancel 30 minutes before the deadline, and one dated after it by an explicit stream id in
     * the future: both set aside, and the customer's payment that follows is applied (no history conflict).
     */
    @Test
    void aSweeperCancelBeforeTheDeadlineMySqlHoldsIsSetAside() {
        Services s = engine.services();
        s.orders().create(support, "c-1", null, Duration.ofMinutes(30));
        s.orders().create(support, "c-2", null, Duration.ofMinutes(30));
        forge("c-1", "1,6,2,1", Operator.CANCEL_SWEEPER);
        long deadline = RawSql.count("SELECT expire_at_ms FROM orders WHERE order_id = 'c-2'");
        try (RawRedis raw = new RawRedis()) {
            raw.cmd().xadd(RedisKeys.outbox(RedisKeys.bucket("c-2")), new io.lettuce.core.XAddArgs().id((deadline + 1) + "-0"),
                    Map.of("e", "c-2,1,6,2,1\n" + Operator.CANCEL_SWEEPER + "\nsweeper\npayment timeout"));
        }
        s.follower().drainOnce();
        assertThat(s.deadLetters().open(10)).extracting(DeadLetter::reason).satisfiesExactlyInAnyOrder(
                r -> assertThat(r).contains("cancel sweeper cancelled order c-1").contains("before the payment deadline MySQL holds"),
                r -> assertThat(r).contains("minutes after Redis' clock when the follower read it"));
        assertThat(mysql("status", "c-1")).isEqualTo(OrderStatus.WAIT_PAY.code());
        // Redis' own state is WAIT_PAY still (nothing ran): the customer pays, and it is applied.
        move("c-1", OrderStatus.PAID);
        s.follower().drainOnce();
        assertThat(mysql("status", "c-1")).isEqualTo(OrderStatus.PAID.code());
    }

    /**
     * A cancel that claims the sweeper's source but names another account (serve's own, or a person who signed in) is
     * held to the same deadline: a fresh-user trial got such an entry 30 minutes early into MySQL, and the customer's
     * payment, answered "applied" by Redis, then became a history conflict.
     */
    @Test
    void aCancelClaimingTheSweepersSourceInAnotherNameIsHeldToTheDeadline() {
        Services s = engine.services();
        s.orders().create(support, "c-3", null, Duration.ofMinutes(30));
        try (RawRedis raw = new RawRedis()) {
            raw.cmd().xadd(RedisKeys.outbox(RedisKeys.bucket("c-3")), Map.of("e", "c-3,1,6,2,1\nalice\nsweeper\npayment timeout"));
        }
        s.follower().drainOnce();
        assertThat(s.deadLetters().open(10)).extracting(DeadLetter::reason).singleElement().satisfies(
                r -> assertThat(r).contains("order c-3").contains("alice").contains("before the payment deadline MySQL holds"));
        assertThat(mysql("status", "c-3")).isEqualTo(OrderStatus.WAIT_PAY.code());
        move("c-3", OrderStatus.PAID);
        s.follower().drainOnce();
        assertThat(mysql("status", "c-3")).isEqualTo(OrderStatus.PAID.code());
    }

    /** The real sweeper's cancel after the deadline is applied; a second sweeper's refused cancel is history (33.3). */
    @Test
    void aDueCancelIsAppliedAndARacingSweepersRefusedCancelIsHistory() throws Exception {
        Services s = engine.services();
        s.orders().create(support, "d-1", null, Duration.ofMillis(1));
        Thread.sleep(5); // due: the deadline is 1 ms after creation (Redis clock)
        Operator sweeper = Operator.system(Operator.CANCEL_SWEEPER);
        TransitionRequest cancel = TransitionRequest.of("d-1", OrderStatus.CANCELLED, "sweeper", "payment timeout")
                .onlyFrom(OrderStatus.WAIT_PAY);
        assertThat(s.transitions().transition(sweeper, cancel).applied()).isTrue();
        assertThat(s.transitions().transition(sweeper, cancel).code()).isEqualTo(ResultCode.VERSION_CONFLICT);
        assertThat(s.follower().drainOnce()).isEqualTo(2);
        assertThat(s.deadLetters().open(10)).isEmpty();
        assertThat(mysql("status", "d-1")).isEqualTo(OrderStatus.CANCELLED.code());
        assertThat(RawSql.count("SELECT COUNT(*) FROM order_history WHERE order_id = 'd-1' AND actor = 'cancel-sweeper' "
                + "AND result_code = -3")).isEqualTo(1);
    }

    private void move(String id, OrderStatus to) {
        assertThat(engine.services().transitions().transition(support, TransitionRequest.of(id, to, "t", "")).applied()).isTrue();
    }

    /** @param outcome "from,to,version,code" */
    private static void forge(String id, String outcome, String actor) {
        try (RawRedis raw = new RawRedis()) {
            raw.cmd().xadd(RedisKeys.outbox(RedisKeys.bucket(id)), Map.of("e", id + "," + outcome + "\n" + actor + "\nconsole\nforged"));
        }
    }

    private static long mysql(String what, String id) {
        return RawSql.count("SELECT " + what + " FROM orders WHERE order_id = '" + id + "'");
    }
}
