package com.orderconsole.api;

import com.orderconsole.app.ErrorKind;
import com.orderconsole.app.ProductionGuard;
import com.orderconsole.domain.Operator;
import com.orderconsole.service.recon.ReconCategory;
import com.orderconsole.service.recon.ReconFinding;
import com.orderconsole.service.recon.ReconReport;
import com.orderconsole.service.recon.ReconciliationService;
import com.orderconsole.service.recon.RepairResult;
import com.orderconsole.service.order.OrderQuery;

import java.io.IOException;
import java.io.StringWriter;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;

/**
 * Reconciliation, as the console's page and {@code reconcile} have it: {@code POST /v1/reconciliations} starts a
 * comparison (read-only: every role, as at the console) and answers 202 with its id; {@code GET /v1/reconciliations/{id}}
 * follows it; its findings by category, their CSV, a dry run of a category's repair and the repair itself (ops or more,
 * the category's own role and reason by the service's rule; guarded on production) follow from there. A run and its
 * report live in this serve's memory ({@link ReconRuns}): behind a load balancer, ask the serve that answered the start.
 */
final class ReconRoutes {
    static final int DEFAULT_LIMIT = 100;
    private static final Set<String> REPAIR_FIELDS = Set.of("category", "reason", "confirmCount");
    /** A comparison of only some orders, chosen as the orders page filters them; none: every order, Redis-only ones and the queues. */
    private static final Set<String> FILTER_FIELDS = Set.of("id", "idPrefix", "status", "stuck", "createdFrom", "createdTo", "disagreeing");

    private final ReconciliationService recon;
    private final ReconRuns runs;
    private final MysqlWork mysql;
    private final ApiGuard guard;
    private final Runnable countsMoved;

    /** @param countsMoved called after a repair (a recount of the live counters among them) */
    ReconRoutes(ReconciliationService recon, ReconRuns runs, MysqlWork mysql, ApiGuard guard, Runnable countsMoved) {
        this.recon = recon;
        this.runs = runs;
        this.mysql = mysql;
        this.guard = guard;
        this.countsMoved = countsMoved;
    }

    List<Route> routes() {
        return List.of(
                Route.post("/v1/reconciliations", this::start),
                Route.get("/v1/reconciliations/{id}", call -> call.json(200, runs.get(call.id()).document())),
                Route.get("/v1/reconciliations/{id}/findings", this::findings, "category", "limit", "after"),
                Route.get("/v1/reconciliations/{id}/findings.csv", this::csv),
                Route.get("/v1/reconciliations/{id}/repairs/{category}", this::plan),
                Route.post("/v1/reconciliations/{id}/repairs", this::repair),
                Route.post("/v1/reconciliations/{id}/cancel", this::cancel));
    }

    private void start(ApiCall call) throws IOException {
        JsonBody body = JsonBody.read(call.contentType(), call::body, FILTER_FIELDS);
        OrderQuery filter = filter(body);
        ReconRuns.Run run = runs.start(call.operator(), (progress, cancelled) -> recon.run(filter, progress, cancelled));
        call.responseHeader("Location", "/v1/reconciliations/" + run.id());
        call.json(202, run.document());
    }

    /** Stops a running comparison at its next page (read-only, so every role, as starting one); its report says cancelled. */
    /** @return the orders a comparison covers, or null for all of them (and Redis-only orders and the queues) */
    private static OrderQuery filter(JsonBody body) {
        String id = body.text("id");
        String prefix = body.text("idPrefix");
        List<String> statuses = body.texts("status");
        boolean stuck = body.flag("stuck");
        boolean disagreeing = body.flag("disagreeing");
        String from = body.text("createdFrom");
        String to = body.text("createdTo");
        if (id == null && prefix == null && statuses == null && !stuck && !disagreeing && from == null && to == null) {
            return null;
        }
        try {
            java.util.Set<com.orderconsole.domain.OrderStatus> st = java.util.EnumSet.noneOf(com.orderconsole.domain.OrderStatus.class);
            if (statuses != null) {
                statuses.forEach(x -> st.add(QueryParams.status("status", x)));
            }
            return new OrderQuery(id, prefix, st, stuck, BulkRoutes.instant(from, "createdFrom"), BulkRoutes.instant(to, "createdTo"),
                    disagreeing, false);
        } catch (IllegalArgumentException e) {
            throw ApiProblem.badInput(e.getMessage() + "; nothing was compared");
        }
    }

    private void cancel(ApiCall call) throws IOException {
        JsonBody.read(call.contentType(), call::body, Set.of());
        ReconRuns.Run run = runs.get(call.id());
        run.cancel();
        call.json(200, run.document());
    }

