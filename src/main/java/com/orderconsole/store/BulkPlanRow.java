package com.orderconsole.store;

/** One row of {@code bulk_plan}: an order a bulk batch set out to move, at its position in the batch. */
public class BulkPlanRow {
    public long batchId;
    /** 0-based position in the batch. */
    public int seq;
    public String orderId;
    /** Status code the preview saw. */
    public int seenStatus;
    /** Version the preview saw (the compare-and-set value). */
    public long seenVersion;
}
