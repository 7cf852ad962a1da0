package com.orderconsole.service.bulk;

/**
 * Outcomes of a bulk transition so far.
 *
 * @param applied orders moved to the target
 * @param rejected orders the script rejected (not a legal move, terminal, already there...)
 * @param conflicts orders that changed after the preview (compare-and-set failed, code -3): left as they were
 * @param failed calls that got no answer (e.g. Redis down); such a transition may still have been applied
 */
public record BulkCounts(int applied, int rejected, int conflicts, int failed) {
    /** No outcomes yet. */
    public static final BulkCounts ZERO = new BulkCounts(0, 0, 0, 0);

    /** @return orders handled */
    public int handled() {
        return applied + rejected + conflicts + failed;
    }
}
