package com.orderconsole.service.bulk;

import com.orderconsole.domain.Failures;
import com.orderconsole.domain.Operator;
import com.orderconsole.domain.ResultCode;
import com.orderconsole.domain.TransitionRequest;
import com.orderconsole.domain.TransitionResult;
import com.orderconsole.redis.RedisConnection;
import com.orderconsole.service.Access;
import com.orderconsole.service.DaemonScheduler;
import com.orderconsole.service.transition.TransitionService;
import com.orderconsole.store.BulkBatchRow;
import com.orderconsole.store.BulkItemRow;
import com.orderconsole.store.BulkPlanRow;
import com.orderconsole.store.Database;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.BooleanSupplier;

/**
 * Runs a previewed batch: records it with its plan, moves its orders {@link BulkService#CHUNK} at a time through the
 * transition script (compare-and-set on the seen versions), commits each chunk's results with the batch's counts, and
 * keeps the batch's heartbeat going on a thread of its own. Split from {@link BulkService} because it is the only part
 * that writes orders and owns a thread; previews, closes and reports only read or write the record.
 */
final class BulkRunner {
    private static final Logger log = LoggerFactory.getLogger(BulkRunner.class);
    /** How long one chunk may wait for Redis' answers, seconds. */
    private static final long CHUNK_WAIT_S = 60;
    /** How often the process running a batch renews its heartbeat, seconds; a thread of its own, so a chunk waiting on Redis still beats. */
    static final long HEARTBEAT_S = 5;

    private final RedisConnection clock;
    private final Database db;
    private final TransitionService transitions;
    private final Access access;
    private final BulkRecords records;

    BulkRunner(RedisConnection clock, Database db, TransitionService transitions, Access access, BulkRecords records) {
        this.clock = clock;
        this.db = db;
        this.transitions = transitions;
        this.access = access;
        this.records = records;
    }

    /** See {@link BulkService#check}. */
    String check(Operator operator, BulkPreview preview, String reason) {
        return BulkRequest.check(operator, preview, reason);
    }

    /** See {@link BulkService#apply}. */
    BulkBatch apply(Operator operator, BulkPreview preview, String reason, String source, BulkProgress progress,
                           BooleanSupplier cancelled) {
        String why = check(operator, preview, reason);
        // Every order would be rejected (or none matched): running it would only write rejection rows and trip the
        // rejection-rate alert.
        BulkRequest.requireSomethingToMove(preview);
        BulkBatchRow batch = new BulkBatchRow();
        batch.actor = operator.name();
        batch.source = source;
        batch.startedAtMs = clock.nowMs();
        batch.scope = preview.scope().describe();
        batch.target = preview.target().code();
        batch.overrideRules = preview.override();
        batch.reason = why;
        batch.matched = preview.matched();
        batch.state = BulkBatch.State.RUNNING.name();
        BulkPreview.Seen seen = preview.seen();
        // The plan goes with the batch: should this process die, closing the batch still knows every order it set out to move.
        db.inTransaction(t -> {
            t.bulk().insertBatch(batch);
            List<BulkPlanRow> plan = new ArrayList<>(seen.size());
            for (int i = 0; i < seen.size(); i++) {
                BulkPlanRow p = new BulkPlanRow();
                p.batchId = batch.id;
                p.seq = i;
                p.orderId = seen.id(i);
                p.seenStatus = seen.status(i).code();
                p.seenVersion = seen.version(i);
                plan.add(p);
            }
            t.bulk().insertPlan(plan);
            return null;
        });
        String historyReason = "bulk #" + batch.id + ": " + why;
        log.info("bulk #{} started by {}: {} orders to {}{} ({})", batch.id, operator.name(), preview.matched(), preview.target(),
                preview.override() ? " (override)" : "", batch.scope);
        AtomicBoolean closedMeanwhile = new AtomicBoolean();
        ScheduledExecutorService heart = DaemonScheduler.create("bulk-heartbeat-" + batch.id);
        heart.scheduleWithFixedDelay(() -> beat(batch.id, closedMeanwhile), HEARTBEAT_S, HEARTBEAT_S, TimeUnit.SECONDS);
        try {
            return run(operator, preview, batch, historyReason, progress, cancelled, closedMeanwhile);
        } finally {
            heart.shutdownNow();
        }
    }

    private void beat(long batchId, AtomicBoolean closedMeanwhile) {
        try {
            if (!db.inTransaction(t -> t.bulk().beat(batchId))) {
                closedMeanwhile.set(true);
            }
        } catch (RuntimeException e) {
            // MySQL not answering: the next beat tries again; six misses in a row and the batch reads abandoned.
            log.warn("bulk #{}: heartbeat not written: {}", batchId, e.getMessage());
        }
    }

