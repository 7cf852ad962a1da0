package com.orderconsole.app.remote;

import com.fasterxml.jackson.databind.JsonNode;
import com.orderconsole.domain.OrderStatus;
import com.orderconsole.domain.ResultCode;
import com.orderconsole.domain.TransitionResult;
import com.orderconsole.service.audit.AuditEvent;
import com.orderconsole.service.audit.AuditPage;
import com.orderconsole.service.bulk.BulkBatch;
import com.orderconsole.service.bulk.BulkCounts;
import com.orderconsole.service.bulk.BulkItem;
import com.orderconsole.service.bulk.BulkPreview;
import com.orderconsole.service.bulk.BulkScope;
import com.orderconsole.service.bulk.TargetCount;
import com.orderconsole.service.deadletter.DeadLetter;
import com.orderconsole.service.queue.QueueItem;
import com.orderconsole.service.queue.QueuePage;
import com.orderconsole.service.queue.QueueSummary;
import com.orderconsole.service.queue.SweeperStatus;
import com.orderconsole.service.recon.FindingDetail;
import com.orderconsole.service.recon.ReconCategory;
import com.orderconsole.service.recon.ReconFinding;
import com.orderconsole.service.recon.ReconReport;
import com.orderconsole.service.recon.RepairResult;

import java.time.Instant;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.EnumSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Serve's JSON documents read back into the services' own records, so a page shows the same values whether its service
 * runs in this process or behind serve. Each function takes the document the route of that name answers (field names as
 * the API document, openapi.json, gives them) and throws {@link IllegalStateException} naming the field when one the record
 * needs is missing: that is a serve of another version, not bad input.
 */
final class ServeRecords {
    /** Detail kinds whose values hold a status (by name in JSON), at the position given. */
    private static final Map<FindingDetail, Integer> STATUS_ARG = Map.of(FindingDetail.SAME_VERSION, 1,
            FindingDetail.QUEUE_ORDER_IS, 0, FindingDetail.UNEXPLAINED_HISTORY, 1);

    private ServeRecords() {
    }

    // --- the cancel queue ---

    /** @param doc {@code GET /v1/cancel-queue} */
    static QueueSummary queueSummary(JsonNode doc) {
        return new QueueSummary(need(doc, "depth").asLong(), need(doc, "overdue").asLong(), optLong(doc, "oldestOverdueAgeMs"),
                optMs(doc, "nextDue"), ms(doc, "at"), sweeper(need(doc, "sweeper")));
    }

    /** @param doc the {@code sweeper} of the queue summary, or the answer of pause and resume */
    static SweeperStatus sweeper(JsonNode doc) {
        return new SweeperStatus(need(doc, "runningHere").asBoolean(), need(doc, "paused").asBoolean(), optMs(doc, "lastTick"),
                optText(doc, "lastTickBy"), need(doc, "cancelsLastMinute").asLong(), need(doc, "cancelledTotal").asLong());
    }

    /** @param doc {@code GET /v1/cancel-queue/entries} */
    static QueuePage queuePage(JsonNode doc) {
        List<QueueItem> items = new ArrayList<>();
        for (JsonNode e : need(doc, "entries")) {
            items.add(new QueueItem(text(e, "orderId"), ms(e, "deadline"), need(e, "dueInMs").asLong(), optStatus(e, "status"),
                    need(e, "stale").asBoolean()));
        }
        return new QueuePage(items, optText(doc, "next"));
    }

    /** @param doc a transition's document: a 200's body, or the {@code transition} of a rejected move's error */
    static TransitionResult transition(JsonNode doc) {
        return new TransitionResult(text(doc, "orderId"), ResultCode.valueOf(text(doc, "result")), optStatus(doc, "from"),
                OrderStatus.valueOf(text(doc, "to")), need(doc, "version").asLong(), need(doc, "atMs").asLong());
    }

    // --- reconciliation ---

    /**
     * @param run {@code GET /v1/reconciliations/{id}} of a finished run
     * @param findings the findings read for each category ({@code /findings}); categories absent have none kept
     * @return the report as the service gives it
     */
    static ReconReport reconReport(JsonNode run, Map<ReconCategory, List<ReconFinding>> findings, boolean filtered) {
        Map<ReconCategory, Long> counts = new EnumMap<>(ReconCategory.class);
        JsonNode c = need(run, "counts");
        for (ReconCategory cat : ReconCategory.values()) {
            counts.put(cat, c.path(cat.name()).asLong(0));
        }
        Map<ReconCategory, List<ReconFinding>> kept = new EnumMap<>(ReconCategory.class);
        findings.forEach((cat, list) -> {
            if (!list.isEmpty()) {
                kept.put(cat, List.copyOf(list));
            }
        });
        return new ReconReport(counts, kept, need(run, "ordersCompared").asLong(), need(run, "millis").asLong(),
                "cancelled".equals(text(run, "state")), filtered);
    }

