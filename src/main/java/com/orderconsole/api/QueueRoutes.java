package com.orderconsole.api;

import com.orderconsole.app.ProductionGuard;
import com.orderconsole.app.Services;
import com.orderconsole.domain.Operator;
import com.orderconsole.domain.TransitionResult;
import com.orderconsole.service.queue.QueueItem;
import com.orderconsole.service.queue.QueuePage;
import com.orderconsole.service.queue.QueueSummary;
import com.orderconsole.service.queue.SweeperStatus;

import java.io.IOException;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * The cancel queue, as the console's queue page and {@code queue} commands have it: {@code GET /v1/cancel-queue} (the
 * summary and the sweepers' state), {@code GET /v1/cancel-queue/entries} (keyset pages by deadline), and the changes, each
 * ops or higher by the service's rule and guarded on production: {@code POST /v1/cancel-queue/pause}, {@code /resume},
 * {@code POST /v1/cancel-queue/entries/{id}/remove}, {@code /cancel} and {@code /extend} (a later payment deadline; not
 * guarded, as at the console).
 */
final class QueueRoutes {
    static final int DEFAULT_LIMIT = 100;
    private static final Set<String> CHANGE_FIELDS = Set.of("reason", "confirmCount");

    private final Services s;
    private final MysqlWork mysql;
    private final ApiGuard guard;

    QueueRoutes(Services s, MysqlWork mysql, ApiGuard guard) {
        this.s = s;
        this.mysql = mysql;
        this.guard = guard;
    }

    List<Route> routes() {
        return List.of(
                Route.get("/v1/cancel-queue", call -> mysql.answer(call, 200, () -> summaryDocument(s.queue().summary()),
                        "nothing was changed; ask again")),
                Route.get("/v1/cancel-queue/entries", this::page, "after", "limit", "orderId"),
                Route.post("/v1/cancel-queue/pause", call -> pause(call, true)),
                Route.post("/v1/cancel-queue/resume", call -> pause(call, false)),
                Route.post("/v1/cancel-queue/entries/{id}/remove", this::remove),
                Route.post("/v1/cancel-queue/entries/{id}/cancel", this::cancel),
                Route.post("/v1/cancel-queue/entries/{id}/extend", this::extend));
    }

    /** Moves an unpaid order's payment deadline later (ops or higher by the service's rule), recorded in the audit trail. */
    private void extend(ApiCall call) throws IOException {
        String id = OrderListRoutes.checkedId(call.id());
        JsonBody body = JsonBody.read(call.contentType(), call::body, Set.of("by", "reason"));
        String byText = body.requiredText("by");
        java.time.Duration by;
        try {
            by = com.orderconsole.domain.DurationText.parse(byText);
        } catch (IllegalArgumentException | ArithmeticException e) {
            throw ApiProblem.badInput("by '" + JsonBody.printable(byText) + "' is not a duration (e.g. \"30m\", \"1h30m\", \"PT30M\")");
        }
        String reason = body.text("reason");
        String problem = com.orderconsole.domain.TransitionRequest.reasonProblem(reason == null ? "" : reason);
        if (problem != null) {
            throw ApiProblem.badInput(problem + "; nothing was changed");
        }
        Operator who = call.operator();
        mysql.answer(call, 200, () -> {
            long expiry;
            try {
                expiry = s.queue().extend(who, id, by, OrderRoutes.SOURCE, reason == null ? "" : reason.strip());
            } catch (IllegalStateException e) {
                throw ApiProblem.conflict(e.getMessage());
            }
            Map<String, Object> doc = new LinkedHashMap<>();
            doc.put("orderId", id);
            doc.put("deadline", Instant.ofEpochMilli(expiry).toString());
            return doc;
        }, "the deadline may be moved all the same: GET /v1/cancel-queue/entries says");
    }

    /** A page of entries by deadline, or with {@code orderId} the one order's entry (none: an empty page), as the page's find. */
    private void page(ApiCall call) {
        QueryParams q = new QueryParams(call);
        int limit = q.number("limit", DEFAULT_LIMIT, 1, 1000);
        String after = q.text("after");
        String orderId = q.text("orderId") == null ? null : OrderListRoutes.checkedId(q.text("orderId"));
        if (orderId != null && after != null) {
            throw ApiProblem.badInput("give either orderId (one order's entry) or after (the next page), not both; nothing was read");
        }
        mysql.answer(call, 200, () -> {
            QueuePage page;
            try {
                page = orderId != null ? new QueuePage(s.queue().find(orderId).map(List::of).orElse(List.of()), null)
                        : s.queue().page(after, limit);
            } catch (IllegalArgumentException e) {
                throw ApiProblem.badInput("after '" + JsonBody.printable(after) + "' is not a cursor this API gave: pass the "
                        + "\"next\" of the page before");
            }
            List<Map<String, Object>> rows = new ArrayList<>();
            for (QueueItem i : page.items()) {
                Map<String, Object> row = new LinkedHashMap<>();
                row.put("orderId", i.orderId());
                row.put("deadline", Instant.ofEpochMilli(i.expireAtMs()).toString());
                row.put("dueInMs", i.dueInMs());
                row.put("status", i.status() == null ? null : i.status().name());
                row.put("stale", i.stale());
                rows.add(row);
            }
            Map<String, Object> doc = new LinkedHashMap<>();
            doc.put("entries", rows);
            doc.put("next", page.nextCursor());
            return doc;
        }, "nothing was changed; ask again");
    }

