package com.orderconsole.service.reliability;

import com.orderconsole.FreshEngine;
import com.orderconsole.RawRedis;
import com.orderconsole.RawSql;
import com.orderconsole.app.Services;
import com.orderconsole.domain.Operator;
import com.orderconsole.domain.OrderStatus;
import com.orderconsole.domain.Role;
import com.orderconsole.domain.TransitionRequest;
import com.orderconsole.redis.RedisKeys;
import com.orderconsole.service.audit.AuditEvent;
import com.orderconsole.service.audit.AuditFilter;
import com.orderconsole.service.deadletter.DeadLetter;
import com.orderconsole.service.recon.ReconCategory;
import com.orderconsole.service.recon.ReconFinding;
import com.orderconsole.service.recon.ReconReport;
import com.orderconsole.service.recon.RepairResult;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * One bad record stops nothing: an order id that breaks the id rule, found in the cancel queue or in MySQL's orders
 * (stored before ids were checked, or by hand), is set aside in one dead letter and every other order and bucket goes
 * on; ops can clear its queue entry by its exact characters; no repair queues it again. Real Redis and MariaDB.
 */
class MalformedIdsTest {
    @RegisterExtension
    final FreshEngine engine = new FreshEngine();
    private Services s;
    private final Operator ops = new Operator("olga", Role.OPS);

    @BeforeEach
    void start() {
        s = engine.services();
    }

    /** @return an id ending in a line break whose bucket is {@code bucket} */
    private static String newlineIdIn(int bucket) {
        for (int n = 0; ; n++) {
            String id = "NL-" + n + "\n";
            if (RedisKeys.bucket(id) == bucket) {
                return id;
            }
        }
    }

    /** What maintenance made of a row 'NL-2\n' created through the old procedure: a WAIT_PAY hash and a due queue entry. */
    private static void plantUnpaid(String id, long deadline) {
        try (RawRedis raw = new RawRedis()) {
            raw.cmd().hset(RedisKeys.order(id), Map.of("status", "1", "version", "1", "updateTime", "1", "createTime", "1"));
            raw.cmd().zadd(RedisKeys.cancelQueue(RedisKeys.bucket(id)), deadline, id);
        }
    }

    private static void expire(String id) {
        try (RawRedis raw = new RawRedis()) {
            raw.cmd().zadd(RedisKeys.cancelQueue(RedisKeys.bucket(id)), 1000, id);
        }
        RawSql.update("UPDATE orders SET expire_at_ms = 1000 WHERE order_id = '" + id + "'");
    }

    private List<DeadLetter> letters(String kind) {
        return s.deadLetters().open(100).stream().filter(d -> d.kind().equals(kind)).toList();
    }

    @Test
    void aMalformedIdInBucketZeroStopsNoOtherBucketsSweep() {
        String bad = newlineIdIn(0);
        plantUnpaid(bad, 1000);
        List<String> due = new ArrayList<>();
        for (int i = 0; due.size() < 4; i++) {
            String id = "due-" + i;
            if (RedisKeys.bucket(id) == 0 && due.stream().anyMatch(d -> RedisKeys.bucket(d) == 0)) {
                continue;
            }
            s.orders().create(ops, id, null, Duration.ofMinutes(30));
            expire(id);
            due.add(id);
        }
        assertThat(due).anyMatch(id -> RedisKeys.bucket(id) == 0).anyMatch(id -> RedisKeys.bucket(id) > 0);

        assertThat(s.sweeper().tick()).as("every well-formed due order, bucket 0's included").isEqualTo(4);
        for (String id : due) {
            assertThat(s.orders().lookup(id).summary().redisStatus()).isEqualTo(OrderStatus.CANCELLED);
        }
        assertThat(s.sweeper().status().lastTickMs()).as("the tick swept every bucket").isNotNull();
        try (RawRedis raw = new RawRedis()) {
            assertThat(raw.cmd().zscore(RedisKeys.cancelQueue(0), bad)).as("set aside: out of the queue").isNull();
            assertThat(raw.cmd().hget(RedisKeys.order(bad), "status")).as("its record is left as it is").isEqualTo("1");
        }
        List<DeadLetter> set = letters("MALFORMED_ID");
        assertThat(set).singleElement().satisfies(d -> {
            assertThat(d.reason()).contains("'" + bad.replace("\n", "\\u000a") + "'").contains("cancel queue of bucket 0")
                    .contains("payment deadline 1000").contains("discard this letter").doesNotContain("\n");
            assertThat(d.body()).contains(bad.replace("\n", "\\u000a"));
            assertThat(d.orderId()).isNull();
        });
        plantUnpaid(bad, 1000);
        assertThat(s.sweeper().tick()).isZero();
        assertThat(letters("MALFORMED_ID")).as("one letter per id").hasSize(1);
    }

