package com.orderconsole.service.audit;

import java.io.IOException;
import java.io.OutputStream;
import java.io.Writer;
import java.util.function.BooleanSupplier;

/**
 * The audit view: every recorded action across orders, paged and exported. Implemented in-process by
 * {@link AuditService} (MySQL alone) and over serve's HTTP API.
 */
public interface Audit {
    /**
     * One page of recorded actions, newest first.
     *
     * @param filter what to keep
     * @param cursor null for the first page, else {@link AuditPage#nextCursor()} of the previous one
     * @param limit rows per page, 1..1000
     * @return the page
     * @throws IllegalArgumentException for a bad limit or a cursor this service did not hand out, in words
     */
    AuditPage page(AuditFilter filter, String cursor, int limit);

    /**
     * Writes every matching action as CSV (header {@link AuditService#CSV_HEADER}), newest first.
     *
     * @param filter what to keep
     * @param out where to write; not closed
     * @param cancelled polled between pages; a cancelled export ends early with what it wrote
     * @return rows written
     * @throws IOException when writing fails
     */
    long exportCsv(AuditFilter filter, Writer out, BooleanSupplier cancelled) throws IOException;

    /**
     * Writes every matching action as one JSON array, newest first.
     *
     * @param filter what to keep
     * @param out where to write; not closed
     * @param cancelled polled between pages; a cancelled export ends early with what it wrote
     * @return rows written
     * @throws IOException when writing fails
     */
    long exportJson(AuditFilter filter, OutputStream out, BooleanSupplier cancelled) throws IOException;
}
