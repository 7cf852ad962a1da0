package com.orderconsole.service.follower;

/**
 * How far MySQL lags Redis.
 *
 * @param pending outbox entries not yet applied to MySQL
 * @param pendingCapped true when the count is an upper bound (over 1,000 applied entries not yet trimmed)
 * @param oldestPendingAgeMs age of the oldest unapplied entry in milliseconds, or null when none
 * @param appliedTotal entries this process applied since start
 * @param lastError the last failure of the follower in words, or null when the last run succeeded
 * @param backlogWarning the backlog past its configured size or age, in words with the figure, or null
 */
public record FollowerStatus(long pending, boolean pendingCapped, Long oldestPendingAgeMs, long appliedTotal, String lastError,
                             String backlogWarning) {
    /** A status without a backlog warning. */
    public FollowerStatus(long pending, boolean pendingCapped, Long oldestPendingAgeMs, long appliedTotal, String lastError) {
        this(pending, pendingCapped, oldestPendingAgeMs, appliedTotal, lastError, null);
    }
}
