package com.orderconsole.service.follower;

import com.orderconsole.FreshEngine;
import com.orderconsole.RawRedis;
import com.orderconsole.RawSql;
import com.orderconsole.app.Services;
import com.orderconsole.domain.Operator;
import com.orderconsole.domain.OrderStatus;
import com.orderconsole.domain.Role;
import com.orderconsole.domain.TransitionRequest;
import com.orderconsole.redis.RedisKeys;
import com.orderconsole.service.deadletter.DeadLetter;
import com.orderconsole.service.recon.ReconProgress;
import com.orderconsole.service.recon.ReconReport;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import java.time.Duration;
import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A forged order state with its forged outbox entry (a Redis writer's HSET and XADD, or a move a revoked client made),
 * then legitimate moves on the same order: the follower sets the forged entry aside, and the moves made on the forged
 * state with it; the order must not stay different in Redis and MySQL. Redis is restored to MySQL's record, one dead
 * letter names every entry involved, and the next legitimate move reaches MySQL and its history (the feed's source).
 */
class SetAsideConvergesTest {
    @RegisterExtension
    final FreshEngine engine = new FreshEngine();
    private final Operator support = new Operator("alice", Role.SUPPORT);

    private void move(String id, OrderStatus to) {
        assertThat(engine.services().transitions().transition(support, TransitionRequest.of(id, to, "legit", "")).applied())
                .as(id + " to " + to).isTrue();
    }

    private static String redisState(String id) {
        try (RawRedis raw = new RawRedis()) {
            Map<String, String> h = raw.cmd().hgetall(RedisKeys.order(id));
            return h.get("status") + "/v" + h.get("version");
        }
    }

    private static String mysqlState(String id) {
        return RawSql.count("SELECT status FROM orders WHERE order_id = '" + id + "'") + "/v"
                + RawSql.count("SELECT version FROM orders WHERE order_id = '" + id + "'");
    }

    @Test
    void aForgedStateSetAsideIsRestoredFromMySqlAndLaterMovesReachMySql() {
        Services s = engine.services();
        String id = "FG-1";
        s.orders().create(support, id, null, Duration.ofMinutes(30));
        move(id, OrderStatus.PAID);
        s.follower().drainOnce();
        assertThat(mysqlState(id)).isEqualTo("2/v2");

        // The forgery: the hash jumps to WAIT_SHIP v4 and an entry says so (a version MySQL's history cannot follow).
        String forged;
        try (RawRedis raw = new RawRedis()) {
            raw.cmd().hset(RedisKeys.order(id), Map.of("status", "3", "version", "4"));
            int bucket = RedisKeys.bucket(id);
            long seq = raw.cmd().hincrby(RedisKeys.stats(bucket), "seq", 1);
            forged = raw.cmd().xadd(RedisKeys.outbox(bucket), Map.of("k", id + ",2,3,4,1," + seq, "a", "mallory", "s", "api",
                    "r", "forged"));
        }
        // A legitimate caller moves the order on from what Redis shows.
        move(id, OrderStatus.SHIPPED);
        assertThat(redisState(id)).isEqualTo("4/v5");

        s.follower().drainOnce();

        List<DeadLetter> letters = s.deadLetters().open(10);
        assertThat(letters).extracting(DeadLetter::kind).containsExactlyInAnyOrder("OUT_OF_SEQUENCE", "OUT_OF_SEQUENCE", "REDIS_RESTORED");
        DeadLetter restored = letters.stream().filter(d -> d.kind().equals("REDIS_RESTORED")).findFirst().orElseThrow();
        List<String> asideIds = letters.stream().filter(d -> d.kind().equals("OUT_OF_SEQUENCE")).map(DeadLetter::entryId).toList();
        assertThat(asideIds).contains(forged);
        assertThat(restored.orderId()).isEqualTo(id);
        assertThat(restored.reason()).contains("SHIPPED v5").contains("PAID v2").doesNotContain("Exception");
        assertThat(restored.body()).contains(asideIds.get(0)).contains(asideIds.get(1));
        assertThat(redisState(id)).as("Redis follows the record again").isEqualTo(mysqlState(id)).isEqualTo("2/v2");

        // The next legitimate moves are not stranded: they reach MySQL and its history.
        move(id, OrderStatus.WAIT_SHIP);
        move(id, OrderStatus.SHIPPED);
        s.follower().drainOnce();
        assertThat(mysqlState(id)).isEqualTo("4/v4");
        assertThat(redisState(id)).isEqualTo("4/v4");
        assertThat(RawSql.count("SELECT COUNT(*) FROM order_history WHERE order_id = '" + id + "' AND result_code = 1"))
                .as("creation, payment and the two moves after the restore").isEqualTo(4);
        assertThat(s.deadLetters().countOpen()).as("nothing more set aside").isEqualTo(3);
        ReconReport r = s.reconciliation().run(null, ReconProgress.NONE, () -> false);
        assertThat(r.total()).as("no disagreement left: " + r.counts()).isZero();
    }

    /** A forged entry that changed no hash: Redis already follows MySQL, nothing is restored, moves go on. */
    @Test
    void aForgedEntryAloneRestoresNothingAndMovesGoOn() {
        Services s = engine.services();
        String id = "FG-2";
        s.orders().create(support, id, null, Duration.ofMinutes(30));
        move(id, OrderStatus.PAID);
        s.follower().drainOnce();
        try (RawRedis raw = new RawRedis()) {
            int bucket = RedisKeys.bucket(id);
            long seq = raw.cmd().hincrby(RedisKeys.stats(bucket), "seq", 1);
            raw.cmd().xadd(RedisKeys.outbox(bucket), Map.of("k", id + ",2,4,7,1," + seq, "a", "mallory", "s", "api", "r", "forged"));
        }
        move(id, OrderStatus.WAIT_SHIP);
        s.follower().drainOnce();
        assertThat(mysqlState(id)).isEqualTo("3/v3");
        assertThat(redisState(id)).isEqualTo("3/v3");
        assertThat(s.deadLetters().open(10)).extracting(DeadLetter::kind).containsExactly("OUT_OF_SEQUENCE");
    }
}