    /** @param doc one of {@code GET /v1/reconciliations/{id}/findings}' findings */
    static ReconFinding reconFinding(JsonNode doc) {
        JsonNode mysql = doc.path("mysql");
        JsonNode redis = doc.path("redis");
        FindingDetail key = doc.hasNonNull("detailKey") ? FindingDetail.valueOf(text(doc, "detailKey")) : FindingDetail.PLAIN;
        List<Object> args = new ArrayList<>();
        JsonNode given = doc.path("detailArgs");
        if (!given.isArray()) {
            args.add(text(doc, "detail"));
        }
        for (int i = 0; i < given.size(); i++) {
            JsonNode a = given.get(i);
            Integer statusAt = STATUS_ARG.get(key);
            if (statusAt != null && statusAt == i && a.isTextual() && isStatus(a.asText())) {
                args.add(OrderStatus.valueOf(a.asText()));
            } else if (a.isIntegralNumber()) {
                args.add(a.canConvertToInt() ? (Object) a.intValue() : (Object) a.longValue());
            } else if (a.isNumber()) {
                args.add(a.numberValue());
            } else {
                args.add(a.isNull() ? "" : a.asText());
            }
        }
        return new ReconFinding(ReconCategory.valueOf(text(doc, "category")), text(doc, "orderId"),
                mysql.isObject() ? OrderStatus.valueOf(text(mysql, "status")) : null, mysql.isObject() ? need(mysql, "version").asLong() : 0,
                redis.isObject() ? OrderStatus.valueOf(text(redis, "status")) : null, redis.isObject() ? need(redis, "version").asLong() : 0,
                text(doc, "detail"), key, args);
    }

    /** @param doc {@code GET /v1/reconciliations/{id}/repairs/{category}} */
    static List<com.orderconsole.service.recon.Reconciliation.RepairStep> repairPlan(JsonNode doc) {
        List<com.orderconsole.service.recon.Reconciliation.RepairStep> steps = new ArrayList<>();
        for (JsonNode s : need(doc, "steps")) {
            steps.add(new com.orderconsole.service.recon.Reconciliation.RepairStep(text(s, "orderId"), text(s, "direction"), text(s, "resulting")));
        }
        return steps;
    }

    /** @param doc {@code POST /v1/reconciliations/{id}/repairs} */
    static RepairResult repairResult(JsonNode doc) {
        List<String> errors = new ArrayList<>();
        need(doc, "errors").forEach(e -> errors.add(e.asText()));
        return new RepairResult(ReconCategory.valueOf(text(doc, "category")), need(doc, "attempted").asLong(),
                need(doc, "repaired").asLong(), need(doc, "failed").asLong(), errors, false);
    }

    // --- bulk moves ---

    /**
     * @param doc {@code POST /v1/bulk-moves/previews}
     * @param scope the orders the preview was asked for (serve keeps what it read; the run names the preview by its id)
     */
    static BulkPreview bulkPreview(JsonNode doc, BulkScope scope) {
        Map<ResultCode, Integer> reject = new LinkedHashMap<>();
        need(doc, "wouldReject").fields().forEachRemaining(e -> reject.put(ResultCode.valueOf(e.getKey()), e.getValue().asInt()));
        List<TargetCount> perTarget = new ArrayList<>();
        for (JsonNode t : doc.path("perTarget")) {
            perTarget.add(new TargetCount(OrderStatus.valueOf(text(t, "target")), need(t, "wouldApply").asInt(), need(t, "wouldReject").asInt()));
        }
        return new BulkPreview(scope, OrderStatus.valueOf(text(doc, "target")), need(doc, "override").asBoolean(),
                need(doc, "rulesVersion").asLong(), need(doc, "matched").asInt(), need(doc, "wouldApply").asInt(), reject, perTarget,
                texts(need(doc, "sample")), texts(need(doc, "unknownIds")), ms(doc, "readAt"), null);
    }

    /** @param doc the {@code counts} of a bulk run or batch */
    static BulkCounts bulkCounts(JsonNode doc) {
        return new BulkCounts(need(doc, "applied").asInt(), need(doc, "rejected").asInt(), need(doc, "conflicts").asInt(),
                need(doc, "failed").asInt());
    }

