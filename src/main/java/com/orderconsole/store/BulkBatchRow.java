package com.orderconsole.store;

/** One row of {@code bulk_batch}: a bulk transition, its scope and its counts. Times are epoch milliseconds. */
public class BulkBatchRow {
    public long id;
    public String actor;
    public String source;
    public long startedAtMs;
    public Long finishedAtMs;
    public String scope;
    public int target;
    public boolean overrideRules;
    public String reason;
    public int matched;
    public int applied;
    public int rejected;
    public int conflicts;
    public int failed;
    /** RUNNING, DONE, CANCELLED, FAILED or ABANDONED (closed by ops after its process died). */
    public String state;
    /** Last heartbeat of the process running it, epoch ms by the MySQL server's clock (whole seconds); 0 if none. */
    public long heartbeatMs;
    /** The MySQL server's clock when the row was read, epoch ms (whole seconds); not a column. */
    public long readAtMs;
}