    private void pause(ApiCall call, boolean pause) throws IOException {
        JsonBody body = JsonBody.read(call.contentType(), call::body, CHANGE_FIELDS);
        String reason = body.text("reason");
        guard.check(pause ? ProductionGuard.Action.SWEEPER_PAUSE : ProductionGuard.Action.SWEEPER_RESUME, 1,
                pause ? "pausing every cancel sweeper" : "resuming the cancel sweepers", reason, body.positiveLong("confirmCount"));
        Operator who = call.operator();
        mysql.answer(call, 200, () -> {
            s.sweeper().setPaused(who, pause, OrderRoutes.SOURCE, reason == null ? "" : reason.strip());
            return sweeperDocument(s.sweeper().status());
        }, "the sweepers may be " + (pause ? "paused" : "running") + " all the same: GET /v1/cancel-queue says which");
    }

    private void remove(ApiCall call) throws IOException {
        String id = OrderListRoutes.checkedId(call.id());
        JsonBody body = JsonBody.read(call.contentType(), call::body, CHANGE_FIELDS);
        String reason = body.text("reason");
        guard.check(ProductionGuard.Action.QUEUE_REMOVE, 1, "removing the cancel-queue entry of order " + id, reason,
                body.positiveLong("confirmCount"));
        Operator who = call.operator();
        mysql.answer(call, 200, () -> {
            if (!s.queue().remove(who, id, OrderRoutes.SOURCE, reason == null ? "" : reason.strip())) {
                throw ApiProblem.notFound("order " + id + " has no cancel-queue entry; nothing was changed");
            }
            Map<String, Object> doc = new LinkedHashMap<>();
            doc.put("orderId", id);
            doc.put("removed", true);
            return doc;
        }, "the entry may be removed all the same: GET /v1/cancel-queue/entries says");
    }

    private void cancel(ApiCall call) throws IOException {
        String id = OrderListRoutes.checkedId(call.id());
        JsonBody body = JsonBody.read(call.contentType(), call::body, CHANGE_FIELDS);
        String reason = body.text("reason");
        guard.check(ProductionGuard.Action.QUEUE_CANCEL, 1, "cancelling order " + id + " from the cancel queue", reason,
                body.positiveLong("confirmCount"));
        Operator who = call.operator();
        long t0 = System.nanoTime();
        call.future(() -> mysql.supply(() -> s.queue().cancelNow(who, id, reason)).handle((TransitionResult r, Throwable e) -> {
            if (e == null) {
                OrderRoutes.answerTransition(call, r);
            } else if (MysqlWork.isTimeout(e)) {
                call.answer(ApiProblem.unavailable("Redis did not answer within " + MysqlWork.waited(t0) + "; the cancel may "
                        + "still have been applied: look the order up"));
            } else {
                call.answer(HttpMapping.problem(e));
            }
            return null;
        }));
    }

    private static Map<String, Object> summaryDocument(QueueSummary q) {
        Map<String, Object> doc = new LinkedHashMap<>();
        doc.put("depth", q.depth());
        doc.put("overdue", q.overdue());
        doc.put("oldestOverdueAgeMs", q.oldestOverdueAgeMs());
        doc.put("nextDue", q.nextDueMs() == null ? null : Instant.ofEpochMilli(q.nextDueMs()).toString());
        doc.put("at", Instant.ofEpochMilli(q.nowMs()).toString());
        doc.put("sweeper", sweeperDocument(q.sweeper()));
        return doc;
    }

    private static Map<String, Object> sweeperDocument(SweeperStatus w) {
        Map<String, Object> doc = new LinkedHashMap<>();
        doc.put("paused", w.paused());
        doc.put("runningHere", w.runningHere());
        doc.put("lastTick", w.lastTickMs() == null ? null : Instant.ofEpochMilli(w.lastTickMs()).toString());
        doc.put("lastTickBy", w.lastTickBy());
        doc.put("cancelsLastMinute", w.cancelsLastMinute());
        doc.put("cancelledTotal", w.cancelledTotal());
        return doc;
    }
}
