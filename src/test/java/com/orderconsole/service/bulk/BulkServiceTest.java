package com.orderconsole.service.bulk;

import com.orderconsole.FreshEngine;
import com.orderconsole.RawSql;
import com.orderconsole.domain.HistoryEntry;
import com.orderconsole.domain.Operator;
import com.orderconsole.domain.OrderStatus;
import com.orderconsole.domain.PermissionDeniedException;
import com.orderconsole.domain.ResultCode;
import com.orderconsole.domain.Role;
import com.orderconsole.domain.TransitionRequest;
import com.orderconsole.app.Services;
import com.orderconsole.service.order.OrderQuery;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import java.io.ByteArrayOutputStream;
import java.io.StringWriter;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicBoolean;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** Bulk transitions on real Redis and MariaDB: preview, compare-and-set apply, the batch record, refusals. */
class BulkServiceTest {
    @RegisterExtension
    final FreshEngine engine = new FreshEngine();
    private Services s;
    private final Operator setup = new Operator("setup", Role.SUPPORT);
    private final Operator support = new Operator("sam", Role.SUPPORT);
    private final Operator admin = new Operator("ada", Role.ADMIN);
    /** Threads that create the orders of a large setup. */
    private static final int SETUP_THREADS = 4;

    @BeforeEach
    void start() {
        s = engine.services();
    }

    /**
     * Creates {@code prefix0000} ... and moves each along {@code path}. Orders are independent, so the thousand-order
     * setups create them on a few threads at once: each creation waits on Redis and MySQL round trips, not on the CPU.
     */
    private void orders(String prefix, int n, OrderStatus... path) throws Exception {
        ExecutorService creators = Executors.newFixedThreadPool(n < 100 ? 1 : SETUP_THREADS);
        try {
            List<Future<?>> created = new ArrayList<>();
            for (int i = 0; i < n; i++) {
                String id = String.format("%s%04d", prefix, i);
                created.add(creators.submit(() -> {
                    s.orders().create(setup, id, null, Duration.ofMinutes(30));
                    for (OrderStatus st : path) {
                        s.transitions().transition(setup, TransitionRequest.of(id, st, "test", "setup"));
                    }
                }));
            }
            for (Future<?> f : created) {
                f.get();
            }
        } finally {
            creators.shutdownNow();
        }
        // A filter reads MySQL's status: let the follower apply the setup first, as it does within milliseconds live.
        assertThat(s.follower().catchUp(Duration.ofSeconds(30)).caughtUp()).isTrue();
    }

    private static OrderQuery status(OrderStatus st) {
        return new OrderQuery(null, null, Set.of(st), false, null, null, false, false);
    }

    private static long rows(String table) {
        return RawSql.count("SELECT COUNT(*) FROM " + table);
    }

