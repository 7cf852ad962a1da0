package com.orderconsole.store;

import java.util.List;

/**
 * The bulk transition record: {@code bulk_batch} (one row per batch, its counts and state updated as it runs),
 * {@code bulk_plan} (every order a batch set out to move, append-only) and {@code bulk_item} (one row per order
 * handled, append-only).
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

    /** Appends a batch's plan, 1,000 rows a statement. */
    public void insertPlan(List<BulkPlanRow> rows) {
        for (int from = 0; from < rows.size(); from += 1000) {
            m.insertPlan(rows.subList(from, Math.min(rows.size(), from + 1000)));
        }
    }

    /**
     * Marks an abandoned batch closed with its final counts and finish time (epoch ms), if it is still RUNNING with
     * a heartbeat older than {@code leaseMs} by the MySQL server's clock; the row stays locked until commit.
     *
     * @return false when it beat again or was closed meanwhile, and nothing was written
     */
    public boolean closeAbandoned(BulkBatchRow row, long leaseMs) {
        return m.closeAbandoned(row, leaseMs) == 1;
    }

    /** @return a batch's planned orders that have no item row yet, by position */
    public List<BulkPlanRow> unrecorded(long batchId) {
        return m.unrecorded(batchId);
    }

    /** @return history rows of these orders (at most 1,000) with source bulk and a reason starting with {@code reasonPrefix} */
    public List<HistoryRow> historyOf(List<String> orderIds, String reasonPrefix) {
        return orderIds.isEmpty() ? List.of() : m.historyOf(orderIds, reasonPrefix);
    }

    /** Appends item rows (one per order handled). */
    public void insertItems(List<BulkItemRow> rows) {
        for (int from = 0; from < rows.size(); from += 1000) {
            m.insertItems(rows.subList(from, Math.min(rows.size(), from + 1000)));
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