    @Test
    void maintenanceGivesAMalformedRowNoRedisStateAndCompletesEveryOtherCreation() {
        String bad = "NL-7\n";
        long old = System.currentTimeMillis() - 60_000;
        for (String id : List.of(bad, "ok-7")) {
            RawSql.update("INSERT INTO orders (order_id, status, version, created_at_ms, status_since_ms, expire_at_ms, redis_ready) "
                    + "VALUES ('" + id.replace("\n", "\\n") + "', 1, 1, " + old + ", " + old + ", " + (old + 1000) + ", 0)");
        }
        s.maintenance().runOnce();
        s.maintenance().runOnce();
        try (RawRedis raw = new RawRedis()) {
            assertThat(raw.cmd().exists(RedisKeys.order("ok-7"))).isEqualTo(1);
            assertThat(raw.cmd().exists(RedisKeys.order(bad))).as("no state for an id no transition can take").isZero();
            assertThat(raw.cmd().zscore(RedisKeys.cancelQueue(RedisKeys.bucket(bad)), bad)).isNull();
        }
        assertThat(RawSql.count("SELECT redis_ready FROM orders WHERE order_id = 'ok-7'")).isEqualTo(1);
        assertThat(letters("MALFORMED_ID")).singleElement()
                .satisfies(d -> assertThat(d.reason()).contains("NL-7\\u000a").contains("MySQL's orders table"));
        assertThat(s.sweeper().tick()).as("ok-7 is due").isEqualTo(1);
    }

    @Test
    void queueRemoveTakesTheExactCharactersOfAMalformedIdAsTypedOrAsPrinted() {
        String bad = newlineIdIn(3);
        plantUnpaid(bad, System.currentTimeMillis() + 600_000);
        assertThat(s.queue().remove(ops, bad.replace("\n", "\\u000a"), "cli", "junk from a support call")).isTrue();
        try (RawRedis raw = new RawRedis()) {
            assertThat(raw.cmd().zscore(RedisKeys.cancelQueue(3), bad)).isNull();
        }
        plantUnpaid(bad, System.currentTimeMillis() + 600_000);
        assertThat(s.queue().remove(ops, bad, "cli", "again")).isTrue();
        assertThat(s.audit().page(AuditFilter.all(), null, 10).rows()).filteredOn(e -> "QUEUE_REMOVE".equals(e.action()))
                .hasSize(2).allSatisfy(e -> {
                    assertThat(e.orderId()).isNull();
                    assertThat(e.detail()).contains("malformed order id '" + bad.replace("\n", "\\u000a") + "'").doesNotContain("\n");
                });
        assertThatThrownBy(() -> s.queue().remove(ops, "NL-none\n", "cli", "")).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("is invalid").hasMessageContaining("no cancel-queue entry holds exactly this id");
    }

    @Test
    void aRepairNeverQueuesAgainWhatTheSweeperCannotCancel() {
        String bad = "NL-8\n";
        long now = System.currentTimeMillis();
        RawSql.update("INSERT INTO orders (order_id, status, version, created_at_ms, status_since_ms, expire_at_ms, redis_ready) "
                + "VALUES ('NL-8\\n', 1, 1, " + now + ", " + now + ", " + (now + 600_000) + ", 1)");
        try (RawRedis raw = new RawRedis()) {
            raw.cmd().hset(RedisKeys.order(bad), Map.of("status", "1", "version", "1", "updateTime", "" + now, "createTime", "" + now));
        }
        ReconReport report = s.reconciliation().run(null, (phase, done, total) -> { }, () -> false);
        assertThat(report.findings(ReconCategory.WAIT_PAY_WITHOUT_QUEUE)).extracting(ReconFinding::orderId).containsExactly(bad);
        assertThat(s.reconciliation().plan(report, ReconCategory.WAIT_PAY_WITHOUT_QUEUE)).singleElement()
                .satisfies(p -> assertThat(p.resulting()).isEqualTo("not queued"));
        RepairResult r = s.reconciliation().repair(ops, report, ReconCategory.WAIT_PAY_WITHOUT_QUEUE, (phase, done, total) -> { }, () -> false);
        assertThat(r.repaired()).isZero();
        try (RawRedis raw = new RawRedis()) {
            assertThat(raw.cmd().zscore(RedisKeys.cancelQueue(RedisKeys.bucket(bad)), bad)).isNull();
        }
    }

    @Test
    void reconciliationCallsAMalformedRecordMalformedNotMissing() {
        s.orders().create(ops, "mq-1", null, Duration.ofMinutes(30));
        try (RawRedis raw = new RawRedis()) {
            raw.cmd().hset(RedisKeys.order("mq-1"), "status", "7");
        }
        ReconReport report = s.reconciliation().run(null, (phase, done, total) -> { }, () -> false);
        assertThat(report.findings(ReconCategory.QUEUE_ENTRY_NOT_WAIT_PAY)).singleElement()
                .satisfies(f -> assertThat(f.detail()).startsWith("order's Redis record is malformed").doesNotContain("no Redis state"));
    }

    @Test
    void theDataSetRestoreClosesTheLettersOfTheRecordsItRestored() {
        s.orders().create(ops, "mr-1", null, Duration.ofMinutes(30));
        try (RawRedis raw = new RawRedis()) {
            raw.cmd().hset(RedisKeys.order("mr-1"), "status", "7");
        }
        s.transitions().transition(ops, TransitionRequest.of("mr-1", OrderStatus.PAID, "t", ""));
        assertThat(letters("ORDER_RECORD")).hasSize(1);
        try (RawRedis raw = new RawRedis()) {
            raw.cmd().del(RedisKeys.EPOCH);
        }
        s.maintenance().recoverIfRedisLostData();
        assertThat(s.orders().lookup("mr-1").summary().redisStatus()).isEqualTo(OrderStatus.WAIT_PAY);
        assertThat(letters("ORDER_RECORD")).as("the restore repaired what the letter asked for").isEmpty();
        assertThat(s.audit().page(AuditFilter.all(), null, 10).rows()).extracting(AuditEvent::action).contains("DEAD_LETTER_RETRY");
    }
}
