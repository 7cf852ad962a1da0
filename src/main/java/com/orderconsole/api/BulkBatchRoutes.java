package com.orderconsole.api;

import com.orderconsole.service.bulk.BulkBatch;
import com.orderconsole.service.bulk.BulkItem;
import com.orderconsole.service.bulk.BulkService;

import java.io.IOException;
import java.io.OutputStreamWriter;
import java.io.Writer;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;

/**
 * The bulk batches recorded in MySQL, as the console's bulk page lists them: {@code GET /v1/bulk-batches} (newest first),
 * {@code GET /v1/bulk-batches/{id}}, its per-order results ({@code /items}, {@code /items.csv}) and
 * {@code POST /v1/bulk-batches/{id}/close} (an abandoned batch: ops or higher by the service's rule).
 */
final class BulkBatchRoutes {
    static final int DEFAULT_LIMIT = 50;

    private final BulkService bulk;
    private final MysqlWork mysql;

    BulkBatchRoutes(BulkService bulk, MysqlWork mysql) {
        this.bulk = bulk;
        this.mysql = mysql;
    }

    List<Route> routes() {
        return List.of(
                Route.get("/v1/bulk-batches", this::list, "before", "limit"),
                Route.get("/v1/bulk-batches/{id}", call -> {
                    long id = id(call);
                    mysql.answer(call, 200, () -> document(batch(id)), "nothing was changed; ask again");
                }),
                Route.get("/v1/bulk-batches/{id}/items", this::items, "outcome", "after", "limit"),
                Route.get("/v1/bulk-batches/{id}/items.csv", this::csv),
                Route.post("/v1/bulk-batches/{id}/close", this::close));
    }

    private static long id(ApiCall call) {
        return QueryParams.number(call.id(), "batch id", 0, 1, Integer.MAX_VALUE);
    }

    /** @throws ApiProblem 404 when no batch has this id */
    private BulkBatch batch(long id) {
        try {
            return bulk.batch(id);
        } catch (IllegalArgumentException e) {
            throw ApiProblem.notFound(e.getMessage());
        }
    }

    private void list(ApiCall call) {
        QueryParams q = new QueryParams(call);
        int limit = q.number("limit", DEFAULT_LIMIT, 1, 1000);
        String beforeText = q.text("before");
        Long before = beforeText == null ? null : (long) QueryParams.number(beforeText, "before", 0, 1, Integer.MAX_VALUE);
        mysql.answer(call, 200, () -> {
            List<Map<String, Object>> rows = new ArrayList<>();
            List<BulkBatch> batches = bulk.batches(before, limit);
            batches.forEach(b -> rows.add(document(b)));
            Map<String, Object> doc = new LinkedHashMap<>();
            doc.put("batches", rows);
            doc.put("next", batches.size() < limit ? null : Long.toString(batches.get(batches.size() - 1).id()));
            return doc;
        }, "nothing was changed; ask again");
    }

    private void items(ApiCall call) {
        long id = id(call);
        QueryParams q = new QueryParams(call);
        String outcomeText = q.choice("outcome", null, "applied", "rejected", "conflict", "failed", "not_run");
        BulkItem.Outcome outcome = outcomeText == null ? null : BulkItem.Outcome.valueOf(outcomeText.toUpperCase(Locale.ROOT));
        int limit = q.number("limit", 100, 1, 1000);
        String after = q.text("after");
        mysql.answer(call, 200, () -> {
            batch(id); // an unknown batch is refused in words, not listed as empty
            List<Map<String, Object>> rows = new ArrayList<>();
            List<BulkItem> items = bulk.items(id, outcome, after, limit);
            for (BulkItem i : items) {
                Map<String, Object> row = new LinkedHashMap<>();
                row.put("orderId", i.orderId());
                row.put("seenStatus", i.seenStatus() == null ? null : i.seenStatus().name());
                row.put("seenVersion", i.seenVersion());
                row.put("outcome", i.outcome().name());
                row.put("result", i.code() == null ? null : i.code().name());
                row.put("version", i.version());
                row.put("at", Instant.ofEpochMilli(i.atMs()).toString());
                row.put("error", i.error());
                rows.add(row);
            }
            Map<String, Object> doc = new LinkedHashMap<>();
            doc.put("items", rows);
            doc.put("next", items.size() < limit ? null : items.get(items.size() - 1).orderId());
            return doc;
        }, "nothing was changed; ask again");
    }

    private void csv(ApiCall call) {
        long id = id(call);
        batch(id); // an unknown batch is a 404 before the body starts
        call.stream(200, "text/csv; charset=utf-8", out -> {
            Writer w = new OutputStreamWriter(out, StandardCharsets.UTF_8);
            bulk.exportCsv(id, w);
            w.flush();
        });
    }

    private void close(ApiCall call) throws IOException {
        long id = id(call);
        JsonBody.read(call.contentType(), call::body, Set.of());
        com.orderconsole.domain.Operator who = call.operator();
        mysql.answer(call, 200, () -> {
            try {
                return document(bulk.close(who, id, OrderRoutes.SOURCE));
            } catch (IllegalStateException e) {
                throw ApiProblem.conflict(e.getMessage());
            }
        }, "the batch may be closed all the same: GET /v1/bulk-batches/" + id + " says");
    }

    static Map<String, Object> document(BulkBatch b) {
        Map<String, Object> doc = new LinkedHashMap<>();
        doc.put("id", b.id());
        doc.put("actor", b.actor());
        doc.put("source", b.source());
        doc.put("startedAt", Instant.ofEpochMilli(b.startedAtMs()).toString());
        doc.put("finishedAt", b.finishedAtMs() == null ? null : Instant.ofEpochMilli(b.finishedAtMs()).toString());
        doc.put("scope", b.scope());
        doc.put("target", b.target().name());
        doc.put("override", b.override());
        doc.put("reason", b.reason());
        doc.put("matched", b.matched());
        doc.put("counts", Map.of("applied", b.counts().applied(), "rejected", b.counts().rejected(), "conflicts",
                b.counts().conflicts(), "failed", b.counts().failed()));
        doc.put("notRun", b.notRun());
        doc.put("state", b.state().name());
        doc.put("closable", b.closable());
        doc.put("heartbeatAt", Instant.ofEpochMilli(b.heartbeatMs()).toString());
        return doc;
    }
}
