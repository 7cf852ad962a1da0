package com.orderconsole.api;

import com.orderconsole.domain.ResultCode;
import com.orderconsole.service.audit.AuditEvent;
import com.orderconsole.service.audit.AuditFilter;
import com.orderconsole.service.audit.AuditPage;
import com.orderconsole.service.audit.AuditService;
import com.orderconsole.service.audit.MoveKind;

import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * {@code GET /v1/audit}: the Audit page's query (who, from where, legal moves or overrides, a result code, a time range,
 * an id prefix), newest first in keyset pages. A read: every role may make it, as at the console.
 */
final class AuditRoutes {
    static final int DEFAULT_LIMIT = 100;

    private final AuditService audit;
    private final MysqlWork mysql;

    AuditRoutes(AuditService audit, MysqlWork mysql) {
        this.audit = audit;
        this.mysql = mysql;
    }

    List<Route> routes() {
        return List.of(
                Route.get("/v1/audit", this::query, "actor", "source", "kind", "code", "from", "to", "idPrefix", "limit", "after"),
                Route.get("/v1/audit/export", this::export, "actor", "source", "kind", "code", "from", "to", "idPrefix", "format"));
    }

    /**
     * Every matching row, newest first, streamed as CSV (the console's export columns) or one JSON array, read in pages
     * of 1,000 on the request's thread: an export of millions of rows holds no more than a page in memory.
     */
    private void export(ApiCall call) {
        QueryParams q = new QueryParams(call);
        AuditFilter filter = filter(q);
        boolean csv = q.choice("format", "csv", "csv", "json").equals("csv");
        call.stream(200, csv ? "text/csv; charset=utf-8" : "application/json", out -> {
            if (csv) {
                java.io.Writer w = new java.io.OutputStreamWriter(out, java.nio.charset.StandardCharsets.UTF_8);
                audit.exportCsv(filter, w, () -> false);
                w.flush();
            } else {
                audit.exportJson(filter, out, () -> false);
            }
        });
    }

    private void query(ApiCall call) {
        QueryParams q = new QueryParams(call);
        AuditFilter filter = filter(q);
        int limit = q.number("limit", DEFAULT_LIMIT, 1, 1000);
        String after = q.text("after");
        mysql.answer(call, 200, () -> {
            AuditPage page;
            try {
                page = audit.page(filter, after, limit);
            } catch (IllegalArgumentException e) {
                throw ApiProblem.badInput("after '" + JsonBody.printable(after) + "' is not a cursor this API gave: pass the "
                        + "\"next\" of the page before, with the same filters");
            }
            return pageDocument(page);
        }, "nothing was changed; ask again");
    }

    private static AuditFilter filter(QueryParams q) {
        try {
            MoveKind kind = MoveKind.valueOf(q.choice("kind", "any", "any", "legal", "override").toUpperCase(Locale.ROOT));
            return new AuditFilter(q.text("actor"), q.text("source"), kind, code(q.text("code")), q.time("from", false),
                    q.time("to", true), q.text("idPrefix"));
        } catch (IllegalArgumentException e) {
            throw ApiProblem.badInput(e.getMessage());
        }
    }

    private static ResultCode code(String text) {
        if (text == null) {
            return null;
        }
        try {
            return text.matches("-?\\d") ? ResultCode.ofCode(Integer.parseInt(text)) : ResultCode.valueOf(text.toUpperCase(Locale.ROOT));
        } catch (IllegalArgumentException e) {
            throw ApiProblem.badInput("code must be a result code by name (e.g. NOT_ALLOWED) or number (1 to -7), not '"
                    + JsonBody.printable(text) + "'");
        }
    }

    private static Map<String, Object> pageDocument(AuditPage page) {
        List<Map<String, Object>> rows = new ArrayList<>();
        for (AuditEvent e : page.rows()) {
            Map<String, Object> doc = new LinkedHashMap<>();
            doc.put("kind", e.kind().name());
            doc.put("id", e.id());
            doc.put("at", Instant.ofEpochMilli(e.atMs()).toString());
            doc.put("atMs", e.atMs());
            doc.put("actor", e.actor());
            doc.put("source", e.source());
            doc.put("orderId", e.orderId());
            doc.put("from", e.from() == null ? null : e.from().name());
            doc.put("to", e.to() == null ? null : e.to().name());
            doc.put("version", e.version());
            doc.put("result", e.code() == null ? null : e.code().name());
            doc.put("action", e.action());
            doc.put("reason", e.reason());
            doc.put("detail", e.detail());
            doc.put("writtenBy", e.writtenBy());
            doc.put("actorUnlike", e.actorUnlike());
            rows.add(doc);
        }
        Map<String, Object> doc = new LinkedHashMap<>();
        doc.put("events", rows);
        doc.put("next", page.nextCursor());
        return doc;
    }
}
