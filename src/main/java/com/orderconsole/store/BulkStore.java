package com.orderconsole.store;

import java.util.List;

/**
 * The bulk transition record: {@code bulk_batch} (one row per batch, its counts and state updated as it runs)
 * and {@code bulk_item} (one row per order handled, append-only).
 */
public final class BulkStore {
    private final BulkMapper m;

    BulkStore(BulkMapper m) {
        this.m = m;
    }

    /** Inserts a batch; sets {@code row.id}. */
    public void insertBatch(BulkBatchRow row) {
        m.insertBatch(row);
    }

    /**
     * Writes a batch's counts, state and finish time (epoch ms, null while running) and renews its heartbeat,
     * unless the stored batch is no longer RUNNING (an ops user closed it as abandoned).
     *
     * @return false when the stored batch was no longer RUNNING and nothing was written
     */
    public boolean updateBatch(BulkBatchRow row) {
        return m.updateBatch(row) == 1;
    }

    /**
     * Renews a RUNNING batch's heartbeat to the MySQL server's clock.
     *
     * @return false when the batch is no longer RUNNING (closed as abandoned meanwhile)
     */
    public boolean beat(long id) {
        return m.beat(id) == 1;
    }

    /** Appends item rows (one per order handled). */
    public void insertItems(List<BulkItemRow> rows) {
        if (!rows.isEmpty()) {
            m.insertItems(rows);
        }
    }

    /** @return the batch, or null */
    public BulkBatchRow findBatch(long id) {
        return m.findBatch(id);
    }

    /** @return batches newest first, with ids below {@code beforeId} (null for the newest) */
    public List<BulkBatchRow> batches(Long beforeId, int limit) {
        return m.batches(beforeId, limit);
    }

    /** @return a batch's items in order id order after {@code afterOrderId} (null for the first); outcome null for all */
    public List<BulkItemRow> items(long batchId, String outcome, String afterOrderId, int limit) {
        return m.items(batchId, outcome, afterOrderId, limit);
    }
}