    @Test
    void previewCountsEveryTargetThenApplyMovesThroughTheScriptWithSourceBulkAndTheBatchId() throws Exception {
        orders("p-", 5, OrderStatus.PAID);
        orders("w-", 2);
        orders("x-", 1, OrderStatus.CANCELLED);
        BulkScope scope = BulkScope.of(new OrderQuery(null, null, Set.of(), false, null, null, false, false));

        BulkPreview p = s.bulk().preview(scope, OrderStatus.WAIT_SHIP, false, BulkProgress.NONE, () -> false);
        assertThat(p.matched()).isEqualTo(8);
        assertThat(p.wouldApply()).isEqualTo(5);
        assertThat(p.wouldReject()).containsEntry(ResultCode.NOT_ALLOWED, 2).containsEntry(ResultCode.TERMINAL, 1);
        assertThat(p.perTarget()).contains(new TargetCount(OrderStatus.CANCELLED, 2, 6), new TargetCount(OrderStatus.PAID, 2, 6));
        assertThat(p.sample()).startsWith("p-0000").contains("w-0000", "x-0000");
        assertThat(rows("bulk_batch")).as("a preview writes nothing").isZero();

        BulkBatch b = s.bulk().apply(support, p, "  warehouse reopened  ", "console", BulkProgress.NONE, () -> false);
        assertThat(b.state()).isEqualTo(BulkBatch.State.DONE);
        assertThat(b.counts()).isEqualTo(new BulkCounts(5, 3, 0, 0));
        assertThat(b.actor()).isEqualTo("sam");
        assertThat(b.reason()).isEqualTo("warehouse reopened");
        assertThat(b.scope()).isEqualTo("filter: all orders");
        assertThat(s.bulk().batches(null, 10)).extracting(BulkBatch::id).containsExactly(b.id());
        List<BulkItem> items = s.bulk().items(b.id(), null, null, 100);
        assertThat(items).hasSize(8);
        assertThat(s.bulk().items(b.id(), BulkItem.Outcome.APPLIED, null, 100)).extracting(BulkItem::orderId)
                .containsExactly("p-0000", "p-0001", "p-0002", "p-0003", "p-0004");
        assertThat(s.bulk().items(b.id(), BulkItem.Outcome.REJECTED, null, 100)).extracting(BulkItem::code)
                .containsExactlyInAnyOrder(ResultCode.NOT_ALLOWED, ResultCode.NOT_ALLOWED, ResultCode.TERMINAL);

        assertThat(s.follower().catchUp(Duration.ofSeconds(20)).caughtUp()).isTrue();
        assertThat(s.orders().lookup("p-0003").summary().mysqlStatus()).isEqualTo(OrderStatus.WAIT_SHIP);
        HistoryEntry last = s.orders().lookup("p-0003").history().get(2);
        assertThat(last.source()).isEqualTo("bulk");
        assertThat(last.actor()).isEqualTo("sam");
        assertThat(last.reason()).isEqualTo("bulk #" + b.id() + ": warehouse reopened");
        HistoryEntry rejected = s.orders().lookup("w-0001").history().get(1);
        assertThat(rejected.code()).isEqualTo(ResultCode.NOT_ALLOWED);
        assertThat(rejected.source()).isEqualTo("bulk");

        StringWriter csv = new StringWriter();
        assertThat(s.bulk().exportCsv(b.id(), csv)).isEqualTo(8);
        assertThat(csv.toString()).startsWith("batch,order_id,outcome,result_code").contains("p-0000,APPLIED,1,applied");
        ByteArrayOutputStream json = new ByteArrayOutputStream();
        assertThat(s.bulk().exportJson(b.id(), json)).isEqualTo(8);
        assertThat(json.toString(StandardCharsets.UTF_8)).contains("\"reason\" : \"warehouse reopened\"").contains("\"items\" : [");
    }

    @Test
    void anOrderThatMovedBetweenPreviewAndApplyIsReportedAsAConflictAndNotOverwritten() throws Exception {
        orders("c-", 3, OrderStatus.PAID);
        BulkPreview p = s.bulk().preview(BulkScope.of(status(OrderStatus.PAID)), OrderStatus.WAIT_SHIP, false, BulkProgress.NONE, () -> false);
        assertThat(p.wouldApply()).isEqualTo(3);
        // Meanwhile someone ships c-0001 by hand (PAID -> WAIT_SHIP -> SHIPPED): version 4.
        s.transitions().transition(setup, TransitionRequest.of("c-0001", OrderStatus.WAIT_SHIP, "console", "by hand"));
        s.transitions().transition(setup, TransitionRequest.of("c-0001", OrderStatus.SHIPPED, "console", "by hand"));

        BulkBatch b = s.bulk().apply(support, p, "restock", "console", BulkProgress.NONE, () -> false);
        assertThat(b.counts()).isEqualTo(new BulkCounts(2, 0, 1, 0));
        BulkItem conflict = s.bulk().items(b.id(), BulkItem.Outcome.CONFLICT, null, 10).get(0);
        assertThat(conflict.orderId()).isEqualTo("c-0001");
        assertThat(conflict.code()).isEqualTo(ResultCode.VERSION_CONFLICT);
        assertThat(conflict.seenVersion()).isEqualTo(2);
        assertThat(conflict.version()).isEqualTo(4);
        assertThat(s.orders().lookup("c-0001").summary().redisStatus()).as("not overwritten").isEqualTo(OrderStatus.SHIPPED);
        assertThat(s.orders().lookup("c-0001").summary().redisVersion()).isEqualTo(4);
    }

