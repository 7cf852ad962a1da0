package com.orderconsole.app.remote;

import com.fasterxml.jackson.databind.JsonNode;
import com.orderconsole.domain.Operator;
import com.orderconsole.domain.OrderStatus;
import com.orderconsole.service.bulk.Bulk;
import com.orderconsole.service.bulk.BulkBatch;
import com.orderconsole.service.bulk.BulkExport;
import com.orderconsole.service.bulk.BulkItem;
import com.orderconsole.service.bulk.BulkPreview;
import com.orderconsole.service.bulk.BulkProgress;
import com.orderconsole.service.bulk.BulkRequest;
import com.orderconsole.service.bulk.BulkScope;
import com.orderconsole.service.bulk.BulkService;
import com.orderconsole.service.order.OrderQuery;

import java.io.IOException;
import java.io.OutputStream;
import java.io.Writer;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.function.BooleanSupplier;
import java.util.function.Supplier;

/**
 * Bulk moves through serve: a preview is {@code POST /v1/bulk-moves/previews} (serve keeps what it read, under an id this
 * class remembers for the preview it returns); applying it starts {@code POST /v1/bulk-moves} and follows
 * {@code GET /v1/bulk-moves/{id}} every {@link #POLL} until the batch is recorded, telling the caller's progress and
 * asking serve to stop when the caller cancels; the recorded batches are serve's {@code /v1/bulk-batches}.
 */
public final class RemoteBulk implements Bulk {
    /** How often a run's progress is asked for. */
    static final java.time.Duration POLL = java.time.Duration.ofMillis(200);

    private final ServeClient serve;
    private final Remembered<BulkPreview> previews = new Remembered<>();

    /** @param serve the client of the signed-in person's serve */
    public RemoteBulk(ServeClient serve) {
        this.serve = serve;
    }

    /** @return serve's default cap (serve does not say its own; a larger choice is refused by serve in words) */
    @Override
    public int maxOrders() {
        return BulkService.DEFAULT_MAX_ORDERS;
    }

    /** Serve reads the orders in one request: progress is told once, at the end; a cancel takes effect when it answers. */
    @Override
    public BulkPreview preview(BulkScope scope, OrderStatus target, boolean override, BulkProgress progress, BooleanSupplier cancelled) {
        if (target == null) {
            throw new IllegalArgumentException("choose a target status");
        }
        Map<String, Object> body = scopeBody(scope);
        body.put("to", target.name());
        body.put("override", override);
        JsonNode doc = call(() -> serve.post("/v1/bulk-moves/previews", body));
        if (cancelled.getAsBoolean()) {
            throw new java.util.concurrent.CancellationException("preview cancelled");
        }
        BulkPreview p = ServeRecords.bulkPreview(doc, scope);
        previews.put(p, ServeRecords.need(doc, "id").asText());
        progress.report(p.matched(), p.matched(), com.orderconsole.service.bulk.BulkCounts.ZERO);
        return p;
    }

    /** @return the scope as the preview request's fields: the chosen ids, or the filter serve takes */
    static Map<String, Object> scopeBody(BulkScope scope) {
        Map<String, Object> body = new LinkedHashMap<>();
        if (scope.isSelection()) {
            body.put("ids", scope.orderIds());
            return body;
        }
        OrderQuery f = scope.filter();
        if (f.exactId() != null) {
            body.put("ids", List.of(f.exactId()));
            return body;
        }
        if (f.stuckOnly() || f.disagreeingOnly()) {
            throw new IllegalArgumentException("a bulk move over serve takes the orders by status, id prefix and creation time only, "
                    + "not \"stuck\" or \"Redis and MySQL disagree\": select the orders in the table instead");
        }
        if (!f.statuses().isEmpty()) {
            body.put("status", f.statuses().stream().map(Enum::name).sorted().toList());
        }
        if (f.idPrefix() != null) {
            body.put("idPrefix", f.idPrefix());
        }
        if (f.createdFromMs() != null) {
            body.put("createdFrom", Instant.ofEpochMilli(f.createdFromMs()).toString());
        }
        if (f.createdToMs() != null) {
            body.put("createdTo", Instant.ofEpochMilli(f.createdToMs()).toString());
        }
        if (body.isEmpty()) {
            body.put("status", List.of()); // every order: a filter of no status is no filter
        }
        return body;
    }

