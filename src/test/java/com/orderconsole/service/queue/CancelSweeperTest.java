package com.orderconsole.service.queue;

import com.orderconsole.FreshEngine;
import com.orderconsole.RawRedis;
import com.orderconsole.RawSql;
import com.orderconsole.TestServers;
import com.orderconsole.app.Engine;
import com.orderconsole.domain.Operator;
import com.orderconsole.domain.OrderStatus;
import com.orderconsole.domain.PermissionDeniedException;
import com.orderconsole.domain.ResultCode;
import com.orderconsole.domain.Role;
import com.orderconsole.domain.TransitionRequest;
import com.orderconsole.redis.RedisKeys;
import com.orderconsole.app.Services;
import com.orderconsole.service.audit.AuditEvent;
import com.orderconsole.service.audit.AuditFilter;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.tuple;

class CancelSweeperTest {
    @RegisterExtension
    final FreshEngine engine = new FreshEngine();
    private Services s;
    private final Operator support = new Operator("alice", Role.SUPPORT);
    private final Operator ops = new Operator("olga", Role.OPS);

    @BeforeEach
    void start() {
        s = engine.services();
    }

    /** Makes an order due, in Redis and in MySQL alike (the follower checks a cancel against MySQL's deadline). */
    private void expire(String id) {
        try (RawRedis raw = new RawRedis()) {
            raw.cmd().zadd(RedisKeys.cancelQueue(RedisKeys.bucket(id)), 1000, id);
        }
        com.orderconsole.RawSql.update("UPDATE orders SET expire_at_ms = 1000 WHERE order_id = '" + id + "'");
    }

    @Test
    void dueOrdersAreCancelledAndPaidOnesLeaveTheQueue() {
        s.orders().create(support, "sw-due", null, Duration.ofMinutes(30));
        s.orders().create(support, "sw-paid", null, Duration.ofMinutes(30));
        s.orders().create(support, "sw-later", null, Duration.ofMinutes(30));
        s.transitions().transition(support, TransitionRequest.of("sw-paid", OrderStatus.PAID, "t", ""));
        expire("sw-due");
        assertThat(s.queue().summary().overdue()).isEqualTo(1);

        assertThat(s.sweeper().tick()).isEqualTo(1);
        assertThat(s.orders().lookup("sw-due").summary().redisStatus()).isEqualTo(OrderStatus.CANCELLED);
        assertThat(s.orders().lookup("sw-later").summary().redisStatus()).isEqualTo(OrderStatus.WAIT_PAY);
        assertThat(s.queue().summary().depth()).isEqualTo(1);
        assertThat(s.queue().page(null, 10).items()).extracting(QueueItem::orderId).containsExactly("sw-later");
        s.follower().drainOnce();
        assertThat(s.orders().lookup("sw-due").history()).last().satisfies(h -> {
            assertThat(h.actor()).isEqualTo(CancelSweeper.ACTOR);
            assertThat(h.source()).isEqualTo("sweeper");
        });
        assertThat(s.sweeper().status().cancelledTotal()).isEqualTo(1);
    }

    /**
     * The race the product exists for, with rules that allow cancelling a paid order (a refund, set by an
     * admin): the sweeper reads a due entry, the payment lands, then the sweeper's CANCEL arrives. The timeout
     * cancel is a compare-and-set on the unpaid order it read, so the paid order stays paid. The due entry of a
     * paid order stands for that read (the payment's script removed the real one).
     */
    @Test
    void aTimeoutCancelNeverCancelsAnOrderPaidAfterItWasRead() {
        s.rules().set(new Operator("ada", Role.ADMIN),
                "{\"terminal\":[5,6],\"transitions\":{\"1\":[2,6],\"2\":[3,6],\"3\":[4],\"4\":[5]}}");
        s.orders().create(support, "sw-race", null, Duration.ofMinutes(30));
        s.orders().create(support, "sw-unpaid", null, Duration.ofMinutes(30));
        assertThat(s.transitions().transition(support, TransitionRequest.of("sw-race", OrderStatus.PAID, "t", "")).applied()).isTrue();
        expire("sw-race");
        expire("sw-unpaid");

        assertThat(s.sweeper().tick()).isEqualTo(1);
        assertThat(s.orders().lookup("sw-race").summary().redisStatus()).isEqualTo(OrderStatus.PAID);
        assertThat(s.orders().lookup("sw-unpaid").summary().redisStatus()).isEqualTo(OrderStatus.CANCELLED);
        assertThat(s.queue().summary().depth()).as("the paid order's entry is gone too").isZero();
        // The queue page's cancel-now acts on an unpaid order in the same way.
        s.orders().create(support, "sw-now", null, Duration.ofMinutes(30));
        s.transitions().transition(support, TransitionRequest.of("sw-now", OrderStatus.PAID, "t", ""));
        assertThat(s.queue().cancelNow(ops, "sw-now", "").code()).isEqualTo(ResultCode.VERSION_CONFLICT);
        assertThat(s.orders().lookup("sw-now").summary().redisStatus()).isEqualTo(OrderStatus.PAID);
    }

