package com.orderconsole.service.queue;

import com.orderconsole.domain.Operator;
import com.orderconsole.domain.TransitionResult;

import java.time.Duration;
import java.util.Optional;

/**
 * The cancel queue (delay queue of unpaid orders) and its sweepers: reads, the guarded actions on single entries, and
 * pausing every sweeper. Implemented in-process by {@link QueueService} and over serve's HTTP API.
 */
public interface CancelQueue {
    /** @return depth, overdue count, oldest overdue age, next due and the sweepers' state */
    QueueSummary summary();

    /**
     * One page of the whole queue in expiry order, keyset on (deadline, order id).
     *
     * @param after the cursor of the page before ({@link QueuePage#nextCursor()}), null for the first page
     * @param limit entries per page, 1..1000
     * @return the page, with the cursor of the next one (null when none follows)
     * @throws IllegalArgumentException for a bad limit or a malformed cursor, in words
     */
    QueuePage page(String after, int limit);

    /**
     * @param orderId an order id as typed
     * @return the order's queue entry with its current status, empty when it has none
     * @throws IllegalArgumentException when the id is not a well-formed order id, in words
     */
    Optional<QueueItem> find(String orderId);

    /**
     * Cancels an unpaid order now, through the transition script (role ops).
     *
     * @param operator who cancels
     * @param orderId the order
     * @param reason why, kept in the history
     * @return the outcome (rejected when the order has left WAIT_PAY)
     * @throws com.orderconsole.domain.PermissionDeniedException below ops
     */
    TransitionResult cancelNow(Operator operator, String orderId, String reason);

    /**
     * Removes an order's entry on purpose without touching the order (role ops), recorded in the audit trail first: the
     * order will not be cancelled for non-payment, and reconciliation never queues it again.
     *
     * @param operator who removes
     * @param orderId the order's id, or the exact characters of a malformed one found in the queue
     * @param source where: console, cli
     * @param reason why (may be empty)
     * @return true when there was an entry
     * @throws IllegalArgumentException when the id breaks the id rule and no entry holds it, in words
     * @throws com.orderconsole.domain.PermissionDeniedException below ops
     */
    boolean remove(Operator operator, String orderId, String source, String reason);

    /**
     * Moves an unpaid order's expiry later (role ops), audited with the deadline before and after.
     *
     * @param operator who extends
     * @param orderId the order
     * @param by how much later than the current expiry (or than now, when the entry is missing), positive
     * @param source where: console, cli
     * @param reason why (may be empty)
     * @return the new expiry, epoch ms
     * @throws IllegalStateException when the order is not waiting for payment
     * @throws com.orderconsole.domain.PermissionDeniedException below ops
     */
    long extend(Operator operator, String orderId, Duration by, String source, String reason);

    /**
     * Pauses or resumes every sweeper (serve's too), role ops or higher, audited with who, from where and why.
     *
     * @param operator who
     * @param paused true to pause
     * @param source where: console, cli
     * @param reason the operator's reason ("" when none was asked)
     * @throws IllegalStateException when the audit trail could not record it (the flag is set), in words
     * @throws com.orderconsole.domain.PermissionDeniedException below ops
     */
    void setPaused(Operator operator, boolean paused, String source, String reason);
}
