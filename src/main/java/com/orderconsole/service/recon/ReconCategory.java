package com.orderconsole.service.recon;

/** Kinds of disagreement between Redis and MySQL that reconciliation finds, each with its repair. */
public enum ReconCategory {
    /** MySQL has the order, Redis has no state. Repair: rebuild the Redis state from MySQL. */
    MISSING_IN_REDIS("Missing in Redis"),
    /**
     * An order hash in Redis whose fields are not well-formed (e.g. status 7). Repair: restore it from
     * MySQL, the durable record, and close its dead letter; without a MySQL row it is left to the dead-letter list.
     */
    MALFORMED_IN_REDIS("Malformed Redis record"),
    /**
     * Redis has state for an order MySQL does not know. Repair (admin, with a reason): insert the MySQL
     * row from the Redis state with a history row that says so; no transition explains it otherwise.
     */
    MISSING_IN_MYSQL("Missing in MySQL"),
    /**
     * MySQL holds a newer state than Redis (Redis restored from an older copy), or Redis is ahead while
     * the follower could not catch up to check it. Repair: let the follower catch up, then Redis follows
     * MySQL, the durable record.
     */
    STATE_MISMATCH("Status/version disagree"),
    /**
     * Redis holds a state that no recorded transition explains: ahead of MySQL by versions MySQL's history
     * does not have once the follower caught up, or the same version with another status. Repair: restore
     * Redis from MySQL (copying it the other way is an admin override on the order, with a reason).
     */
    REDIS_UNEXPLAINED("Redis state with no record"),
    /** Redis says WAIT_PAY but the order has no cancel-queue entry. Repair: queue it with its MySQL expiry. */
    WAIT_PAY_WITHOUT_QUEUE("WAIT_PAY without queue entry"),
    /** A queue entry whose order is not WAIT_PAY (or has no state). Repair: remove the entry. */
    QUEUE_ENTRY_NOT_WAIT_PAY("Queue entry for order not in WAIT_PAY"),
    /**
     * The live per-status counters of a bucket differ from the orders Redis holds. Repair: count the orders
     * again and overwrite the counters (under live traffic a few moves may land between count and write).
     */
    COUNTERS_DRIFT("Live counters disagree"),
    /** Transitions accepted by Redis not yet written to MySQL. Repair: run the MySQL follower now. */
    SYNC_PENDING("MySQL sync pending");

    private final String label;

    ReconCategory(String label) {
        this.label = label;
    }

    /** @return the category in words */
    public String label() {
        return label;
    }
}