    private BulkBatch run(Operator operator, BulkPreview preview, BulkBatchRow batch, String historyReason, BulkProgress progress,
                          BooleanSupplier cancelled, AtomicBoolean closedMeanwhile) {
        BulkPreview.Seen seen = preview.seen();
        int[] counts = new int[4];
        BulkBatch.State end = BulkBatch.State.DONE;
        for (int from = 0; from < seen.size(); from += BulkService.CHUNK) {
            if (closedMeanwhile.get()) {
                throw closedUnderneath(batch.id);
            }
            if (cancelled.getAsBoolean()) {
                end = BulkBatch.State.CANCELLED;
                break;
            }
            int to = Math.min(seen.size(), from + BulkService.CHUNK);
            List<BulkItemRow> items = runChunk(operator, preview, seen, from, to, batch.id, historyReason);
            boolean redisDown = false;
            for (BulkItemRow i : items) {
                counts[BulkItem.Outcome.valueOf(i.outcome).ordinal()]++;
                redisDown |= i.outcome.equals(BulkItem.Outcome.FAILED.name());
            }
            setCounts(batch, counts);
            if (redisDown) {
                batch.state = BulkBatch.State.FAILED.name();
                batch.finishedAtMs = nowOrLocal();
            }
            // The batch row first: it is locked until commit, and a batch closed as abandoned meanwhile takes no more items.
            boolean stillRunning = db.inTransaction(t -> {
                if (!t.bulk().updateBatch(batch)) {
                    return false;
                }
                t.bulk().insertItems(items);
                return true;
            });
            if (!stillRunning) {
                throw closedUnderneath(batch.id);
            }
            progress.report(to, seen.size(), countsOf(counts));
            if (redisDown) {
                end = BulkBatch.State.FAILED;
                break;
            }
        }
        // A chunk that found Redis down wrote FAILED with its results already.
        if (end != BulkBatch.State.FAILED) {
            batch.state = end.name();
            batch.finishedAtMs = nowOrLocal();
            if (!db.inTransaction(t -> t.bulk().updateBatch(batch))) {
                throw closedUnderneath(batch.id);
            }
        }
        log.info("bulk #{} {}: {} applied, {} rejected, {} conflicts, {} failed, {} not run", batch.id, end, counts[0], counts[1],
                counts[2], counts[3], preview.matched() - counts[0] - counts[1] - counts[2] - counts[3]);
        return records.batch(batch.id);
    }

    private static IllegalStateException closedUnderneath(long batchId) {
        return new IllegalStateException("bulk #" + batchId + " was closed as abandoned while this process still ran it "
                + "(its heartbeat had stopped for longer than the lease): stopped; the chunk in flight may have moved orders "
                + "its record does not show, see their history (reason 'bulk #" + batchId + ": ...')");
    }

    private long nowOrLocal() {
        try {
            return clock.nowMs();
        } catch (RuntimeException e) {
            return System.currentTimeMillis(); // Redis down: the record still gets an end time
        }
    }

    private List<BulkItemRow> runChunk(Operator operator, BulkPreview p, BulkPreview.Seen seen, int from, int to, long batchId,
                                       String reason) {
        List<CompletableFuture<TransitionResult>> calls = new ArrayList<>(to - from);
        for (int i = from; i < to; i++) {
            TransitionRequest req = new TransitionRequest(seen.id(i), p.target(), seen.version(i), BulkService.SOURCE, reason, p.override());
            CompletableFuture<TransitionResult> f;
            try {
                f = transitions.transitionAsync(operator, req);
            } catch (RuntimeException e) {
                f = CompletableFuture.failedFuture(e);
            }
            calls.add(f);
        }
        List<BulkItemRow> items = new ArrayList<>(calls.size());
        long fallbackNow = System.currentTimeMillis();
        // One deadline for the whole chunk: a Redis that stopped answering costs 60 s, not 60 s per order.
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(CHUNK_WAIT_S);
        for (int i = from; i < to; i++) {
            BulkItemRow row = new BulkItemRow();
            row.batchId = batchId;
            row.orderId = seen.id(i);
            row.seenStatus = seen.status(i).code();
            row.seenVersion = seen.version(i);
            row.error = "";
            try {
                TransitionResult r = calls.get(i - from).get(Math.max(0, deadline - System.nanoTime()), TimeUnit.NANOSECONDS);
                row.resultCode = r.code().code();
                row.version = r.version();
                row.atMs = r.timeMs();
                row.outcome = r.applied() ? BulkItem.Outcome.APPLIED.name()
                        : r.code() == ResultCode.VERSION_CONFLICT ? BulkItem.Outcome.CONFLICT.name() : BulkItem.Outcome.REJECTED.name();
            } catch (Exception e) {
                Throwable cause = Failures.unwrap(e);
                row.outcome = BulkItem.Outcome.FAILED.name();
                row.version = seen.version(i);
                row.atMs = fallbackNow;
                // The service's RedisUnavailableException already says the move may have been applied; the chunk's own
                // deadline does not.
                String msg = cause instanceof java.util.concurrent.TimeoutException
                        ? "no answer from Redis within " + CHUNK_WAIT_S + " s; the transition may still have been applied"
                        : String.valueOf(cause.getMessage());
                row.error = msg.length() > 300 ? msg.substring(0, 300) : msg;
                if (e instanceof InterruptedException) {
                    Thread.currentThread().interrupt();
                }
            }
            items.add(row);
        }
        return items;
    }

    private static void setCounts(BulkBatchRow b, int[] c) {
        b.applied = c[0];
        b.rejected = c[1];
        b.conflicts = c[2];
        b.failed = c[3];
    }

    private static BulkCounts countsOf(int[] c) {
        return new BulkCounts(c[0], c[1], c[2], c[3]);
    }
}