    /** @param doc {@code GET /v1/bulk-batches/{id}}, or one of the list's batches */
    static BulkBatch bulkBatch(JsonNode doc) {
        return new BulkBatch(need(doc, "id").asLong(), text(doc, "actor"), text(doc, "source"), ms(doc, "startedAt"),
                optMs(doc, "finishedAt"), text(doc, "scope"), OrderStatus.valueOf(text(doc, "target")), need(doc, "override").asBoolean(),
                optText(doc, "reason"), need(doc, "matched").asInt(), bulkCounts(need(doc, "counts")),
                BulkBatch.State.valueOf(text(doc, "state")), doc.hasNonNull("heartbeatAt") ? ms(doc, "heartbeatAt") : 0L);
    }

    /** @param doc one of {@code GET /v1/bulk-batches/{id}/items}' items, of batch {@code batchId} */
    static BulkItem bulkItem(JsonNode doc, long batchId) {
        String result = optText(doc, "result");
        return new BulkItem(batchId, text(doc, "orderId"), optStatus(doc, "seenStatus"), need(doc, "seenVersion").asLong(),
                BulkItem.Outcome.valueOf(text(doc, "outcome")), result == null ? null : ResultCode.valueOf(result),
                need(doc, "version").asLong(), ms(doc, "at"), optText(doc, "error"));
    }

    // --- audit and dead letters ---

    /** @param doc {@code GET /v1/audit} */
    static AuditPage auditPage(JsonNode doc) {
        List<AuditEvent> rows = new ArrayList<>();
        for (JsonNode e : need(doc, "events")) {
            String result = optText(e, "result");
            rows.add(new AuditEvent(AuditEvent.Kind.valueOf(text(e, "kind")), need(e, "id").asLong(), need(e, "atMs").asLong(),
                    optText(e, "actor"), optText(e, "source"), optText(e, "orderId"), optStatus(e, "from"), optStatus(e, "to"),
                    optLong(e, "version"), result == null ? null : ResultCode.valueOf(result), optText(e, "action"), optText(e, "reason"),
                    optText(e, "detail"), optText(e, "writtenBy"), e.path("actorUnlike").asBoolean(false)));
        }
        return new AuditPage(rows, optText(doc, "next"));
    }

    /** @param doc one of {@code GET /v1/dead-letters}' letters, or the answer of a retry or discard */
    static DeadLetter deadLetter(JsonNode doc) {
        return new DeadLetter(need(doc, "id").asLong(), text(doc, "kind"), optText(doc, "orderId"),
                doc.hasNonNull("bucket") ? doc.get("bucket").asInt() : null, optText(doc, "entryId"), optText(doc, "reason"),
                optText(doc, "body"), ms(doc, "createdAt"), text(doc, "state"), optText(doc, "resolvedBy"), optText(doc, "resolution"));
    }

    // --- fields ---

    private static final Set<String> STATUSES = EnumSet.allOf(OrderStatus.class).stream().map(Enum::name)
            .collect(java.util.stream.Collectors.toUnmodifiableSet());

    private static boolean isStatus(String s) {
        return STATUSES.contains(s);
    }

    static JsonNode need(JsonNode doc, String field) {
        JsonNode v = doc.get(field);
        if (v == null) {
            throw new IllegalStateException("serve's answer lacks \"" + field + "\": is serve of another version than this console?");
        }
        return v;
    }

    private static String text(JsonNode doc, String field) {
        JsonNode v = need(doc, field);
        return v.isNull() ? null : v.asText();
    }

    private static String optText(JsonNode doc, String field) {
        JsonNode v = doc.get(field);
        return v == null || v.isNull() ? null : v.asText();
    }

    private static Long optLong(JsonNode doc, String field) {
        JsonNode v = doc.get(field);
        return v == null || v.isNull() ? null : v.asLong();
    }

    private static OrderStatus optStatus(JsonNode doc, String field) {
        String s = optText(doc, field);
        return s == null ? null : OrderStatus.valueOf(s);
    }

    private static long ms(JsonNode doc, String field) {
        return Instant.parse(text(doc, field)).toEpochMilli();
    }

    private static Long optMs(JsonNode doc, String field) {
        String s = optText(doc, field);
        return s == null ? null : Instant.parse(s).toEpochMilli();
    }

    private static List<String> texts(JsonNode array) {
        List<String> out = new ArrayList<>();
        array.forEach(n -> out.add(n.asText()));
        return out;
    }
}
