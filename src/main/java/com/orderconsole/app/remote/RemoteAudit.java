package com.orderconsole.app.remote;

import com.orderconsole.service.audit.Audit;
import com.orderconsole.service.audit.AuditExport;
import com.orderconsole.service.audit.AuditFilter;
import com.orderconsole.service.audit.AuditPage;

import java.io.IOException;
import java.io.OutputStream;
import java.io.Writer;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.function.BooleanSupplier;

/**
 * The audit view through serve: {@code GET /v1/audit} with the filter as its query. An export reads the same pages as
 * in-process (1,000 rows each) and writes the same file, so it can be stopped between pages and holds one page in memory.
 */
public final class RemoteAudit implements Audit {
    private final ServeClient serve;

    /** @param serve the client of the signed-in person's serve */
    public RemoteAudit(ServeClient serve) {
        this.serve = serve;
    }

    @Override
    public AuditPage page(AuditFilter filter, String cursor, int limit) {
        if (limit < 1 || limit > 1000) {
            throw new IllegalArgumentException("page size must be 1..1000, got " + limit);
        }
        try {
            return ServeRecords.auditPage(serve.get(ServeClient.path("/v1/audit", query(filter, "limit", limit, "after", cursor))));
        } catch (ApiRefusal r) {
            throw Refusals.of(r);
        }
    }

    @Override
    public long exportCsv(AuditFilter filter, Writer out, BooleanSupplier cancelled) throws IOException {
        return AuditExport.csv(cursor -> page(filter, cursor, AuditExport.PAGE), out, cancelled);
    }

    @Override
    public long exportJson(AuditFilter filter, OutputStream out, BooleanSupplier cancelled) throws IOException {
        return AuditExport.json(cursor -> page(filter, cursor, AuditExport.PAGE), out, cancelled);
    }

    /** @return the filter as {@code GET /v1/audit}'s query parameters (name, value pairs; null values left out), then {@code more} */
    static Object[] query(AuditFilter f, Object... more) {
        List<Object> q = new ArrayList<>(List.of("actor", nz(f.actor()), "source", nz(f.source()),
                "kind", f.moveKind().name().toLowerCase(Locale.ROOT), "code", f.code() == null ? "" : f.code().name(),
                "from", f.fromMs() == null ? "" : Instant.ofEpochMilli(f.fromMs()).toString(),
                "to", f.toMs() == null ? "" : Instant.ofEpochMilli(f.toMs()).toString(), "idPrefix", nz(f.idPrefix())));
        for (int i = 1; i < q.size(); i += 2) {
            if ("".equals(q.get(i))) {
                q.set(i, null);
            }
        }
        q.addAll(java.util.Arrays.asList(more));
        return q.toArray();
    }

    private static String nz(String s) {
        return s == null ? "" : s;
    }
}
