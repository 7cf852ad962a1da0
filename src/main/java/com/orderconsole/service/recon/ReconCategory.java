package com.orderconsole.service.recon;

/** Kinds of disagreement between Redis and MySQL that reconciliation finds, each with its repair. */
public enum ReconCategory {
    /** MySQL has the order, Redis has no state. Repair: rebuild the Redis state from MySQL. */
    MISSING_IN_REDIS("Missing in Redis"),
    /** Redis has state for an order MySQL does not know. Repair: insert the MySQL row from the Redis state. */
    MISSING_IN_MYSQL("Missing in MySQL"),
    /**
     * Status or version differ. Repair: apply pending sync first; then copy the side with the higher
     * version onto the other (Redis ahead: update MySQL with the version guard; MySQL ahead: rebuild Redis).
     */
    STATE_MISMATCH("Status/version disagree"),
    /** Redis says WAIT_PAY but the order has no cancel-queue entry. Repair: queue it with its MySQL expiry. */
    WAIT_PAY_WITHOUT_QUEUE("WAIT_PAY without queue entry"),
    /** A queue entry whose order is not WAIT_PAY (or has no state). Repair: remove the entry. */
    QUEUE_ENTRY_NOT_WAIT_PAY("Queue entry for order not in WAIT_PAY"),
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
