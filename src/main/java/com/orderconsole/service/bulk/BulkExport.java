package com.orderconsole.service.bulk;

import com.fasterxml.jackson.core.JsonEncoding;
import com.fasterxml.jackson.core.JsonGenerator;
import com.fasterxml.jackson.databind.ObjectMapper;
import org.apache.commons.csv.CSVFormat;
import org.apache.commons.csv.CSVPrinter;

import java.io.IOException;
import java.io.OutputStream;
import java.io.Writer;
import java.time.Instant;
import java.util.List;

/**
 * A batch's per-order results in the export's two formats, written from pages of its items wherever they are read (MySQL
 * in this process, or serve's {@code GET /v1/bulk-batches/{id}/items}): the same file either way.
 */
public final class BulkExport {
    /** Items read per page while exporting. */
    public static final int PAGE = 1000;

    /** One page of a batch's items, by order id, after an order id (null: the first). */
    @FunctionalInterface
    public interface Items {
        List<BulkItem> after(String afterOrderId) throws IOException;
    }

    private BulkExport() {
    }

    /**
     * Writes the items as CSV (header {@link BulkService#CSV_HEADER}).
     *
     * @return rows written
     */
    public static long csv(Items items, Writer out) throws IOException {
        long n = 0;
        CSVPrinter csv = new CSVPrinter(out, CSVFormat.DEFAULT.builder().setHeader(BulkService.CSV_HEADER.toArray(String[]::new)).get());
        String after = null;
        while (true) {
            List<BulkItem> page = items.after(after);
            for (BulkItem i : page) {
                csv.printRecord(i.batchId(), i.orderId(), i.outcome(), i.code() == null ? "" : i.code().code(),
                        i.code() == null ? "" : i.code().description(), i.seenStatus(), i.seenVersion(), i.version(),
                        Instant.ofEpochMilli(i.atMs()), i.error());
                n++;
            }
            if (page.size() < PAGE) {
                break;
            }
            after = page.get(page.size() - 1).orderId();
        }
        csv.flush();
        return n;
    }

    /**
     * Writes the batch and its items as one JSON document {@code {"batch": {...}, "items": [...]}}.
     *
     * @return items written
     */
    public static long json(BulkBatch batch, Items items, OutputStream out) throws IOException {
        ObjectMapper json = new ObjectMapper();
        long n = 0;
        try (JsonGenerator g = json.getFactory().createGenerator(out, JsonEncoding.UTF8)) {
            g.useDefaultPrettyPrinter();
            g.writeStartObject();
            g.writeFieldName("batch");
            json.writeValue(g, batch);
            g.writeArrayFieldStart("items");
            String after = null;
            while (true) {
                List<BulkItem> page = items.after(after);
                for (BulkItem i : page) {
                    json.writeValue(g, i);
                    n++;
                }
                if (page.size() < PAGE) {
                    break;
                }
                after = page.get(page.size() - 1).orderId();
            }
            g.writeEndArray();
            g.writeEndObject();
        }
        return n;
    }
}
