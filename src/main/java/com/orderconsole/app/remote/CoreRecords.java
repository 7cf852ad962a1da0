package com.orderconsole.app.remote;

import com.fasterxml.jackson.databind.JsonNode;
import com.orderconsole.domain.HistoryEntry;
import com.orderconsole.domain.OrderStatus;
import com.orderconsole.domain.ResultCode;
import com.orderconsole.domain.TransitionResult;
import com.orderconsole.service.order.OrderDetails;
import com.orderconsole.service.order.OrderStory;
import com.orderconsole.service.order.OrderSummary;

import java.time.Instant;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.List;
import java.util.Set;

/**
 * serve's documents of orders, history lines and transitions read back into the services' own records, so a page shows
 * exactly what it shows in-process. A document without a field the record needs is a defect of the route, said as such.
 */
final class CoreRecords {
    private CoreRecords() {
    }

    /** @return the field, or a failure naming it: serve's document lacks what the console needs */
    static JsonNode need(JsonNode doc, String field) {
        JsonNode v = doc.get(field);
        if (v == null) {
            throw new IllegalStateException("serve's answer has no '" + field + "': is serve older than this console?");
        }
        return v;
    }

    static String text(JsonNode v) {
        return v == null || v.isNull() ? null : v.asText();
    }

    static OrderStatus status(JsonNode v) {
        return v == null || v.isNull() ? null : OrderStatus.valueOf(v.asText());
    }

    /** @return epoch ms of an instant field ("2026-12-07T21:00:00.123Z"), null when null or absent */
    static Long ms(JsonNode v) {
        return v == null || v.isNull() ? null : Instant.parse(v.asText()).toEpochMilli();
    }

    /** One history line or pending outbox entry ({@code Entry}). */
    static HistoryEntry entry(JsonNode e) {
        return new HistoryEntry(text(need(e, "orderId")), status(e.get("from")), status(need(e, "to")),
                need(e, "version").asLong(), ResultCode.valueOf(need(e, "result").asText()), text(e.get("actor")),
                text(e.get("source")), text(e.get("reason")), need(e, "atMs").asLong(), null);
    }

    static List<HistoryEntry> entries(JsonNode list) {
        List<HistoryEntry> out = new ArrayList<>();
        if (list != null) {
            list.forEach(e -> out.add(entry(e)));
        }
        return out;
    }

    /** One order as a row ({@code OrderRow}) or as a whole order ({@code Order}): both have these fields. */
    static OrderSummary summary(JsonNode o) {
        JsonNode mysql = need(o, "mysql");
        JsonNode redis = need(o, "redis");
        Long since = ms(o.get("statusSince"));
        return new OrderSummary(text(need(o, "id")), text(o.get("customerId")),
                mysql.isNull() ? null : status(mysql.get("status")), mysql.isNull() ? 0 : mysql.path("version").asLong(),
                redis.isNull() ? null : status(redis.get("status")), redis.isNull() ? 0 : redis.path("version").asLong(),
                ms(need(o, "createdAt")), since == null ? 0 : since, ms(o.get("paymentDeadline")),
                o.path("retired").asBoolean(false));
    }

    /** {@code GET /v1/orders/{id}}. */
    static OrderDetails details(JsonNode o) {
        Set<OrderStatus> legal = EnumSet.noneOf(OrderStatus.class);
        need(o, "legalTargets").forEach(t -> legal.add(OrderStatus.valueOf(t.asText())));
        JsonNode removal = o.get("queueRemoval");
        OrderDetails.QueueRemoval r = removal == null || removal.isNull() ? null : new OrderDetails.QueueRemoval(
                removal.path("auditId").asLong(), ms(removal.get("at")), text(removal.get("actor")),
                removal.path("reason").asText(""));
        return new OrderDetails(summary(o), entries(o.get("history")), legal, ms(o.get("queueExpiry")),
                o.path("rebuilt").asBoolean(false), entries(o.get("pending")), r);
    }

    /** {@code GET /v1/orders/{id}/story}. */
    static OrderStory story(JsonNode doc) {
        List<OrderStory.Step> steps = new ArrayList<>();
        HistoryEntry previous = null;
        for (JsonNode s : need(doc, "steps")) {
            HistoryEntry e = entry(s);
            steps.add(new OrderStory.Step(e, status(s.get("statusBefore")), s.path("gapMs").asLong(), previous,
                    s.path("pending").asBoolean(), s.path("redisVersion").asLong(), s.path("mysqlVersion").asLong(),
                    s.path("override").asBoolean()));
            previous = e;
        }
        return new OrderStory(summary(need(doc, "order")), steps, ms(need(doc, "at")));
    }

    /** A transition's outcome ({@code Transition}), from an answer or from a refusal's {@code "transition"}. */
    static TransitionResult transition(JsonNode t) {
        return new TransitionResult(text(need(t, "orderId")), ResultCode.valueOf(need(t, "result").asText()),
                status(t.get("from")), status(need(t, "to")), t.path("version").asLong(), need(t, "atMs").asLong());
    }

    /**
     * serve's refusal as the exception the in-process service throws for it, with serve's words: bad input
     * {@link IllegalArgumentException}, an unknown order {@link com.orderconsole.service.order.OrderNotFoundException} (via
     * {@code notFound}), beyond the role {@link com.orderconsole.domain.PermissionDeniedException}, a production change not
     * confirmed {@link com.orderconsole.app.NotConfirmedException}, a state that does not allow it now
     * {@link IllegalStateException}; any other kind stays the refusal itself.
     *
     * @param r serve's refusal
     * @param notFound the in-process exception of a 404 (an order's), or null to treat it as bad input
     */
    static RuntimeException refusal(ApiRefusal r, java.util.function.Supplier<RuntimeException> notFound) {
        String words = r.getMessage();
        RuntimeException e = switch (r.kind()) {
            case "not_found" -> notFound != null ? notFound.get() : new IllegalArgumentException(words);
            case "usage", "invalid_rules", "too_large" -> new IllegalArgumentException(words);
            case "permission" -> new com.orderconsole.domain.PermissionDeniedException(words);
            case "not_confirmed" -> new com.orderconsole.app.NotConfirmedException(words);
            case "conflict" -> new IllegalStateException(words);
            default -> r;
        };
        if (e != r && e.getCause() == null) {
            e.initCause(r);
        }
        return e;
    }
}
