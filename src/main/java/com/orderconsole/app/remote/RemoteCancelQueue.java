package com.orderconsole.app.remote;

import com.fasterxml.jackson.databind.JsonNode;
import com.orderconsole.domain.Operator;
import com.orderconsole.domain.OrderId;
import com.orderconsole.domain.TransitionResult;
import com.orderconsole.service.order.OrderNotFoundException;
import com.orderconsole.service.queue.CancelQueue;
import com.orderconsole.service.queue.QueueItem;
import com.orderconsole.service.queue.QueuePage;
import com.orderconsole.service.queue.QueueSummary;
import com.orderconsole.service.queue.SweeperStatus;

import java.time.Duration;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;
import java.util.function.Supplier;

/**
 * The cancel queue through serve: {@code GET /v1/cancel-queue} and {@code /entries} for the reads, the entry actions and the
 * sweepers' pause as serve's {@code POST}s. Serve acts as whoever the access token names and records its own source;
 * every guarded action carries its reason and its count (one) confirmed, as the console asked for them before calling.
 */
public final class RemoteCancelQueue implements CancelQueue {
    private final ServeClient serve;

    /** @param serve the client of the signed-in person's serve */
    public RemoteCancelQueue(ServeClient serve) {
        this.serve = serve;
    }

    @Override
    public QueueSummary summary() {
        QueueSummary q = ServeRecords.queueSummary(call(() -> serve.get("/v1/cancel-queue")));
        SweeperStatus w = q.sweeper();
        // No sweeper runs in a console on serve: the page names the process that ticked last instead of "this console".
        return new QueueSummary(q.depth(), q.overdue(), q.oldestOverdueAgeMs(), q.nextDueMs(), q.nowMs(), new SweeperStatus(false,
                w.paused(), w.lastTickMs(), w.lastTickBy(), w.cancelsLastMinute(), w.cancelledTotal()));
    }

    @Override
    public QueuePage page(String after, int limit) {
        if (limit < 1 || limit > 1000) {
            throw new IllegalArgumentException("page size must be 1..1000, got " + limit);
        }
        return ServeRecords.queuePage(call(() -> serve.get(ServeClient.path("/v1/cancel-queue/entries", "after", after, "limit", limit))));
    }

    @Override
    public Optional<QueueItem> find(String orderId) {
        OrderId.require(orderId);
        return ServeRecords.queuePage(call(() -> serve.get(ServeClient.path("/v1/cancel-queue/entries", "orderId", orderId))))
                .items().stream().findFirst();
    }

    /** @return the outcome; a move the transition script rejected (the order left WAIT_PAY) is an outcome, as in-process */
    @Override
    public TransitionResult cancelNow(Operator operator, String orderId, String reason) {
        try {
            return ServeRecords.transition(serve.post(entry(orderId, "cancel"), guarded(reason)));
        } catch (ApiRefusal r) {
            JsonNode t = r.document().path("transition");
            if (t.isObject()) {
                return ServeRecords.transition(t);
            }
            throw Refusals.of(r);
        }
    }

    @Override
    public boolean remove(Operator operator, String orderId, String source, String reason) {
        try {
            return serve.post(entry(orderId, "remove"), guarded(reason)).path("removed").asBoolean();
        } catch (ApiRefusal r) {
            if (r.status() == 404) {
                return false; // no entry: nothing was changed, as in-process
            }
            throw Refusals.of(r);
        }
    }

    /** @throws OrderNotFoundException when serve knows no such order; IllegalStateException when it is not waiting for payment */
    @Override
    public long extend(Operator operator, String orderId, Duration by, String source, String reason) {
        OrderId.require(orderId);
        if (by == null || by.isNegative() || by.isZero()) {
            throw new IllegalArgumentException("extension must be positive, got " + by);
        }
        Map<String, Object> body = new LinkedHashMap<>();
        body.put("by", by.toString());
        body.put("reason", reason == null ? "" : reason);
        try {
            return Instant.parse(ServeRecords.need(serve.post(entry(orderId, "extend"), body), "deadline").asText()).toEpochMilli();
        } catch (ApiRefusal r) {
            if (r.status() == 404) {
                throw new OrderNotFoundException(orderId);
            }
            throw Refusals.of(r);
        }
    }

    @Override
    public void setPaused(Operator operator, boolean paused, String source, String reason) {
        call(() -> serve.post(paused ? "/v1/cancel-queue/pause" : "/v1/cancel-queue/resume", guarded(reason)));
    }

    private static String entry(String orderId, String action) {
        return "/v1/cancel-queue/entries/" + ServeClient.encode(orderId == null ? "" : orderId) + "/" + action;
    }

    private static Map<String, Object> guarded(String reason) {
        Map<String, Object> body = new LinkedHashMap<>();
        if (reason != null && !reason.isBlank()) {
            body.put("reason", reason);
        }
        body.put("confirmCount", 1);
        return body;
    }

    private static JsonNode call(Supplier<JsonNode> request) {
        try {
            return request.get();
        } catch (ApiRefusal r) {
            throw Refusals.of(r);
        }
    }
}