    @Test
    void cancellingMidBatchLeavesARecordThatMatchesWhatWasDone() throws Exception {
        int n = BulkService.CHUNK * 2 + 100;
        orders("k-", n);
        BulkPreview p = s.bulk().preview(BulkScope.of(status(OrderStatus.WAIT_PAY)), OrderStatus.PAID, false, BulkProgress.NONE, () -> false);
        assertThat(p.matched()).isEqualTo(n);
        AtomicBoolean cancel = new AtomicBoolean();
        // The user presses Cancel after the first chunk is reported.
        BulkBatch b = s.bulk().apply(support, p, "paid offline", "console", (done, total, c) -> cancel.set(true), cancel::get);

        assertThat(b.state()).isEqualTo(BulkBatch.State.CANCELLED);
        assertThat(b.counts().applied()).isEqualTo(BulkService.CHUNK);
        assertThat(b.notRun()).isEqualTo(n - BulkService.CHUNK);
        assertThat(b.finishedAtMs()).isNotNull();
        BulkBatch stored = s.bulk().batch(b.id());
        assertThat(stored).isEqualTo(b);
        assertThat(RawSql.count("SELECT COUNT(*) FROM bulk_item WHERE batch_id = " + b.id())).isEqualTo(BulkService.CHUNK);
        assertThat(s.follower().catchUp(Duration.ofSeconds(30)).caughtUp()).isTrue();
        assertThat(RawSql.count("SELECT COUNT(*) FROM orders WHERE status = 2")).isEqualTo(BulkService.CHUNK);
        assertThat(RawSql.count("SELECT COUNT(*) FROM order_history WHERE source = 'bulk'")).isEqualTo(BulkService.CHUNK);
        // Every order the record calls applied is PAID, and no other order is.
        assertThat(RawSql.column("SELECT order_id FROM orders WHERE status = 2 ORDER BY order_id"))
                .isEqualTo(RawSql.column("SELECT order_id FROM bulk_item WHERE outcome = 'APPLIED' ORDER BY order_id"));
    }

    /** Issue 26: a preview in which nothing would move runs nothing: no batch, no rejection rows for the alert to count. */
    @Test
    void aPreviewThatMovesNothingIsRefusedAndWritesNothing() throws Exception {
        orders("z-", 2);
        BulkPreview p = s.bulk().preview(BulkScope.of(status(OrderStatus.WAIT_PAY)), OrderStatus.FINISHED, false, BulkProgress.NONE, () -> false);
        assertThat(p.matched()).isEqualTo(2);
        assertThat(p.wouldApply()).isZero();
        s.follower().catchUp(java.time.Duration.ofSeconds(10));
        long history = rows("order_history");

        assertThatThrownBy(() -> s.bulk().apply(support, p, "close them", "console", BulkProgress.NONE, () -> false))
                .isInstanceOf(IllegalArgumentException.class).hasMessage("2 orders matched and none would move to FINISHED: nothing to do");
        assertThat(rows("bulk_batch")).isZero();
        assertThat(rows("bulk_item")).isZero();
        s.follower().catchUp(java.time.Duration.ofSeconds(10));
        assertThat(rows("order_history")).as("no rejection rows").isEqualTo(history);
    }

    @Test
    void aSupportUserCannotRunAnOverrideBulkAndNothingIsRecorded() throws Exception {
        orders("o-", 2, OrderStatus.PAID, OrderStatus.WAIT_SHIP, OrderStatus.SHIPPED, OrderStatus.FINISHED);
        BulkPreview p = s.bulk().preview(BulkScope.of(List.of("o-0000", "o-0001")), OrderStatus.CANCELLED, true, BulkProgress.NONE, () -> false);
        assertThat(p.wouldApply()).as("an override ignores the rules").isEqualTo(2);

        assertThatThrownBy(() -> s.bulk().apply(support, p, "refund", "console", BulkProgress.NONE, () -> false))
                .isInstanceOf(PermissionDeniedException.class).hasMessageContaining("override the transition rules in bulk");
        assertThat(rows("bulk_batch")).isZero();
        assertThat(s.orders().lookup("o-0000").summary().redisStatus()).isEqualTo(OrderStatus.FINISHED);

        BulkBatch b = s.bulk().apply(admin, p, "refund", "console", BulkProgress.NONE, () -> false);
        assertThat(b.counts().applied()).isEqualTo(2);
        assertThat(b.override()).isTrue();
        assertThat(s.orders().lookup("o-0001").summary().redisStatus()).isEqualTo(OrderStatus.CANCELLED);
    }