    private void findings(ApiCall call) {
        ReconReport report = runs.get(call.id()).report();
        QueryParams q = new QueryParams(call);
        ReconCategory category = category(q.text("category"), true);
        int limit = q.number("limit", DEFAULT_LIMIT, 1, 1000);
        String after = q.text("after");
        int from = after == null ? 0 : QueryParams.number(after, "after", 0, 0, ReconciliationService.MAX_FINDINGS_KEPT);
        List<ReconFinding> all = report.findings(category);
        List<Map<String, Object>> rows = new ArrayList<>();
        for (int i = from; i < Math.min(all.size(), from + limit); i++) {
            rows.add(findingDocument(all.get(i)));
        }
        Map<String, Object> doc = new LinkedHashMap<>();
        doc.put("category", category.name());
        doc.put("count", report.counts().getOrDefault(category, 0L));
        doc.put("findings", rows);
        doc.put("next", from + limit < all.size() ? Integer.toString(from + limit) : null);
        call.json(200, doc);
    }

    private void csv(ApiCall call) {
        ReconReport report = runs.get(call.id()).report();
        StringWriter out = new StringWriter();
        recon.exportCsv(report, out);
        call.result(200, out.toString().getBytes(StandardCharsets.UTF_8), "text/csv; charset=utf-8");
    }

    private void plan(ApiCall call) {
        ReconReport report = runs.get(call.id()).report();
        ReconCategory category = category(call.param("category"), true);
        List<Map<String, Object>> steps = new ArrayList<>();
        for (ReconciliationService.RepairStep s : recon.plan(report, category)) {
            Map<String, Object> step = new LinkedHashMap<>();
            step.put("orderId", s.orderId());
            step.put("direction", s.direction());
            step.put("resulting", s.resulting());
            steps.add(step);
        }
        Map<String, Object> doc = new LinkedHashMap<>();
        doc.put("category", category.name());
        doc.put("count", recon.preview(report, category));
        doc.put("repairRole", category.repairRole().name().toLowerCase(Locale.ROOT));
        doc.put("steps", steps);
        call.json(200, doc);
    }

    private void repair(ApiCall call) throws IOException {
        ReconReport report = runs.get(call.id()).report();
        JsonBody body = JsonBody.read(call.contentType(), call::body, REPAIR_FIELDS);
        ReconCategory category = category(body.requiredText("category"), false);
        String reason = body.text("reason");
        long count = recon.preview(report, category);
        guard.check(ProductionGuard.Action.REPAIR, count, "repairing " + count + " \"" + category.label() + "\" findings", reason,
                body.positiveLong("confirmCount"));
        Operator who = call.operator();
        mysql.answer(call, 200, () -> {
                    RepairResult done = recon.repair(who, report, category, reason == null ? "" : reason.strip(),
                            com.orderconsole.service.recon.ReconProgress.NONE, () -> false);
                    countsMoved.run();
                    return repairDocument(done);
                },
                "the repair goes on: run a reconciliation again to see what is left");
    }

    private static ReconCategory category(String text, boolean inPath) {
        if (text == null) {
            throw ApiProblem.badInput("category is missing: one of " + names());
        }
        try {
            return ReconCategory.valueOf(text.toUpperCase(Locale.ROOT));
        } catch (IllegalArgumentException e) {
            ApiProblem p = new ApiProblem(inPath ? ErrorKind.NOT_FOUND : ErrorKind.USAGE, "category '" + JsonBody.printable(text)
                    + "' is not one of " + names());
            throw p;
        }
    }

    private static String names() {
        return String.join(", ", java.util.Arrays.stream(ReconCategory.values()).map(Enum::name).toList());
    }

    static Map<String, Object> findingDocument(ReconFinding f) {
        Map<String, Object> doc = new LinkedHashMap<>();
        doc.put("category", f.category().name());
        doc.put("orderId", f.orderId());
        doc.put("mysql", f.mysqlStatus() == null ? null : Map.of("status", f.mysqlStatus().name(), "version", f.mysqlVersion()));
        doc.put("redis", f.redisStatus() == null ? null : Map.of("status", f.redisStatus().name(), "version", f.redisVersion()));
        doc.put("detail", f.detail());
        doc.put("detailKey", f.detailKey().name());
        // Statuses by name, numbers as numbers, the rest as text: what the console words in the user's language.
        doc.put("detailArgs", f.detailArgs().stream().map(a -> a instanceof Number || a instanceof String ? a
                : a instanceof Enum<?> e ? e.name() : String.valueOf(a)).toList());
        return doc;
    }

    private static Map<String, Object> repairDocument(RepairResult r) {
        Map<String, Object> doc = new LinkedHashMap<>();
        doc.put("category", r.category().name());
        doc.put("attempted", r.attempted());
        doc.put("repaired", r.repaired());
        doc.put("failed", r.failed());
        doc.put("errors", r.errors());
        doc.put("at", Instant.now().toString());
        return doc;
    }
}
