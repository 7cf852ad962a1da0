package com.orderconsole.service.metrics;

/**
 * An incident raised or cleared by {@link Alerts}: each kind is raised once when its figure crosses the
 * threshold and cleared once when it is back under it.
 *
 * @param kind what crossed its threshold
 * @param raised true when the incident begins, false when it clears
 * @param value the figure now: seconds for the ages, a share 0..1 for the rejection rate
 * @param threshold the threshold, in the same unit
 * @param atMs when (Redis server time, epoch ms)
 */
public record Alert(Kind kind, boolean raised, double value, double threshold, long atMs) {
    /** The watched figures. */
    public enum Kind {
        /** The oldest outbox entry not yet in MySQL is older than the threshold (seconds). */
        SYNC_LAG,
        /** An unpaid order's payment deadline passed longer ago than the threshold and it is still queued (seconds). */
        OLDEST_OVERDUE,
        /** More than the threshold's share of the last minute's transition attempts were rejected (0..1). */
        REJECTION_RATE,
        /** No cancel sweeper ticked for longer than the threshold while sweeping is not paused (seconds). */
        SWEEPER_STALLED
    }
}