    @Test
    void badInputGetsAClearErrorAndChangesNothing() throws Exception {
        orders("b-", 3, OrderStatus.PAID);
        BulkPreview p = s.bulk().preview(BulkScope.of(status(OrderStatus.PAID)), OrderStatus.WAIT_SHIP, false, BulkProgress.NONE, () -> false);
        assertThatThrownBy(() -> s.bulk().apply(support, p, "   ", "console", BulkProgress.NONE, () -> false))
                .hasMessage("a bulk transition needs a reason: it is written to every order's history");
        assertThatThrownBy(() -> s.bulk().apply(support, p, "a\nb", "console", BulkProgress.NONE, () -> false))
                .hasMessageContaining("control character");
        assertThatThrownBy(() -> s.bulk().apply(support, p, "x".repeat(BulkService.MAX_REASON + 1), "console", BulkProgress.NONE, () -> false))
                .hasMessageContaining("at most " + BulkService.MAX_REASON);
        assertThatThrownBy(() -> s.bulk().apply(new Operator("rita", Role.READ_ONLY), p, "why", "console", BulkProgress.NONE, () -> false))
                .isInstanceOf(PermissionDeniedException.class);
        assertThatThrownBy(() -> BulkScope.of(List.of("ok-1", "bad id"))).hasMessageContaining("'bad id' is invalid");

        BulkService capped = s.bulk().withMaxOrders(2);
        assertThatThrownBy(() -> capped.preview(BulkScope.of(status(OrderStatus.PAID)), OrderStatus.WAIT_SHIP, false, BulkProgress.NONE, () -> false))
                .isInstanceOf(BulkTooLargeException.class)
                .hasMessage("the chosen orders are more than 2, the most one batch may move: narrow the filter (e.g. by creation date or id prefix) "
                        + "and run several batches");

        assertThat(rows("bulk_batch")).isZero();
        assertThat(s.follower().catchUp(Duration.ofSeconds(20)).caughtUp()).isTrue();
        assertThat(RawSql.count("SELECT COUNT(*) FROM orders WHERE status = 2")).isEqualTo(3);
        assertThat(RawSql.count("SELECT COUNT(*) FROM order_history WHERE source = 'bulk'")).isZero();
    }

    @Test
    void aRunningBatchBeatsAndOneWhoseHeartbeatIsOlderThanTheLeaseReadsAbandoned() throws Exception {
        int n = BulkService.CHUNK * 2 + 100;
        orders("h-", n);
        BulkPreview p = s.bulk().preview(BulkScope.of(status(OrderStatus.WAIT_PAY)), OrderStatus.PAID, false, BulkProgress.NONE, () -> false);
        List<BulkBatch> seenWhileRunning = new java.util.ArrayList<>();
        List<Long> beats = new java.util.ArrayList<>();
        BulkBatch done = s.bulk().apply(support, p, "paid offline", "console", (d, t, c) -> {
            long id = RawSql.count("SELECT MAX(id) FROM bulk_batch");
            seenWhileRunning.add(s.bulk().batch(id));
            beats.add(RawSql.count("SELECT heartbeat_ms FROM bulk_batch WHERE id = " + id));
            // As if the process had stalled: the next chunk's commit must renew the heartbeat.
            RawSql.update("UPDATE bulk_batch SET heartbeat_ms = 1 WHERE id = " + id);
        }, () -> false);
        assertThat(seenWhileRunning).extracting(BulkBatch::state).containsOnly(BulkBatch.State.RUNNING);
        assertThat(beats).hasSize(3);
        assertThat(beats).allMatch(ms -> ms > 1, "renewed after every chunk");

        // The process died mid-batch: the row still says RUNNING, its heartbeat 10 s old.
        RawSql.update("UPDATE bulk_batch SET state = 'RUNNING', finished_at_ms = NULL, heartbeat_ms = UNIX_TIMESTAMP() * 1000 - 10000 "
                + "WHERE id = " + done.id());
        assertThat(s.bulk().batch(done.id()).state()).as("within the default 30 s lease").isEqualTo(BulkBatch.State.RUNNING);
        BulkService shortLease = s.bulk().withLease(Duration.ofSeconds(5));
        assertThat(shortLease.batch(done.id()).state()).isEqualTo(BulkBatch.State.ABANDONED);
        assertThat(shortLease.batch(done.id()).closable()).isTrue();
        RawSql.update("UPDATE bulk_batch SET heartbeat_ms = UNIX_TIMESTAMP() * 1000 - 60000 WHERE id = " + done.id());
        assertThat(s.bulk().batches(null, 10)).extracting(BulkBatch::state).containsExactly(BulkBatch.State.ABANDONED);
    }

    @Test
    void aBatchClosedAsAbandonedWhileItsProcessStillRunsStopsAndTakesNoMoreItems() throws Exception {
        int n = BulkService.CHUNK * 2;
        orders("z-", n);
        BulkPreview p = s.bulk().preview(BulkScope.of(status(OrderStatus.WAIT_PAY)), OrderStatus.PAID, false, BulkProgress.NONE, () -> false);
        // Someone closed it after the first chunk, as if its heartbeat had stopped.
        assertThatThrownBy(() -> s.bulk().apply(support, p, "paid offline", "console",
                (d, t, c) -> RawSql.update("UPDATE bulk_batch SET state = 'ABANDONED', finished_at_ms = 1"), () -> false))
                .isInstanceOf(IllegalStateException.class).hasMessageContaining("was closed as abandoned while this process still ran it");
        assertThat(rows("bulk_item")).isEqualTo(BulkService.CHUNK);
        assertThat(RawSql.column("SELECT state FROM bulk_batch")).containsExactly("ABANDONED");
    }

