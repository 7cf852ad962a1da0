package com.orderconsole.service.transition;

import com.orderconsole.FreshEngine;
import com.orderconsole.RawRedis;
import com.orderconsole.RawSql;
import com.orderconsole.TestServers;
import com.orderconsole.app.Engine;
import com.orderconsole.domain.InvalidRulesException;
import com.orderconsole.domain.Operator;
import com.orderconsole.domain.OrderStatus;
import com.orderconsole.domain.PermissionDeniedException;
import com.orderconsole.domain.ResultCode;
import com.orderconsole.domain.Role;
import com.orderconsole.domain.TransitionRequest;
import com.orderconsole.domain.TransitionResult;
import com.orderconsole.redis.RedisKeys;
import com.orderconsole.app.Services;
import com.orderconsole.service.monitor.Edge;
import com.orderconsole.service.order.OrderDetails;
import com.orderconsole.service.order.OrderQuery;
import com.orderconsole.service.order.OrderSummary;
import com.orderconsole.service.rules.RulesJson;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import java.time.Duration;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class TransitionEngineTest {
    @RegisterExtension
    final FreshEngine engine = new FreshEngine();
    private Services s;
    private final Operator support = new Operator("alice", Role.SUPPORT);
    private final Operator admin = new Operator("root-admin", Role.ADMIN);
    private final Operator ops = new Operator("olga", Role.OPS);

    @BeforeEach
    void start() {
        s = engine.services();
    }

    private TransitionResult move(String id, OrderStatus to) {
        return s.transitions().transition(support, TransitionRequest.of(id, to, "test", ""));
    }

    @Test
    void payThenShipFollowsTheRulesAndReachesMySql() {
        s.orders().create(support, "o-1", null, Duration.ofMinutes(30));
        TransitionResult paid = move("o-1", OrderStatus.PAID);
        assertThat(paid.code()).isEqualTo(ResultCode.APPLIED);
        assertThat(paid.version()).isEqualTo(2);
        TransitionResult skip = move("o-1", OrderStatus.FINISHED);
        assertThat(skip.code()).isEqualTo(ResultCode.NOT_ALLOWED);
        assertThat(skip.version()).isEqualTo(2);

        s.follower().drainOnce();
        OrderDetails d = s.orders().lookup("o-1");
        assertThat(d.summary().mysqlStatus()).isEqualTo(OrderStatus.PAID);
        assertThat(d.summary().mysqlVersion()).isEqualTo(2);
        assertThat(d.summary().disagrees()).isFalse();
        assertThat(d.history()).extracting(h -> h.code()).containsExactly(ResultCode.APPLIED, ResultCode.APPLIED, ResultCode.NOT_ALLOWED);
        assertThat(d.history().get(2).actor()).isEqualTo("alice");
        assertThat(d.legalTargets()).containsExactly(OrderStatus.WAIT_SHIP);
        assertThat(d.queueExpiryMs()).as("paid orders leave the cancel queue").isNull();
    }

    @Test
    void latePayOnCancelledOrderIsRejectedAsTerminalAndRecorded() {
        s.orders().create(support, "late-1", null, Duration.ofMinutes(30));
        assertThat(move("late-1", OrderStatus.CANCELLED).applied()).isTrue();
        TransitionResult late = move("late-1", OrderStatus.PAID);
        assertThat(late.code()).isEqualTo(ResultCode.TERMINAL);
        assertThat(late.code().code()).isEqualTo(-2);
        s.follower().drainOnce();
        assertThat(s.orders().lookup("late-1").history()).last()
                .satisfies(h -> {
                    assertThat(h.code()).isEqualTo(ResultCode.TERMINAL);
                    assertThat(h.from()).isEqualTo(OrderStatus.CANCELLED);
                    assertThat(h.to()).isEqualTo(OrderStatus.PAID);
                });
    }

    @Test
    void repeatedPaymentCallbackIsANoOp() {
        s.orders().create(support, "dup-1", null, Duration.ofMinutes(30));
        move("dup-1", OrderStatus.PAID);
        TransitionResult again = move("dup-1", OrderStatus.PAID);
        assertThat(again.code()).isEqualTo(ResultCode.ALREADY_IN_STATUS);
        assertThat(again.version()).isEqualTo(2);
    }

    @Test
    void compareAndSetRejectsAStaleVersion() {
        s.orders().create(support, "cas-1", null, Duration.ofMinutes(30));
        TransitionResult stale = s.transitions().transition(support,
                new TransitionRequest("cas-1", OrderStatus.PAID, 5L, "test", "", false));
        assertThat(stale.code()).isEqualTo(ResultCode.VERSION_CONFLICT);
        TransitionResult ok = s.transitions().transition(support,
                new TransitionRequest("cas-1", OrderStatus.PAID, 1L, "test", "", false));
        assertThat(ok.applied()).isTrue();
    }

    @Test
    void overrideNeedsAdminAndTheVersionTheOperatorSaw() {
        s.orders().create(support, "ov-1", null, Duration.ofMinutes(30));
        move("ov-1", OrderStatus.CANCELLED);
        TransitionRequest revive = new TransitionRequest("ov-1", OrderStatus.PAID, 2L, "console", "customer paid by bank transfer", true);
        assertThatThrownBy(() -> s.transitions().transition(support, revive)).isInstanceOf(PermissionDeniedException.class)
                .hasMessageContaining("needs role admin");
        assertThatThrownBy(() -> s.transitions().transition(ops, revive)).isInstanceOf(PermissionDeniedException.class);
        TransitionResult stale = s.transitions().transition(admin,
                new TransitionRequest("ov-1", OrderStatus.PAID, 1L, "console", "late", true));
        assertThat(stale.code()).isEqualTo(ResultCode.VERSION_CONFLICT);
        TransitionResult done = s.transitions().transition(admin, revive);
        assertThat(done.applied()).isTrue();
        assertThat(done.version()).isEqualTo(3);
        assertThatThrownBy(() -> new TransitionRequest("ov-1", OrderStatus.PAID, null, "console", "x", true))
                .hasMessageContaining("version");
    }

    @Test
    void readOnlyOperatorsCannotChangeAnything() {
        s.orders().create(support, "ro-1", null, Duration.ofMinutes(30));
        Operator viewer = new Operator("vic", Role.READ_ONLY);
        assertThatThrownBy(() -> s.transitions().transition(viewer, TransitionRequest.of("ro-1", OrderStatus.PAID, "t", "")))
                .isInstanceOf(PermissionDeniedException.class);
        assertThatThrownBy(() -> s.rules().set(support, RulesJson.write(s.rules().current())))
                .isInstanceOf(PermissionDeniedException.class);
        assertThat(s.orders().lookup("ro-1").summary().redisStatus()).isEqualTo(OrderStatus.WAIT_PAY);
    }

    @Test
    void unknownOrderIsRejectedWithoutCreatingState() {
        TransitionResult r = move("nobody", OrderStatus.PAID);
        assertThat(r.code()).isEqualTo(ResultCode.STATE_MISSING);
        try (RawRedis raw = new RawRedis()) {
            assertThat(raw.cmd().exists(RedisKeys.order("nobody"))).isZero();
        }
        assertThat(s.monitor().resultCounts().get(ResultCode.STATE_MISSING)).isEqualTo(1);
    }

    @Test
    void lostRedisStateIsRebuiltFromMySqlNotRestartedAsNew() {
        s.orders().create(support, "lost-1", null, Duration.ofMinutes(30));
        move("lost-1", OrderStatus.PAID);
        move("lost-1", OrderStatus.WAIT_SHIP);
        s.follower().drainOnce();
        try (RawRedis raw = new RawRedis()) {
            raw.cmd().del(RedisKeys.order("lost-1"));
        }
        TransitionResult r = move("lost-1", OrderStatus.SHIPPED);
        assertThat(r.code()).isEqualTo(ResultCode.APPLIED);
        assertThat(r.from()).isEqualTo(OrderStatus.WAIT_SHIP);
        assertThat(r.version()).isEqualTo(4);
    }

    @Test
    void lookupRebuildsMissingState() {
        s.orders().create(support, "lost-2", null, Duration.ofMinutes(30));
        try (RawRedis raw = new RawRedis()) {
            raw.cmd().del(RedisKeys.order("lost-2"));
        }
        OrderDetails d = s.orders().rebuildAndLookup("lost-2");
        assertThat(d.rebuilt()).isTrue();
        assertThat(d.summary().redisStatus()).isEqualTo(OrderStatus.WAIT_PAY);
        assertThat(d.queueExpiryMs()).isNotNull();
    }

    @Test
    void resultCodesAndEdgesAreCounted() {
        s.orders().create(support, "c-1", null, Duration.ofMinutes(30));
        move("c-1", OrderStatus.PAID);
        move("c-1", OrderStatus.CANCELLED);
        move("c-1", OrderStatus.CANCELLED);
        assertThat(s.monitor().resultCounts()).containsEntry(ResultCode.APPLIED, 1L).containsEntry(ResultCode.NOT_ALLOWED, 2L);
        assertThat(s.monitor().appliedByEdge()).containsEntry(new Edge(OrderStatus.WAIT_PAY, OrderStatus.PAID), 1L);
        assertThat(s.monitor().rejectionsByEdge().get(new Edge(OrderStatus.PAID, OrderStatus.CANCELLED)))
                .containsEntry(ResultCode.NOT_ALLOWED, 2L);
        assertThat(s.monitor().stateCounts().live()).containsEntry(OrderStatus.PAID, 1L).containsEntry(OrderStatus.WAIT_PAY, 0L);
        s.follower().drainOnce();
        var minutes = s.monitor().perMinute(Duration.ofHours(1));
        assertThat(minutes.stream().mapToLong(m -> m.byCode().getOrDefault(ResultCode.APPLIED, 0L)).sum())
                .as("per-minute history counts transitions like the counters, not creations").isEqualTo(1);
        assertThat(s.monitor().transitionsLastHour()).containsExactly(java.util.Map.entry(new Edge(OrderStatus.WAIT_PAY, OrderStatus.PAID), 1L));
    }

    @Test
    void changedRulesApplyToTheNextTransitionWithoutRestart() {
        s.orders().create(support, "r-1", null, Duration.ofMinutes(30));
        move("r-1", OrderStatus.PAID);
        assertThat(move("r-1", OrderStatus.CANCELLED).code()).isEqualTo(ResultCode.NOT_ALLOWED);
        String refundable = "{\"terminal\":[\"FINISHED\",\"CANCELLED\"],\"transitions\":{\"WAIT_PAY\":[\"PAID\",\"CANCELLED\"],"
                + "\"PAID\":[\"WAIT_SHIP\",\"CANCELLED\"],\"WAIT_SHIP\":[\"SHIPPED\"],\"SHIPPED\":[\"FINISHED\"]}}";
        assertThat(s.rules().set(ops, refundable).version()).isEqualTo(2);
        assertThat(move("r-1", OrderStatus.CANCELLED).code()).isEqualTo(ResultCode.APPLIED);
    }

    @Test
    void twoOperatorsApplyingRulesAtOnceCannotWriteTheSameVersion() throws Exception {
        String original = RulesJson.write(s.rules().current());
        String doc = "{\"terminal\":[\"FINISHED\",\"CANCELLED\"],\"transitions\":{\"WAIT_PAY\":[\"PAID\",\"CANCELLED\"],"
                + "\"PAID\":[\"WAIT_SHIP\",\"CANCELLED\"],\"WAIT_SHIP\":[\"SHIPPED\"],\"SHIPPED\":[\"FINISHED\"]}}";
        try (Engine other = Engine.start(TestServers.config())) {
            var a = java.util.concurrent.CompletableFuture.supplyAsync(() -> {
                try {
                    return s.rules().set(ops, doc).version();
                } catch (IllegalStateException e) {
                    return -1L;
                }
            });
            var b = java.util.concurrent.CompletableFuture.supplyAsync(() -> {
                try {
                    return other.services().rules().set(ops, doc).version();
                } catch (IllegalStateException e) {
                    return -1L;
                }
            });
            java.util.List<Long> versions = java.util.List.of(a.get(), b.get());
            // One of them writes version 2; the other is refused (-1) or, arriving after it, finds the same
            // graph already in force (2). Never a version 3 for the same change, never two writers of 2.
            assertThat(versions).allMatch(v -> v == 2L || v == -1L).contains(2L);
            assertThat(RawSql.count("SELECT COUNT(*) FROM transition_rules")).isEqualTo(2);
            assertThat(s.rules().set(ops, original).version()).isEqualTo(3);
        }
    }

    @Test
    void invalidRulesAreRejectedAndTheStoredOnesStay() {
        long before = s.rules().current().version();
        assertThatThrownBy(() -> s.rules().set(ops, "{\"terminal\":[\"FINISHED\",\"CANCELLED\"],\"transitions\":{\"WAIT_PAY\":[\"PAID\",\"CANCELLED\"],"
                + "\"PAID\":[\"WAIT_SHIP\"],\"WAIT_SHIP\":[\"SHIPPED\"],\"SHIPPED\":[\"FINISHED\"],\"FINISHED\":[\"SHIPPED\"]}}"))
                .isInstanceOf(InvalidRulesException.class).hasMessageContaining("terminal status FINISHED");
        assertThatThrownBy(() -> s.rules().set(ops, "not json")).isInstanceOf(InvalidRulesException.class);
        assertThat(s.rules().current().version()).isEqualTo(before);
        assertThat(s.rules().current().sameGraph(com.orderconsole.domain.TransitionRules.defaults())).isTrue();
        assertThat(s.rules().set(ops, RulesJson.write(s.rules().current())).version()).as("same graph: no new version")
                .isEqualTo(before);
    }

    @Test
    void missingRulesCopyIsRepublishedAndTheTransitionStillApplies() {
        s.orders().create(support, "rc-1", null, Duration.ofMinutes(30));
        try (RawRedis raw = new RawRedis()) {
            raw.cmd().del(RedisKeys.rules(RedisKeys.bucket("rc-1")));
        }
        assertThat(move("rc-1", OrderStatus.PAID).code()).isEqualTo(ResultCode.APPLIED);
    }

    @Test
    void scriptCacheFlushIsSurvived() {
        s.orders().create(support, "sf-1", null, Duration.ofMinutes(30));
        try (RawRedis raw = new RawRedis()) {
            raw.cmd().scriptFlush();
        }
        assertThat(move("sf-1", OrderStatus.PAID).code()).isEqualTo(ResultCode.APPLIED);
        assertThat(s.health().check().warnings()).noneMatch(w -> w.contains("script"));
    }

    @Test
    void badOrderIdsAreRejectedBeforeAnyKeyIsBuilt() {
        assertThatThrownBy(() -> s.orders().create(support, "a*b", null, Duration.ofMinutes(1)))
                .hasMessageContaining("order id 'a*b' is invalid");
        assertThatThrownBy(() -> TransitionRequest.of("x y", OrderStatus.PAID, "t", "")).hasMessageContaining("invalid");
        assertThatThrownBy(() -> s.orders().lookup("{b01}")).hasMessageContaining("invalid");
        assertThatThrownBy(() -> s.orders().create(support, "ok-1", "bad customer*", Duration.ofMinutes(1)))
                .hasMessageContaining("customer id 'bad customer*' is invalid");
        assertThatThrownBy(() -> s.orders().create(support, "ok-1", null, Duration.ofDays(400)))
                .hasMessageContaining("at most 365 days");
        assertThatThrownBy(() -> TransitionRequest.of("ok-1", OrderStatus.PAID, "t", "line1\nforged line"))
                .hasMessageContaining("control character");
        assertThat(RawSql.count("SELECT COUNT(*) FROM orders")).isZero();
    }

    @Test
    void idsDifferingOnlyInCaseAreDifferentOrders() {
        s.orders().create(support, "A-1001", null, Duration.ofMinutes(30));
        move("A-1001", OrderStatus.PAID);
        s.orders().create(support, "a-1001", null, Duration.ofMinutes(30));
        s.follower().drainOnce();
        assertThat(s.orders().lookup("A-1001").summary().mysqlStatus()).isEqualTo(OrderStatus.PAID);
        assertThat(s.orders().lookup("a-1001").summary().mysqlStatus()).isEqualTo(OrderStatus.WAIT_PAY);
        assertThat(s.orders().lookup("a-1001").history()).hasSize(1);
        assertThat(s.orders().page(new OrderQuery("a-1001", null, java.util.Set.of(), false, null, null, false, false), null, 10)
                .rows()).extracting(OrderSummary::orderId).containsExactly("a-1001");
    }

    @Test
    void duplicateCreationIsRefusedAndChangesNothing() {
        s.orders().create(support, "d-1", null, Duration.ofMinutes(30));
        move("d-1", OrderStatus.PAID);
        assertThatThrownBy(() -> s.orders().create(support, "d-1", null, Duration.ofMinutes(30)))
                .hasMessageContaining("already exists");
        assertThat(s.orders().lookup("d-1").summary().redisStatus()).isEqualTo(OrderStatus.PAID);
    }

    /** Issue 15: a rules copy published before the one-field edge lookup existed (after an upgrade) still decides every code. */
    @Test
    void aRulesCopyWithoutEdgeFieldsStillDecidesEveryCode() {
        s.orders().create(support, "up-1", null, Duration.ofMinutes(30));
        s.orders().create(support, "up-2", null, Duration.ofMinutes(30));
        assertThat(move("up-2", OrderStatus.CANCELLED).code()).isEqualTo(ResultCode.APPLIED);
        try (RawRedis raw = new RawRedis()) {
            String version = raw.cmd().hget(RedisKeys.rules(0), "_v");
            for (int b = 0; b < RedisKeys.buckets(); b++) {
                assertThat(raw.cmd().hget(RedisKeys.rules(b), "1>2")).as("published with edge fields").isEqualTo("1");
                assertThat(raw.cmd().hkeys(RedisKeys.rules(b))).as("no edge out of a terminal status")
                        .noneMatch(k -> k.startsWith("5>") || k.startsWith("6>"));
                raw.cmd().del(RedisKeys.rules(b));
                raw.cmd().hset(RedisKeys.rules(b), java.util.Map.of("_v", version, "_t", "5,6", "1", "2,6", "2", "3", "3", "4", "4", "5"));
            }
        }
        assertThat(move("up-1", OrderStatus.PAID).code()).isEqualTo(ResultCode.APPLIED);
        assertThat(move("up-1", OrderStatus.CANCELLED).code()).isEqualTo(ResultCode.NOT_ALLOWED);
        assertThat(move("up-2", OrderStatus.PAID).code()).isEqualTo(ResultCode.TERMINAL);
        assertThat(move("up-1", OrderStatus.WAIT_SHIP).code()).isEqualTo(ResultCode.APPLIED);
    }

    /**
     * Issue 15: transition.lua counts one move per applied call instead of moving two live counters; the live
     * counts still add up over counters an earlier script left (n: moved with e:), and a recount in between.
     */
    @Test
    void liveCountsAddUpOverCountersAnEarlierScriptLeftAndAfterARecount() {
        s.orders().create(support, "lc-1", null, Duration.ofMinutes(30));
        s.orders().create(support, "lc-2", null, Duration.ofMinutes(30));
        try (RawRedis raw = new RawRedis()) {
            // lc-2 paid by the earlier script: its state, and the counters it moved on the way.
            String stats = RedisKeys.stats(RedisKeys.bucket("lc-2"));
            raw.cmd().hset(RedisKeys.order("lc-2"), java.util.Map.of("status", "2", "version", "2"));
            raw.cmd().zrem(RedisKeys.cancelQueue(RedisKeys.bucket("lc-2")), "lc-2");
            raw.cmd().hincrby(stats, "n:1", -1);
            raw.cmd().hincrby(stats, "n:2", 1);
            raw.cmd().hincrby(stats, "e:1>2", 1);
        }
        assertThat(move("lc-1", OrderStatus.PAID).code()).isEqualTo(ResultCode.APPLIED);
        assertThat(s.monitor().stateCounts().live()).containsEntry(OrderStatus.WAIT_PAY, 0L).containsEntry(OrderStatus.PAID, 2L);
        assertThat(s.monitor().appliedByEdge()).containsEntry(new Edge(OrderStatus.WAIT_PAY, OrderStatus.PAID), 2L);
        assertThat(s.monitor().resultCounts()).containsEntry(ResultCode.APPLIED, 2L);

        try (RawRedis raw = new RawRedis()) {
            raw.cmd().hincrby(RedisKeys.stats(RedisKeys.bucket("lc-1")), "n:1", 3); // drifted, as after a lost delete
        }
        Operator olga = new Operator("olga", Role.OPS);
        var report = s.reconciliation().run(null, com.orderconsole.service.recon.ReconProgress.NONE, () -> false);
        s.reconciliation().repair(olga, report, com.orderconsole.service.recon.ReconCategory.COUNTERS_DRIFT,
                com.orderconsole.service.recon.ReconProgress.NONE, () -> false);
        assertThat(s.monitor().stateCounts().live()).containsEntry(OrderStatus.WAIT_PAY, 0L).containsEntry(OrderStatus.PAID, 2L);
        assertThat(move("lc-1", OrderStatus.WAIT_SHIP).code()).isEqualTo(ResultCode.APPLIED);
        assertThat(s.monitor().stateCounts().live()).containsEntry(OrderStatus.PAID, 1L).containsEntry(OrderStatus.WAIT_SHIP, 1L)
                .containsEntry(OrderStatus.WAIT_PAY, 0L);
        assertThat(s.monitor().appliedByEdge()).as("the recount leaves the edge counts alone")
                .containsEntry(new Edge(OrderStatus.WAIT_PAY, OrderStatus.PAID), 2L)
                .containsEntry(new Edge(OrderStatus.PAID, OrderStatus.WAIT_SHIP), 1L);
    }

    /**
     * Found in the new-user trial: a row written into MySQL's history at the order's next version (by hand, by an
     * account that may insert history) made the real move answer "applied, MySQL in sync" while the follower set it
     * aside as a history conflict. Nothing pending is not "MySQL has it".
     */
    @Test
    void aMoveTheFollowerSetsAsideIsNotReportedAsInMySql() {
        s.orders().create(support, "sq-1", null, Duration.ofMinutes(30));
        s.follower().drainOnce();
        RawSql.update("INSERT INTO order_history (order_id, from_status, to_status, version, result_code, actor, source, reason, "
                + "at_ms, event_key) VALUES ('sq-1', 1, 6, 2, 1, 'cancel-sweeper', 'sweeper', 'squat', 1, 'hand-sq-1')");
        var outcome = s.transitions().transitionAndWait(support, TransitionRequest.of("sq-1", OrderStatus.PAID, "console", ""),
                Duration.ofSeconds(10));
        assertThat(outcome.result().applied()).isTrue();
        assertThat(outcome.mysqlSynced()).as("MySQL's history has CANCELLED at v2, not this payment").isFalse();
        assertThat(outcome.mysql().detail()).contains("version 2 of order sq-1 as CANCELLED, not PAID").contains("dead letters");

        s.orders().create(support, "sq-2", null, Duration.ofMinutes(30));
        var real = s.transitions().transitionAndWait(support, TransitionRequest.of("sq-2", OrderStatus.PAID, "console", ""),
                Duration.ofSeconds(10));
        assertThat(real.mysqlSynced()).as("an ordinary move still reads as in MySQL").isTrue();
    }
}
