package com.orderconsole.store;

/** One row of {@code bulk_item}: what a bulk transition did to one order. Times are epoch milliseconds. */
public class BulkItemRow {
    public long batchId;
    public String orderId;
    /** Status code the preview saw. */
    public int seenStatus;
    /** Version the preview saw; the transition was compare-and-set against it. */
    public long seenVersion;
    /** APPLIED, REJECTED, CONFLICT, FAILED or NOT_RUN (written when an abandoned batch is closed). */
    public String outcome;
    /** The transition script's result code; null when the call failed before an answer. */
    public Integer resultCode;
    /** The order's version after the call (unchanged when rejected). */
    public long version;
    public long atMs;
    public String error;
}
