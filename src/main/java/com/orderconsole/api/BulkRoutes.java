package com.orderconsole.api;

import com.orderconsole.app.ProductionGuard;
import com.orderconsole.domain.Operator;
import com.orderconsole.domain.OrderStatus;
import com.orderconsole.service.bulk.BulkPreview;
import com.orderconsole.service.bulk.BulkScope;
import com.orderconsole.service.bulk.BulkService;
import com.orderconsole.service.order.OrderQuery;

import java.io.IOException;
import java.time.Instant;
import java.util.EnumSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;

/**
 * Bulk moves, as the console's bulk page and {@code bulk} have them: {@code POST /v1/bulk-moves/previews} (what a move of
 * the chosen orders would do; changes nothing; every role), {@code POST /v1/bulk-moves} (runs a preview: support or more,
 * admin for an override, a reason, by the service's rule; guarded on production), {@code GET /v1/bulk-moves/{id}} (its
 * progress) and {@code POST /v1/bulk-moves/{id}/cancel} (stops it before its next chunk; the role its run needs).
 */
final class BulkRoutes {
    private static final Set<String> PREVIEW_FIELDS = Set.of("ids", "status", "idPrefix", "createdFrom", "createdTo", "to", "override");
    private static final Set<String> RUN_FIELDS = Set.of("previewId", "reason", "confirmCount");

    private final BulkService bulk;
    private final BulkRuns runs;
    private final ApiGuard guard;
    private final ExecutorService previews = Executors.newFixedThreadPool(2, r -> {
        Thread t = new Thread(r, "api-bulk-preview");
        t.setDaemon(true);
        return t;
    });

    BulkRoutes(BulkService bulk, BulkRuns runs, ApiGuard guard) {
        this.bulk = bulk;
        this.runs = runs;
        this.guard = guard;
    }

    List<Route> routes() {
        return List.of(
                Route.post("/v1/bulk-moves/previews", this::preview),
                Route.post("/v1/bulk-moves", this::run),
                Route.get("/v1/bulk-moves/{id}", call -> call.json(200, runs.run(call.id()).document())),
                Route.post("/v1/bulk-moves/{id}/cancel", this::cancel));
    }

    /** Stops the preview threads. */
    void close() {
        previews.shutdownNow();
    }

    private void preview(ApiCall call) throws IOException {
        JsonBody body = JsonBody.read(call.contentType(), call::body, PREVIEW_FIELDS);
        OrderStatus to = body.status("to");
        boolean override = body.flag("override");
        BulkScope scope = scope(body);
        // A preview reads every chosen order (up to the batch cap): it runs on its own threads, not the MySQL pool's.
        call.future(() -> CompletableFuture.supplyAsync(() -> bulk.preview(scope, to, override, (d, t, c) -> { }, () -> false), previews)
                .handle((p, e) -> {
                    if (e != null) {
                        call.answer(HttpMapping.problem(e));
                    } else {
                        call.json(200, previewDocument(runs.keep(p), p));
                    }
                    return null;
                }));
    }

    private static BulkScope scope(JsonBody body) {
        List<String> ids = body.texts("ids");
        List<String> statuses = body.texts("status");
        String prefix = body.text("idPrefix");
        String from = body.text("createdFrom");
        String before = body.text("createdTo");
        boolean byFilter = statuses != null || prefix != null || from != null || before != null;
        if (byFilter == (ids != null)) {
            throw ApiProblem.badInput("choose the orders either by \"ids\" or by a filter (\"status\", \"idPrefix\", "
                    + "\"createdFrom\", \"createdTo\"), not both and not neither; nothing was read");
        }
        try {
            if (ids != null) {
                return BulkScope.of(ids);
            }
            Set<OrderStatus> st = EnumSet.noneOf(OrderStatus.class);
            if (statuses != null) {
                statuses.forEach(x -> st.add(QueryParams.status("status", x)));
            }
            return BulkScope.of(new OrderQuery(null, prefix, st, false, instant(from, "createdFrom"), instant(before, "createdTo"),
                    false, false));
        } catch (IllegalArgumentException e) {
            throw ApiProblem.badInput(e.getMessage());
        }
    }

    static Long instant(String text, String name) {
        if (text == null) {
            return null;
        }
        try {
            return Instant.parse(text).toEpochMilli();
        } catch (java.time.format.DateTimeParseException e) {
            throw ApiProblem.badInput(name + " must be an instant such as 2026-03-01T12:00:00Z, not '" + JsonBody.printable(text) + "'");
        }
    }

    private void run(ApiCall call) throws IOException {
        JsonBody body = JsonBody.read(call.contentType(), call::body, RUN_FIELDS);
        BulkPreview preview = runs.preview(body.requiredText("previewId"));
        Operator who = call.operator();
        String reason = bulk.check(who, preview, body.text("reason")); // role and reason, before anything is written
        guard.check(preview.override() ? ProductionGuard.Action.OVERRIDE : ProductionGuard.Action.BULK, preview.matched(),
                "moving " + preview.matched() + " orders to " + preview.target().name(), reason, body.positiveLong("confirmCount"));
        BulkRuns.Run run = runs.start(who, preview, r -> bulk.apply(who, r.preview(), reason, OrderRoutes.SOURCE, r::progress,
                r::cancelled));
        call.responseHeader("Location", "/v1/bulk-moves/" + run.id());
        call.json(202, run.document());
    }

    private void cancel(ApiCall call) throws IOException {
        JsonBody.read(call.contentType(), call::body, Set.of());
        BulkRuns.Run run = runs.run(call.id());
        bulk.check(call.operator(), run.preview(), "cancel"); // stopping a run takes the role running it takes
        run.cancel();
        call.json(200, run.document());
    }

    private static Map<String, Object> previewDocument(String id, BulkPreview p) {
        Map<String, Object> reject = new LinkedHashMap<>();
        p.wouldReject().forEach((code, n) -> reject.put(code.name(), n));
        Map<String, Object> doc = new LinkedHashMap<>();
        doc.put("id", id);
        doc.put("target", p.target().name());
        doc.put("override", p.override());
        doc.put("rulesVersion", p.rulesVersion());
        doc.put("matched", p.matched());
        doc.put("wouldApply", p.wouldApply());
        doc.put("wouldReject", reject);
        List<Map<String, Object>> perTarget = new java.util.ArrayList<>();
        p.perTarget().forEach(t -> {
            Map<String, Object> row = new LinkedHashMap<>();
            row.put("target", t.target().name());
            row.put("wouldApply", t.wouldApply());
            row.put("wouldReject", t.wouldReject());
            perTarget.add(row);
        });
        doc.put("perTarget", perTarget);
        doc.put("sample", p.sample());
        doc.put("unknownIds", p.unknownIds());
        doc.put("readAt", Instant.ofEpochMilli(p.readAtMs()).toString());
        return doc;
    }
}