    @Test
    void closingAnAbandonedBatchAccountsForEveryOrderTellingTheChunkInFlightApartByItsHistory() throws Exception {
        Operator ops = new Operator("olga", Role.OPS);
        int n = BulkService.CHUNK * 2 + 100;
        orders("a-", n);
        BulkPreview p = s.bulk().preview(BulkScope.of(status(OrderStatus.WAIT_PAY)), OrderStatus.PAID, false, BulkProgress.NONE, () -> false);
        AtomicBoolean stop = new AtomicBoolean();
        long id = s.bulk().apply(support, p, "paid offline", "console", (d, t, c) -> stop.set(true), stop::get).id();
        // The process died during the second chunk: six of its calls reached Redis, one of them after the order had moved by hand.
        RawSql.update("UPDATE bulk_batch SET state = 'RUNNING', finished_at_ms = NULL, heartbeat_ms = 1 WHERE id = " + id);
        List<String> chunk2 = RawSql.column("SELECT order_id FROM bulk_plan WHERE batch_id = " + id + " AND seq >= " + BulkService.CHUNK
                + " ORDER BY seq LIMIT 6");
        for (String o : chunk2.subList(0, 5)) {
            s.transitions().transition(support, new TransitionRequest(o, OrderStatus.PAID, 1L, "bulk", "bulk #" + id + ": paid offline", false));
        }
        String movedByHand = chunk2.get(5);
        s.transitions().transition(setup, TransitionRequest.of(movedByHand, OrderStatus.CANCELLED, "console", "customer asked"));
        s.transitions().transition(support, new TransitionRequest(movedByHand, OrderStatus.PAID, 1L, "bulk", "bulk #" + id + ": paid offline", false));
        assertThat(s.bulk().batch(id).closable()).isTrue();

        assertThatThrownBy(() -> s.bulk().close(support, id, "cli")).isInstanceOf(PermissionDeniedException.class);
        BulkBatch closed = s.bulk().close(ops, id, "cli");

        assertThat(closed.state()).isEqualTo(BulkBatch.State.ABANDONED);
        assertThat(closed.finishedAtMs()).isNotNull();
        assertThat(closed.closable()).isFalse();
        assertThat(closed.counts()).isEqualTo(new BulkCounts(BulkService.CHUNK + 5, 0, 1, 0));
        assertThat(rows("bulk_item")).as("every planned order has an item").isEqualTo(n);
        assertThat(s.bulk().items(id, BulkItem.Outcome.APPLIED, null, 1000)).hasSize(BulkService.CHUNK + 5)
                .extracting(BulkItem::orderId).containsAll(chunk2.subList(0, 5));
        BulkItem first = s.bulk().items(id, BulkItem.Outcome.APPLIED, null, 1000).stream().filter(i -> i.orderId().equals(chunk2.get(0)))
                .findFirst().orElseThrow();
        assertThat(first.version()).isEqualTo(2);
        assertThat(first.error()).isEqualTo("batch abandoned while this order's chunk was in flight: outcome read from its history row");
        BulkItem conflict = s.bulk().items(id, BulkItem.Outcome.CONFLICT, null, 10).get(0);
        assertThat(conflict.orderId()).isEqualTo(movedByHand);
        assertThat(conflict.code()).isEqualTo(ResultCode.VERSION_CONFLICT);
        List<BulkItem> notRun = s.bulk().items(id, BulkItem.Outcome.NOT_RUN, null, 1000);
        assertThat(notRun).hasSize(n - BulkService.CHUNK - 6);
        assertThat(notRun).extracting(BulkItem::error).filteredOn(e -> e.contains("in flight")).hasSize(BulkService.CHUNK - 6)
                .allMatch(e -> e.contains("no history row of bulk #" + id));
        assertThat(notRun).extracting(BulkItem::error).filteredOn(e -> e.endsWith("never attempted")).hasSize(100);
        assertThat(closed.notRun()).isEqualTo(n - BulkService.CHUNK - 6);
        assertThat(RawSql.count("SELECT COUNT(*) FROM audit_log WHERE action = 'BULK_CLOSE' AND actor = 'olga'")).isEqualTo(1);

        assertThatThrownBy(() -> s.bulk().close(ops, id, "cli")).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("is abandoned and finished");
        assertThat(rows("bulk_item")).isEqualTo(n);
    }
}
