package com.orderconsole.service.recon;

/**
 * The kinds of a finding's detail, so a front end can word it in the user's language (the bundles hold
 * {@code recon.detail.NAME}, taking {@link ReconFinding#detailArgs()} as values); {@link ReconFinding#detail()}
 * keeps the English words for CSV, JSON and logs.
 */
public enum FindingDetail {
    /** No key: the one value is the English detail itself (e.g. a malformed record's description). */
    PLAIN,
    NO_REDIS_STATE,
    /** Values: versions MySQL is ahead by. */
    MYSQL_AHEAD,
    /** Values: the version, MySQL's status. */
    SAME_VERSION,
    NO_QUEUE_ENTRY,
    /** Values: who removed the entry, when (UTC, in words), the audit row's id, the reason given. */
    REMOVED_ON_PURPOSE,
    NO_MYSQL_ROW,
    /** Values: the malformed record's description. */
    MALFORMED_NO_ROW,
    QUEUE_NO_STATE,
    /** Values: what is wrong with the order's Redis record. */
    QUEUE_MALFORMED,
    /** Values: the order's status. */
    QUEUE_ORDER_IS,
    /** Values: changes waiting (text, "+" when capped), age of the oldest in milliseconds. */
    SYNC_PENDING,
    /** Values: versions Redis is ahead by. */
    REDIS_AHEAD,
    /** Values: versions Redis is ahead by, the outbox read cap. */
    REDIS_AHEAD_UNCHECKED,
    /** Values: versions Redis is ahead by. */
    UNEXPLAINED,
    /** Values: versions Redis is ahead by, the status MySQL's history has, that version. */
    UNEXPLAINED_HISTORY,
    /** Values: the bucket, the drift in words. */
    DRIFT
}
