package com.orderconsole.app.remote;

import com.fasterxml.jackson.databind.JsonNode;
import com.orderconsole.domain.Operator;
import com.orderconsole.service.order.OrderQuery;
import com.orderconsole.service.recon.ReconCategory;
import com.orderconsole.service.recon.ReconFinding;
import com.orderconsole.service.recon.ReconProgress;
import com.orderconsole.service.recon.ReconReport;
import com.orderconsole.service.recon.Reconciliation;
import com.orderconsole.service.recon.RepairResult;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.io.Writer;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.BooleanSupplier;
import java.util.function.Supplier;

/**
 * Reconciliation through serve: a comparison starts {@code POST /v1/reconciliations} and follows
 * {@code GET /v1/reconciliations/{id}} every {@link #POLL}, telling the caller's progress and asking serve to stop when the
 * caller cancels; then the kept findings of each category are read. The report keeps serve's run id (serve holds the
 * report a dry run, a repair and the CSV act on); serve forgets runs when it stops, and then says to compare again.
 */
public final class RemoteReconciliation implements Reconciliation {
    /** How often a comparison's progress is asked for. */
    static final Duration POLL = Duration.ofMillis(200);
    private static final int FINDINGS_PAGE = 1000;

    private final ServeClient serve;
    private final Remembered<ReconReport> runs = new Remembered<>();

    /** @param serve the client of the signed-in person's serve */
    public RemoteReconciliation(ServeClient serve) {
        this.serve = serve;
    }

    @Override
    public ReconReport run(OrderQuery filter, ReconProgress progress, BooleanSupplier cancelled) {
        String id = ServeRecords.need(call(() -> serve.post("/v1/reconciliations", filterBody(filter))), "id").asText();
        boolean cancelAsked = false;
        JsonNode run;
        while (true) {
            run = call(() -> serve.get("/v1/reconciliations/" + id));
            JsonNode p = run.path("progress");
            String state = run.path("state").asText();
            if (!state.equals("running")) {
                break;
            }
            progress.update(p.path("phase").asText(), p.path("done").asLong(), p.path("total").asLong());
            if (!cancelAsked && cancelled.getAsBoolean()) {
                call(() -> serve.post("/v1/reconciliations/" + id + "/cancel", Map.of()));
                cancelAsked = true;
            }
            pause();
        }
        if ("failed".equals(run.path("state").asText())) {
            throw new IllegalStateException("the reconciliation failed on serve: " + run.path("failure").asText());
        }
        Map<ReconCategory, List<ReconFinding>> findings = new EnumMap<>(ReconCategory.class);
        JsonNode counts = ServeRecords.need(run, "counts");
        for (ReconCategory c : ReconCategory.values()) {
            if (counts.path(c.name()).asLong(0) > 0) {
                findings.put(c, findings(id, c));
            }
        }
        ReconReport report = ServeRecords.reconReport(run, findings, run.path("filtered").asBoolean(filter != null));
        runs.put(report, id);
        return report;
    }

    private List<ReconFinding> findings(String id, ReconCategory c) {
        List<ReconFinding> out = new ArrayList<>();
        String after = null;
        do {
            String a = after;
            JsonNode page = call(() -> serve.get(ServeClient.path("/v1/reconciliations/" + id + "/findings", "category", c.name(),
                    "limit", FINDINGS_PAGE, "after", a)));
            page.path("findings").forEach(f -> out.add(ServeRecords.reconFinding(f)));
            after = page.hasNonNull("next") ? page.get("next").asText() : null;
        } while (after != null);
        return out;
    }

    /** @return the comparison request: no field for every order, else the filter as the orders page has it */
    static Map<String, Object> filterBody(OrderQuery f) {
        Map<String, Object> body = new LinkedHashMap<>();
        if (f == null) {
            return body;
        }
        if (f.exactId() != null) {
            body.put("id", f.exactId());
        }
        if (f.idPrefix() != null) {
            body.put("idPrefix", f.idPrefix());
        }
        body.put("status", f.statuses().stream().map(Enum::name).sorted().toList());
        if (f.stuckOnly()) {
            body.put("stuck", true);
        }
        if (f.disagreeingOnly()) {
            body.put("disagreeing", true);
        }
        if (f.createdFromMs() != null) {
            body.put("createdFrom", Instant.ofEpochMilli(f.createdFromMs()).toString());
        }
        if (f.createdToMs() != null) {
            body.put("createdTo", Instant.ofEpochMilli(f.createdToMs()).toString());
        }
        return body;
    }

    /** The same count as in-process: findings kept, the outbox backlog's count, none for what was done on purpose. */
    @Override
    public long preview(ReconReport report, ReconCategory category) {
        return category.informational() ? 0 : category == ReconCategory.SYNC_PENDING ? report.counts().get(category)
                : report.findings(category).size();
    }

    @Override
    public List<RepairStep> plan(ReconReport report, ReconCategory category) {
        return ServeRecords.repairPlan(call(() -> serve.get("/v1/reconciliations/" + id(report) + "/repairs/" + category.name())));
    }

    /** Serve repairs in one request: the caller's progress is told once, when it answers. */
    @Override
    public RepairResult repair(Operator operator, ReconReport report, ReconCategory category, String reason, ReconProgress progress,
                               BooleanSupplier cancelled) {
        if (category.informational()) {
            return new RepairResult(category, 0, 0, 0, List.of(), false); // what was done on purpose is not undone
        }
        Map<String, Object> body = new LinkedHashMap<>();
        body.put("category", category.name());
        if (reason != null && !reason.isBlank()) {
            body.put("reason", reason);
        }
        body.put("confirmCount", preview(report, category));
        RepairResult r = ServeRecords.repairResult(call(() -> serve.post("/v1/reconciliations/" + id(report) + "/repairs", body)));
        progress.update("repairing " + category.label(), r.attempted(), r.attempted());
        return r;
    }

    @Override
    public void exportCsv(ReconReport report, Writer out) {
        String csv = call(() -> serve.getText("/v1/reconciliations/" + id(report) + "/findings.csv"));
        try {
            out.write(csv);
            out.flush();
        } catch (IOException e) {
            throw new UncheckedIOException("cannot write the reconciliation CSV: " + e.getMessage(), e);
        }
    }

    private String id(ReconReport report) {
        String id = runs.id(report);
        if (id == null) {
            throw new IllegalStateException("this report was not compared through serve (or is too old): compare again");
        }
        return id;
    }

    private static void pause() {
        try {
            Thread.sleep(POLL.toMillis());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new java.util.concurrent.CancellationException("interrupted while following the reconciliation on serve");
        }
    }

    private static <T> T call(Supplier<T> request) {
        try {
            return request.get();
        } catch (ApiRefusal r) {
            throw Refusals.of(r);
        }
    }
}