    @Test
    void severalSweepersCancelEachOrderExactlyOnce() throws Exception {
        for (int i = 0; i < 600; i++) {
            s.orders().create(support, "many-" + i, null, Duration.ofMinutes(30));
            expire("many-" + i);
        }
        try (Engine other1 = Engine.start(TestServers.config()); Engine other2 = Engine.start(TestServers.config())) {
            List<CompletableFuture<Integer>> runs = new ArrayList<>();
            for (CancelSweeper sw : List.of(s.sweeper(), other1.services().sweeper(), other2.services().sweeper())) {
                runs.add(CompletableFuture.supplyAsync(sw::tick));
            }
            int total = 0;
            for (CompletableFuture<Integer> f : runs) {
                total += f.get();
            }
            assertThat(total).isEqualTo(600);
        }
        s.follower().drainOnce();
        assertThat(RawSql.count("SELECT COUNT(*) FROM order_history WHERE to_status = 6 AND result_code = 1")).isEqualTo(600);
        assertThat(RawSql.count("SELECT COUNT(*) FROM orders WHERE status = 6 AND version = 2")).isEqualTo(600);
        assertThat(s.queue().summary().depth()).isZero();
    }

    @Test
    void requeueMovesTheEntryInsteadOfDuplicatingIt() {
        s.orders().create(support, "rq-1", null, Duration.ofMinutes(30));
        long first = s.queue().page(null, 10).items().get(0).expireAtMs();
        long moved = s.queue().extend(ops, "rq-1", Duration.ofMinutes(10), "test", "");
        assertThat(moved).isEqualTo(first + Duration.ofMinutes(10).toMillis());
        assertThat(s.queue().summary().depth()).isEqualTo(1);
        assertThat(s.queue().page(null, 10).items().get(0).expireAtMs()).isEqualTo(moved);
    }

    @Test
    void queueActionsNeedOpsAndWorkThroughTheScript() {
        s.orders().create(support, "qa-1", null, Duration.ofMinutes(30));
        s.orders().create(support, "qa-2", null, Duration.ofMinutes(30));
        assertThatThrownBy(() -> s.queue().cancelNow(support, "qa-1", "fraud")).isInstanceOf(PermissionDeniedException.class);
        assertThat(s.queue().cancelNow(ops, "qa-1", "fraud").code()).isEqualTo(ResultCode.APPLIED);
        assertThat(s.queue().remove(ops, "qa-2", "test", "")).isTrue();
        assertThat(s.queue().summary().depth()).isZero();
        assertThat(s.orders().lookup("qa-2").summary().redisStatus()).isEqualTo(OrderStatus.WAIT_PAY);
        assertThatThrownBy(() -> s.queue().extend(ops, "qa-1", Duration.ofMinutes(5), "test", ""))
                .hasMessageContaining("not waiting for payment");
    }

    @Test
    void pausedSweeperCancelsNothingUntilResumed() {
        s.orders().create(support, "p-1", null, Duration.ofMinutes(30));
        expire("p-1");
        s.sweeper().setPaused(ops, true, "cli", "carrier outage");
        assertThat(s.sweeper().tick()).isZero();
        assertThat(s.sweeper().status().paused()).isTrue();
        s.sweeper().setPaused(ops, false, "console", "");
        assertThat(s.sweeper().tick()).isEqualTo(1);
    }

    /** A trial found pausing and resuming the sweeper left no audit row: who stopped the timeout cancels was unknown. */
    @Test
    void pausingAndResumingAreAuditedWithTheirActor() {
        s.sweeper().setPaused(ops, true, "cli", "carrier outage");
        s.sweeper().setPaused(ops, false, "console", "");
        List<AuditEvent> events = s.audit().page(AuditFilter.all(), null, 10).rows();
        assertThat(events).extracting(AuditEvent::action, AuditEvent::actor, AuditEvent::source, AuditEvent::reason)
                .containsExactly(tuple("SWEEPER_RESUME", ops.name(), "console", ""),
                        tuple("SWEEPER_PAUSE", ops.name(), "cli", "carrier outage"));
        assertThat(events.get(1).detail()).isEqualTo("cancel sweeper running → paused");
        assertThatThrownBy(() -> s.sweeper().setPaused(support, true, "cli", "")).isInstanceOf(PermissionDeniedException.class);
        assertThat(s.audit().page(AuditFilter.all(), null, 10).rows()).hasSize(2);
    }

    @Test
    void staleEntryOfAnUnknownOrderIsDropped() {
        try (RawRedis raw = new RawRedis()) {
            raw.cmd().zadd(RedisKeys.cancelQueue(RedisKeys.bucket("ghost")), 1000, "ghost");
        }
        assertThat(s.sweeper().tick()).isZero();
        assertThat(s.queue().summary().depth()).isZero();
    }

    @Test
    void backgroundSweeperCancelsAnExpiredOrderOnItsOwn() {
        s.orders().create(support, "bg-1", null, Duration.ofMillis(300));
        s.sweeper().start(Duration.ofMillis(200));
        org.awaitility.Awaitility.await().atMost(Duration.ofSeconds(10)).until(() ->
                s.orders().lookup("bg-1").summary().redisStatus() == OrderStatus.CANCELLED);
        assertThat(s.health().check().warnings()).noneMatch(w -> w.contains("sweeper has not ticked"));
    }
}
