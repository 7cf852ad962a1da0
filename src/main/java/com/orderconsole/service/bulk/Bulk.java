package com.orderconsole.service.bulk;

import com.orderconsole.domain.Operator;
import com.orderconsole.domain.OrderStatus;

import java.io.IOException;
import java.io.OutputStream;
import java.io.Writer;
import java.util.List;
import java.util.function.BooleanSupplier;

/**
 * Bulk moves: preview, check, apply with compare-and-set, and the batch records. Implemented in-process by
 * {@link BulkService} and over serve's HTTP API (which polls serve's run and calls the progress listener).
 */
public interface Bulk {
    /** @return the most orders one batch may hold */
    int maxOrders();

    /**
     * Reads the chosen orders and says what a move to {@code target} would do by the rules in force. Changes nothing.
     *
     * @param scope the orders
     * @param target the target status
     * @param override true to preview an override (rules not consulted; applying it needs admin)
     * @param progress told after every page
     * @param cancelled polled between pages; a cancelled preview throws {@link java.util.concurrent.CancellationException}
     * @return the preview with the seen state (version) of every matched order
     * @throws BulkTooLargeException when more than {@link #maxOrders()} orders match
     * @throws IllegalArgumentException when the target is missing
     */
    BulkPreview preview(BulkScope scope, OrderStatus target, boolean override, BulkProgress progress, BooleanSupplier cancelled);

    /**
     * Checks what an apply needs before anything is written: role, reason, target.
     *
     * @param operator who would apply
     * @param preview what {@link #preview} returned
     * @param reason the batch's reason as typed
     * @return the stripped reason
     * @throws com.orderconsole.domain.PermissionDeniedException below support, or an override below admin
     * @throws IllegalArgumentException for an empty, too long or control-character reason, or an override to WAIT_PAY
     */
    String check(Operator operator, BulkPreview preview, String reason);

    /**
     * Applies a previewed bulk transition, compare-and-set on the versions the preview saw, recorded per chunk.
     *
     * @param operator who acts (support and up; admin for an override)
     * @param preview what {@link #preview} returned
     * @param reason one reason for the whole batch (required)
     * @param source where it runs from: "console" or "cli"
     * @param progress told after every chunk
     * @param cancelled polled before every chunk (the batch then ends CANCELLED)
     * @return the batch as recorded at the end
     * @throws IllegalArgumentException when the preview moves no order, or as {@link #check}
     */
    BulkBatch apply(Operator operator, BulkPreview preview, String reason, String source, BulkProgress progress,
                    BooleanSupplier cancelled);

    /**
     * Closes an abandoned batch so that its record accounts for every order (ops and up).
     *
     * @param operator who closes it
     * @param batchId the batch
     * @param source where from: console or cli
     * @return the batch as recorded at the end
     * @throws com.orderconsole.domain.PermissionDeniedException below ops
     * @throws IllegalArgumentException when no such batch exists or it is not an abandoned one
     * @throws IllegalStateException when MySQL has not caught up within 30 s, or the batch changed meanwhile
     */
    BulkBatch close(Operator operator, long batchId, String source);

    /**
     * @param beforeId null for the newest, else the id of the last batch of the previous page
     * @param limit batches per page, 1..1000
     * @return batches newest first
     */
    List<BulkBatch> batches(Long beforeId, int limit);

    /**
     * @param id the batch
     * @return the batch
     * @throws IllegalArgumentException when no batch has this id
     */
    BulkBatch batch(long id);

    /**
     * One page of a batch's per-order results, by order id.
     *
     * @param batchId the batch
     * @param outcome only this outcome, or null for all
     * @param afterOrderId null for the first page, else the last id of the previous page
     * @param limit rows per page, 1..1000
     * @return the rows
     */
    List<BulkItem> items(long batchId, BulkItem.Outcome outcome, String afterOrderId, int limit);

    /**
     * Writes a batch's per-order results as CSV (header {@link BulkService#CSV_HEADER}).
     *
     * @param batchId the batch
     * @param out where to write; not closed
     * @return rows written
     * @throws IOException when writing fails
     */
    long exportCsv(long batchId, Writer out) throws IOException;

    /**
     * Writes a batch and its per-order results as one JSON document {@code {"batch": {...}, "items": [...]}}.
     *
     * @param batchId the batch
     * @param out where to write; not closed
     * @return items written
     * @throws IOException when writing fails
     */
    long exportJson(long batchId, OutputStream out) throws IOException;
}
