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
 * @param state running, done, cancelled, failed or abandoned
 * @param heartbeatMs last heartbeat of the process running it, epoch ms by the MySQL server's clock (whole seconds)
 */
public record BulkBatch(long id, String actor, String source, long startedAtMs, Long finishedAtMs, String scope,
                        OrderStatus target, boolean override, String reason, int matched, BulkCounts counts, State state,
                        long heartbeatMs) {

    /** Orders not handled (cancelled, failed or still running). */
    public int notRun() {
        return Math.max(0, matched - counts.handled());
    }

    /** @return true for an abandoned batch no one has closed yet (see {@link BulkService#close}) */
    public boolean closable() {
        return state == State.ABANDONED && finishedAtMs == null;
    }

    /**
     * Where a batch stands. ABANDONED: recorded RUNNING but its heartbeat is older than the lease, so the process
     * running it died ({@code finishedAtMs} null), or an ops user closed it since ({@code finishedAtMs} set).
     */
    public enum State {
        RUNNING, DONE, CANCELLED, FAILED, ABANDONED
    }
}