    @Override
    public String check(Operator operator, BulkPreview preview, String reason) {
        return BulkRequest.check(operator, preview, reason);
    }

    @Override
    public BulkBatch apply(Operator operator, BulkPreview preview, String reason, String source, BulkProgress progress,
                           BooleanSupplier cancelled) {
        String why = check(operator, preview, reason);
        BulkRequest.requireSomethingToMove(preview);
        String previewId = previews.id(preview);
        if (previewId == null) {
            throw new IllegalStateException("this preview was not read through serve (or is too old): preview again");
        }
        Map<String, Object> body = new LinkedHashMap<>();
        body.put("previewId", previewId);
        body.put("reason", why);
        body.put("confirmCount", preview.matched());
        String run = ServeRecords.need(call(() -> serve.post("/v1/bulk-moves", body)), "id").asText();
        boolean cancelAsked = false;
        while (true) {
            JsonNode r = call(() -> serve.get("/v1/bulk-moves/" + run));
            progress.report(r.path("done").asInt(), r.path("total").asInt(), ServeRecords.bulkCounts(ServeRecords.need(r, "counts")));
            if (r.hasNonNull("batchId")) {
                return batch(r.get("batchId").asLong());
            }
            if ("failed".equals(r.path("state").asText())) {
                throw new IllegalStateException(r.path("failure").asText("the bulk move failed on serve"));
            }
            if (!cancelAsked && cancelled.getAsBoolean()) {
                call(() -> serve.post("/v1/bulk-moves/" + run + "/cancel", Map.of()));
                cancelAsked = true;
            }
            pause();
        }
    }

    @Override
    public BulkBatch close(Operator operator, long batchId, String source) {
        return ServeRecords.bulkBatch(call(() -> serve.post("/v1/bulk-batches/" + batchId + "/close", Map.of())));
    }

    @Override
    public List<BulkBatch> batches(Long beforeId, int limit) {
        List<BulkBatch> out = new ArrayList<>();
        call(() -> serve.get(ServeClient.path("/v1/bulk-batches", "before", beforeId, "limit", limit))).path("batches")
                .forEach(b -> out.add(ServeRecords.bulkBatch(b)));
        return out;
    }

    @Override
    public BulkBatch batch(long id) {
        return ServeRecords.bulkBatch(call(() -> serve.get("/v1/bulk-batches/" + id)));
    }

    @Override
    public List<BulkItem> items(long batchId, BulkItem.Outcome outcome, String afterOrderId, int limit) {
        List<BulkItem> out = new ArrayList<>();
        call(() -> serve.get(ServeClient.path("/v1/bulk-batches/" + batchId + "/items", "outcome",
                outcome == null ? null : outcome.name().toLowerCase(Locale.ROOT), "after", afterOrderId, "limit", limit)))
                .path("items").forEach(i -> out.add(ServeRecords.bulkItem(i, batchId)));
        return out;
    }

    @Override
    public long exportCsv(long batchId, Writer out) throws IOException {
        batch(batchId);
        return BulkExport.csv(after -> items(batchId, null, after, BulkExport.PAGE), out);
    }

    @Override
    public long exportJson(long batchId, OutputStream out) throws IOException {
        return BulkExport.json(batch(batchId), after -> items(batchId, null, after, BulkExport.PAGE), out);
    }

    private static void pause() {
        try {
            Thread.sleep(POLL.toMillis());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new java.util.concurrent.CancellationException("interrupted while following the bulk move on serve");
        }
    }

    private static JsonNode call(Supplier<JsonNode> request) {
        try {
            return request.get();
        } catch (ApiRefusal r) {
            throw Refusals.of(r);
        }
    }
}
