package com.orderconsole.service.bulk;

import com.orderconsole.domain.OrderStatus;
import com.orderconsole.domain.ResultCode;
import com.orderconsole.store.BulkBatchRow;
import com.orderconsole.store.BulkItemRow;
import com.orderconsole.store.Database;

import java.io.IOException;
import java.io.OutputStream;
import java.io.Writer;
import java.util.List;

/**
 * Reads the record of past batches (the batch list, one batch, its per-order results in pages) and exports a batch
 * as CSV or JSON. Split from {@link BulkService} because it is read-only and serves every other part: the runner and
 * the closer answer with the batch as recorded, and the console and CLI page through it.
 */
final class BulkRecords {
    private final Database db;
    private final long leaseMs;

    BulkRecords(Database db, long leaseMs) {
        this.db = db;
        this.leaseMs = leaseMs;
    }

    /** See {@link BulkService#batches}. */
    List<BulkBatch> batches(Long beforeId, int limit) {
        requireLimit(limit);
        return db.read(t -> t.bulk().batches(beforeId, limit)).stream().map(this::toBatch).toList();
    }

    /** See {@link BulkService#batch}. */
    BulkBatch batch(long id) {
        BulkBatchRow row = db.read(t -> t.bulk().findBatch(id));
        if (row == null) {
            throw new IllegalArgumentException("no bulk batch #" + id);
        }
        return toBatch(row);
    }

    /** See {@link BulkService#items}. */
    List<BulkItem> items(long batchId, BulkItem.Outcome outcome, String afterOrderId, int limit) {
        requireLimit(limit);
        return db.read(t -> t.bulk().items(batchId, outcome == null ? null : outcome.name(), afterOrderId, limit)).stream()
                .map(BulkRecords::toItem).toList();
    }

    private static void requireLimit(int limit) {
        if (limit < 1 || limit > 1000) {
            throw new IllegalArgumentException("page size must be 1..1000, got " + limit);
        }
    }

    /** See {@link BulkService#exportCsv}. */
    long exportCsv(long batchId, Writer out) throws IOException {
        batch(batchId);
        return BulkExport.csv(after -> items(batchId, null, after, BulkExport.PAGE), out);
    }

    /** See {@link BulkService#exportJson}. */
    long exportJson(long batchId, OutputStream out) throws IOException {
        return BulkExport.json(batch(batchId), after -> items(batchId, null, after, BulkExport.PAGE), out);
    }

    /** The row as a batch; a RUNNING row whose heartbeat is older than the lease (by MySQL's clock, as read) is ABANDONED. */
    private BulkBatch toBatch(BulkBatchRow r) {
        BulkBatch.State state = BulkBatch.State.valueOf(r.state);
        if (state == BulkBatch.State.RUNNING && r.readAtMs - r.heartbeatMs > leaseMs) {
            state = BulkBatch.State.ABANDONED;
        }
        return new BulkBatch(r.id, r.actor, r.source, r.startedAtMs, r.finishedAtMs, r.scope, OrderStatus.ofCode(r.target),
                r.overrideRules, r.reason, r.matched, new BulkCounts(r.applied, r.rejected, r.conflicts, r.failed), state, r.heartbeatMs);
    }

    private static BulkItem toItem(BulkItemRow r) {
        return new BulkItem(r.batchId, r.orderId, OrderStatus.ofCode(r.seenStatus), r.seenVersion, BulkItem.Outcome.valueOf(r.outcome),
                r.resultCode == null ? null : ResultCode.ofCode(r.resultCode), r.version, r.atMs, r.error);
    }
}
