package com.orderconsole.service.audit;

import com.fasterxml.jackson.core.JsonEncoding;
import com.fasterxml.jackson.core.JsonGenerator;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.orderconsole.domain.OrderStatus;
import org.apache.commons.csv.CSVFormat;
import org.apache.commons.csv.CSVPrinter;

import java.io.IOException;
import java.io.OutputStream;
import java.io.Writer;
import java.time.Instant;
import java.util.function.BooleanSupplier;

/**
 * The audit export's two formats, written from pages of the audit view wherever they are read (MySQL in this process, or
 * serve's {@code GET /v1/audit}): the same file either way.
 */
public final class AuditExport {
    /** Rows read per page while exporting. */
    public static final int PAGE = 1000;

    /** One page of the audit view after a cursor (null: the first). */
    @FunctionalInterface
    public interface Pages {
        AuditPage after(String cursor) throws IOException;
    }

    private AuditExport() {
    }

    /**
     * Writes every row the pages give as CSV (header {@link AuditService#CSV_HEADER}), in their order.
     *
     * @param cancelled polled between pages; a cancelled export ends early with what it wrote
     * @return rows written
     */
    public static long csv(Pages pages, Writer out, BooleanSupplier cancelled) throws IOException {
        CSVPrinter csv = new CSVPrinter(out, CSVFormat.DEFAULT.builder().setHeader(AuditService.CSV_HEADER.toArray(String[]::new)).get());
        long n = 0;
        String cursor = null;
        do {
            AuditPage p = pages.after(cursor);
            for (AuditEvent e : p.rows()) {
                csv.printRecord(Instant.ofEpochMilli(e.atMs()), e.kind(), e.actor(), e.source(), nz(e.orderId()), name(e.from()),
                        name(e.to()), e.version() == null ? "" : e.version(), e.code() == null ? "" : e.code().code(),
                        e.code() == null ? "" : e.code().description(), nz(e.action()), nz(e.reason()), nz(e.detail()), nz(e.writtenBy()),
                        e.actorUnlike());
                n++;
            }
            cursor = p.nextCursor();
        } while (cursor != null && !cancelled.getAsBoolean());
        csv.flush();
        return n;
    }

    /**
     * Writes every row the pages give as one JSON array, in their order.
     *
     * @return rows written
     */
    public static long json(Pages pages, OutputStream out, BooleanSupplier cancelled) throws IOException {
        ObjectMapper json = new ObjectMapper();
        long n = 0;
        try (JsonGenerator g = json.getFactory().createGenerator(out, JsonEncoding.UTF8)) {
            g.useDefaultPrettyPrinter();
            g.writeStartArray();
            String cursor = null;
            do {
                AuditPage p = pages.after(cursor);
                for (AuditEvent e : p.rows()) {
                    json.writeValue(g, e);
                    n++;
                }
                cursor = p.nextCursor();
            } while (cursor != null && !cancelled.getAsBoolean());
            g.writeEndArray();
        }
        return n;
    }

    private static String nz(String s) {
        return s == null ? "" : s;
    }

    private static String name(OrderStatus s) {
        return s == null ? "" : s.name();
    }
}
