package com.orderconsole.service.bulk;

import com.orderconsole.domain.OrderStatus;

/**
 * One bulk transition as recorded in MySQL.
 *
 * @param id batch id (also in the reason of each history row it wrote: "bulk #id: ...")
 * @param actor who ran it
 * @param source console or cli
 * @param startedAtMs start, epoch ms (Redis clock)
 * @param finishedAtMs end, epoch ms, null while running (or when its process died)
 * @param scope the orders chosen, in words
 * @param target the target status
 * @param override true when the rules were not consulted (admin)
 * @param reason the operator's reason for the whole batch
 * @param matched orders the preview matched
 * @param counts outcomes so far
 * @param state running, done, cancelled or failed
 */
public record BulkBatch(long id, String actor, String source, long startedAtMs, Long finishedAtMs, String scope,
                        OrderStatus target, boolean override, String reason, int matched, BulkCounts counts, State state) {

    /** Orders not handled (cancelled, failed or still running). */
    public int notRun() {
        return Math.max(0, matched - counts.handled());
    }

    /** Where a batch stands. */
    public enum State {
        RUNNING, DONE, CANCELLED, FAILED
    }
}
