package com.orderconsole.service.forgery;

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

import java.time.Duration;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Issue 25.2: a well-formed outbox entry XADDed by hand into the right bucket does not reach MySQL unless it follows
 * MySQL's history; it becomes a dead letter with words, and the real transitions around it are applied.
 */
class ForgedOutboxTest {
    @RegisterExtension
    final FreshEngine engine = new FreshEngine();
    private final Operator support = new Operator("alice", Role.SUPPORT);
    private final Operator admin = new Operator("ada", Role.ADMIN);

    private void move(String id, OrderStatus to) {
        assertThat(engine.services().transitions().transition(support, TransitionRequest.of(id, to, "t", "")).applied()).isTrue();
    }

    /** Another order of the same bucket, so that real entries sit before and after the forged one in one stream. */
    private String neighbour(String id) {
        for (int i = 0; ; i++) {
            String n = "n-" + i;
            if (RedisKeys.bucket(n) == RedisKeys.bucket(id)) {
                return n;
            }
        }
    }

    private static void forge(String id, int from, int to, long version) {
        try (RawRedis raw = new RawRedis()) {
            raw.cmd().xadd(RedisKeys.outbox(RedisKeys.bucket(id)), Map.of("e", id + "," + from + "," + to + "," + version + ",1\n"
                    + "mallory\nconsole\nforged"));
        }
    }

    private static long mysql(String what, String id) {
        return RawSql.count("SELECT " + what + " FROM orders WHERE order_id = '" + id + "'");
    }

    @Test
    void aForgedMoveOutOfATerminalStatusIsSetAsideAndTheRealMovesAroundItAreApplied() {
        Services s = engine.services();
        s.orders().create(support, "f-1", null, Duration.ofMinutes(30));
        for (OrderStatus to : new OrderStatus[]{OrderStatus.PAID, OrderStatus.WAIT_SHIP, OrderStatus.SHIPPED, OrderStatus.FINISHED}) {
            move("f-1", to);
        }
        String n = neighbour("f-1");
        s.orders().create(support, n, null, Duration.ofMinutes(30));
        s.follower().drainOnce();
        move(n, OrderStatus.PAID);
        forge("f-1", OrderStatus.FINISHED.code(), OrderStatus.PAID.code(), 6); // FINISHED v5 -> PAID v6, the issue's
        move(n, OrderStatus.WAIT_SHIP);
        s.follower().drainOnce();
        assertThat(mysql("status", "f-1")).as("still FINISHED in MySQL").isEqualTo(OrderStatus.FINISHED.code());
        assertThat(mysql("version", "f-1")).isEqualTo(5);
        assertThat(RawSql.count("SELECT COUNT(*) FROM order_history WHERE actor = 'mallory'")).as("no history row names mallory").isZero();
        assertThat(mysql("status", n)).as("the real moves before and after it").isEqualTo(OrderStatus.WAIT_SHIP.code());
        assertThat(s.deadLetters().open(10)).singleElement().satisfies(d -> {
            assertThat(d.kind()).isEqualTo("OUT_OF_SEQUENCE");
            assertThat(d.orderId()).isEqualTo("f-1");
            assertThat(d.reason()).contains("from FINISHED to PAID").contains("FINISHED is terminal").contains("no override is recorded");
        });
        assertThat(s.follower().status().pending()).isZero();
    }

    @Test
    void aForgedVersionJumpAndAForgedFromStatusAreSetAside() {
        Services s = engine.services();
        s.orders().create(support, "j-1", null, Duration.ofMinutes(30));
        move("j-1", OrderStatus.PAID);
        s.follower().drainOnce();
        forge("j-1", OrderStatus.PAID.code(), OrderStatus.WAIT_SHIP.code(), 5);   // v2 -> v5: a jump
        forge("j-1", OrderStatus.SHIPPED.code(), OrderStatus.FINISHED.code(), 3); // from SHIPPED, MySQL has PAID
        move("j-1", OrderStatus.WAIT_SHIP); // the real v3
        s.follower().drainOnce();
        assertThat(mysql("status", "j-1")).isEqualTo(OrderStatus.WAIT_SHIP.code());
        assertThat(mysql("version", "j-1")).isEqualTo(3);
        assertThat(s.deadLetters().open(10)).extracting(DeadLetter::reason).satisfiesExactlyInAnyOrder(
                r -> assertThat(r).contains("version 5 does not follow MySQL's version 2"),
                r -> assertThat(r).contains("from SHIPPED, but MySQL has it PAID at version 2"));
        assertThat(RawSql.count("SELECT COUNT(*) FROM order_history WHERE order_id = 'j-1' AND actor = 'mallory'")).isZero();
    }

    /** A person's real override through the service records itself first, and the follower applies it. */
    @Test
    void anAdminsRealOverrideOutOfATerminalStatusReachesMySql() {
        Services s = engine.services();
        s.orders().create(support, "o-1", null, Duration.ofMinutes(30));
        move("o-1", OrderStatus.CANCELLED);
        s.follower().drainOnce();
        assertThat(s.transitions().transition(admin, new TransitionRequest("o-1", OrderStatus.PAID, 2L, "console",
                "customer paid by bank transfer", true)).applied()).isTrue();
        s.follower().drainOnce();
        assertThat(mysql("status", "o-1")).isEqualTo(OrderStatus.PAID.code());
        assertThat(mysql("version", "o-1")).isEqualTo(3);
        assertThat(s.deadLetters().open(10)).isEmpty();
        assertThat(RawSql.count("SELECT COUNT(*) FROM audit_log WHERE action = 'OVERRIDE' AND order_id = 'o-1' AND actor = 'ada'"))
                .isEqualTo(1);
    }
}
