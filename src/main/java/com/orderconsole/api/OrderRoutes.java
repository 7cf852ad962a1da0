package com.orderconsole.api;

import com.orderconsole.app.ErrorDocument;
import com.orderconsole.app.ErrorKind;
import com.orderconsole.app.ProductionGuard;
import com.orderconsole.app.Services;
import com.orderconsole.domain.DurationText;
import com.orderconsole.domain.HistoryEntry;
import com.orderconsole.domain.OrderId;
import com.orderconsole.domain.OrderStatus;
import com.orderconsole.domain.Operator;
import com.orderconsole.domain.ResultCode;
import com.orderconsole.domain.TransitionRequest;
import com.orderconsole.domain.TransitionResult;
import com.orderconsole.service.order.OrderDetails;
import com.orderconsole.service.order.OrderNotFoundException;
import com.orderconsole.service.order.OrderSummary;

import java.io.IOException;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

/** {@code POST /v1/orders}, {@code POST /v1/orders/{id}/transitions}, {@code GET /v1/orders/{id}}. */
final class OrderRoutes {
    /** Source written to the history of API moves and creations. */
    static final String SOURCE = "api";
    private static final Set<String> CREATE_FIELDS = Set.of("id", "customerId", "paymentTimeout");
    private static final Set<String> TRANSITION_FIELDS = Set.of("to", "expectedVersion", "reason", "override", "confirmCount");

    private final Services s;
    private final Duration transitionTimeout;
    private final MysqlWork mysql;
    private final ApiGuard guard;

    /**
     * @param transitionTimeout how long a transition waits for Redis before it is answered 503
     * @param mysql the bounded pool for creation and lookups
     * @param guard the production guard of this serve
     */
    OrderRoutes(Services s, Duration transitionTimeout, MysqlWork mysql, ApiGuard guard) {
        this.s = s;
        this.guard = guard;
        this.transitionTimeout = transitionTimeout;
        this.mysql = mysql;
    }

    List<Route> routes() {
        return List.of(
                Route.post("/v1/orders", this::create),
                Route.post("/v1/orders/{id}/transitions", this::transition).runInline(),
                Route.get("/v1/orders/{id}", this::show));
    }

    private static Operator operator(ApiCall ctx) {
        return Objects.requireNonNull(ctx.operator());
    }

    /** Creates an order; the same id and body again answers the order (200), another body 409. */
    void create(ApiCall ctx) throws IOException {
        JsonBody body = JsonBody.read(ctx.contentType(), ctx::body, CREATE_FIELDS);
        String id = checkedId(body.requiredText("id"), "id");
        String customer = body.text("customerId");
        if (customer != null) {
            try {
                OrderId.require(customer, "customerId");
            } catch (IllegalArgumentException e) {
                throw ApiProblem.badInput(e.getMessage());
            }
        }
        String timeoutText = body.text("paymentTimeout");
        Duration timeout;
        try {
            timeout = timeoutText == null ? s.paymentTimeout() : DurationText.parse(timeoutText);
        } catch (IllegalArgumentException | ArithmeticException e) {
            throw ApiProblem.badInput("paymentTimeout '" + JsonBody.printable(timeoutText) + "' is not a duration (e.g. \"30m\", \"1h30m\", \"PT30M\")");
        }
        if (timeout.isZero() || timeout.isNegative() || timeout.compareTo(com.orderconsole.service.order.OrderService.MAX_PAYMENT_TIMEOUT) > 0) {
            throw ApiProblem.badInput("paymentTimeout must be positive and at most "
                    + com.orderconsole.service.order.OrderService.MAX_PAYMENT_TIMEOUT.toDays() + " days");
        }
        Operator who = operator(ctx);
        long t0 = System.nanoTime();
        ctx.future(() -> mysql.supply(() -> createOrFind(who, id, customer, timeout))
                .handle((doc, e) -> {
                    if (e != null) {
                        if (com.orderconsole.domain.Failures.unwrap(e) instanceof ApiProblem own) {
                            // The API's own refusal (a full MySQL queue: nothing ran; a conflicting body) is already in
                            // its final words: only a failure of the service is worded "may or may not be stored" below.
                            ctx.answer(own);
                            return null;
                        }
                        ApiProblem p = HttpMapping.problem(e);
                        if (ErrorDocument.nothingStored(com.orderconsole.domain.Failures.unwrap(e))) {
                            // Rolled back whole each time: nothing was stored, and the same request again is safe at once.
                            p = ApiProblem.unavailable(p.getMessage() + ": send the same request again", 1);
                        } else if (MysqlWork.isTimeout(e)) {
                            p = ApiProblem.unavailable(stalled() + " within " + MysqlWork.waited(t0)
                                    + ", and an order is written to MySQL first: it may or may not be stored now; send the same "
                                    + "request again (creation is idempotent)");
                        } else if (p.kind() == ErrorKind.UNAVAILABLE) {
                            // Which server failed is in the words (MySQL first; Redis after MySQL stored it: maintenance finishes it).
                            p = ApiProblem.unavailable(p.getMessage() + "; the order may or may not be stored now: send the "
                                    + "same request again (creation is idempotent)");
                        }
                        ctx.answer(p);
                    } else {
                        ctx.json(Boolean.TRUE.equals(doc.get("created")) ? 201 : 200, doc);
                    }
                    return null;
                }));
    }

    private Map<String, Object> createOrFind(Operator who, String id, String customer, Duration timeout) {
        try {
            s.orders().create(who, id, customer, timeout, SOURCE);
            Map<String, Object> doc = orderDocument(s.orders().lookup(id), false);
            doc.put("created", true);
            return doc;
        } catch (IllegalArgumentException e) {
            OrderDetails existing;
            try {
                existing = s.orders().lookup(id);
            } catch (OrderNotFoundException notThere) {
                throw e; // the creation was refused for another reason: its words
            }
            OrderSummary o = existing.summary();
            String creator = existing.history().isEmpty() ? null : existing.history().get(0).actor();
            boolean same = Objects.equals(o.customerId(), customer) && o.expireAtMs() != null
                    && o.expireAtMs() - o.createdAtMs() == timeout.toMillis() && who.name().equals(creator);
            if (!same) {
                throw ApiProblem.conflict("order " + id + " exists with another body (customer, payment timeout or "
                        + "creating client differ); nothing was changed");
            }
            Map<String, Object> doc = orderDocument(existing, false);
            doc.put("created", false);
            return doc;
        }
    }

    /** Moves an order; answers from Redis, never waiting on MySQL. */
    void transition(ApiCall ctx) throws IOException {
        String id = checkedId(ctx.id(), "order id");
        JsonBody body = JsonBody.read(ctx.contentType(), ctx::body, TRANSITION_FIELDS);
        OrderStatus to = body.status("to");
        Long expected = body.positiveLong("expectedVersion");
        String reason = body.text("reason");
        boolean override = body.flag("override");
        Long confirmCount = body.positiveLong("confirmCount");
        Operator who = operator(ctx);
        TransitionRequest request;
        try {
            request = new TransitionRequest(id, to, expected, SOURCE, reason, override);
        } catch (IllegalArgumentException e) {
            throw ApiProblem.badInput(e.getMessage());
        }
        if (override) {
            // An override is an admin's and needs a reason (the service's rules, checked there); on production it needs its
            // count confirmed as well. A refusal here comes before anything is stored.
            guard.check(ProductionGuard.Action.OVERRIDE, 1, "override order " + id + " to " + to.name(), reason, confirmCount);
        }
        // Answered when Redis' answer comes, on the thread that brings it: no thread of the server waits for Redis, and
        // none is woken to pass the answer on. Bounded by the transition timeout.
        long timeoutMs = transitionTimeout.toMillis();
        ctx.bounded(() -> s.transitions().transitionAsync(who, request).orTimeout(timeoutMs, TimeUnit.MILLISECONDS)
                .handle((r, e) -> {
                    if (e != null) {
                        ctx.answer(MysqlWork.isTimeout(e) ? ApiProblem.unavailable(transitionStalled()
                                + transitionTimeout.toSeconds() + " s; the move may still have been applied: look the order "
                                + "up, or send it again with expectedVersion")
                                : HttpMapping.problem(e));
                    } else {
                        answerTransition(ctx, r);
                    }
                    return null;
                }));
    }

    /** Answers a transition's outcome: applied or a repeat 200, else its error with the result ({@code "transition"}). */
    static void answerTransition(ApiCall ctx, TransitionResult r) {
        Map<String, Object> doc = transitionDocument(r);
        int status = HttpMapping.status(r.code());
        if (status == 200) {
            ctx.json(200, doc);
            return;
        }
        ErrorKind kind = switch (r.code()) {
            case STATE_MISSING -> ErrorKind.NOT_FOUND;
            case MALFORMED -> ErrorKind.MALFORMED_RECORD;
            case RESTORING, RULES_MISSING -> ErrorKind.UNAVAILABLE;
            default -> ErrorKind.REJECTED;
        };
        String words = r.code() == ResultCode.STATE_MISSING ? "order " + r.orderId() + " not found" : r.code().description();
        ApiProblem p = status == 503 ? ApiProblem.unavailable(words) : new ApiProblem(status, kind, words);
        ctx.answer(p.with("transition", doc));
    }

    static Map<String, Object> transitionDocument(TransitionResult r) {
        Map<String, Object> doc = new LinkedHashMap<>();
        doc.put("orderId", r.orderId());
        doc.put("applied", r.applied());
        doc.put("repeat", r.code() == ResultCode.ALREADY_IN_STATUS);
        doc.put("code", r.code().code());
        doc.put("result", r.code().name());
        doc.put("description", r.code().description());
        doc.put("from", r.from() == null ? null : r.from().name());
        doc.put("to", r.target().name());
        doc.put("version", r.version());
        doc.put("at", Instant.ofEpochMilli(r.timeMs()).toString());
        doc.put("atMs", r.timeMs());
        // Answered from Redis: the outcome waits in the outbox; GET /v1/events shows an applied move once MySQL holds it.
        doc.put("inMysql", false);
        return doc;
    }

    /**
     * The order in Redis and MySQL, with its history. While MySQL does not answer within its timeout, the answer is
     * Redis' side alone (200, {@code "mysql": null}, no history, and {@code mysqlUnanswered} saying so in words): the
     * live state a support tool needs is in Redis.
     */
    void show(ApiCall ctx) {
        String id = checkedId(ctx.id(), "order id");
        long t0 = System.nanoTime();
        OrderDetails live = redisSide(id); // a Redis read of about a millisecond, on the request's own thread
        ctx.future(() -> mysql.supply(() -> orderDocument(s.orders().lookup(id), true))
                .handle((doc, e) -> {
                    if (e == null) {
                        ctx.json(200, doc);
                    } else if (live != null && (MysqlWork.isTimeout(e) || HttpMapping.problem(e).kind() == ErrorKind.UNAVAILABLE)) {
                        Map<String, Object> redisOnly = orderDocument(live, false);
                        redisOnly.put("history", null);
                        redisOnly.put("mysqlUnanswered", "MySQL did not answer within " + MysqlWork.waited(t0) + ": this is the "
                                + "order's live state in Redis alone; its customer and history are in MySQL (transitions still work)");
                        ctx.json(200, redisOnly);
                    } else {
                        ApiProblem p = HttpMapping.problem(e);
                        if (MysqlWork.isTimeout(e)) {
                            String who = stalled();
                            p = ApiProblem.unavailable(who + " within " + MysqlWork.waited(t0) + (who.startsWith("MySQL did")
                                    ? ", and Redis holds no live state of order " + id + "; its history is in MySQL"
                                    : ": order " + id + " could not be read; ask again shortly"));
                        }
                        ctx.answer(p);
                    }
                    return null;
                }));
    }

    /**
     * Which server a request that timed out waited on, as the latest health check found them (it never waits on a server):
     * a wait on the MySQL-bound pool may be a wait on Redis (a creation writes MySQL, then Redis), so a timeout alone does
     * not say which server hung.
     *
     * @return e.g. "Redis did not answer", "MySQL did not answer", or "MySQL or Redis did not answer" while the check has not
     *     seen either fail yet
     */
    private String stalled() {
        com.orderconsole.service.metrics.Readiness r = s.metrics().readiness();
        if (r.redisOk() == r.mysqlOk()) {
            return r.redisOk() ? "MySQL or Redis did not answer" : "MySQL and Redis did not answer";
        }
        return (r.redisOk() ? "MySQL" : "Redis") + " did not answer";
    }

    /**
     * What a transition that timed out waited on, as the latest health check found the servers (it never waits on one): a
     * transition is Redis' alone on its usual path, but one that rebuilds a lost order waits for MySQL and the MySQL
     * follower, and a fence look reads MySQL. A Redis that answers its checks is not named as the one that did not.
     *
     * @return the start of the 503's words, to be followed by the seconds waited
     */
    private String transitionStalled() {
        com.orderconsole.service.metrics.Readiness r = s.metrics().readiness();
        if (!r.redisOk()) {
            return "Redis did not answer within ";
        }
        return r.mysqlOk() ? "the move waited on MySQL or the MySQL follower, not on Redis, which answers its health checks (a "
                + "MySQL lock, such as one the follower's batch waits on, holds a move that rebuilds an order from MySQL): no answer within "
                : "MySQL did not answer (Redis does) within ";
    }

    /** @return the order's state in Redis alone, or null when Redis holds none or does not answer (MySQL may still) */
    private OrderDetails redisSide(String id) {
        try {
            return s.orders().lookupInRedis(id);
        } catch (RuntimeException e) {
            return null;
        }
    }

    static Map<String, Object> orderDocument(OrderDetails d, boolean withHistory) {
        OrderSummary o = d.summary();
        Map<String, Object> doc = new LinkedHashMap<>();
        doc.put("id", o.orderId());
        doc.put("customerId", o.customerId());
        doc.put("status", o.status() == null ? null : o.status().name());
        doc.put("version", o.redisStatus() != null ? o.redisVersion() : o.mysqlVersion());
        doc.put("redis", o.redisStatus() == null ? null : Map.of("status", o.redisStatus().name(), "version", o.redisVersion()));
        doc.put("mysql", o.mysqlStatus() == null ? null : Map.of("status", o.mysqlStatus().name(), "version", o.mysqlVersion()));
        doc.put("createdAt", Instant.ofEpochMilli(o.createdAtMs()).toString());
        doc.put("paymentDeadline", o.expireAtMs() == null ? null : Instant.ofEpochMilli(o.expireAtMs()).toString());
        doc.put("legalTargets", d.legalTargets().stream().map(Enum::name).sorted().toList());
        // What the console's order page shows beside the states: when the status began, a retired terminal order, the
        // cancel-queue entry's expiry, a rebuild during this lookup, the moves still in the outbox, a deliberate removal.
        doc.put("statusSince", o.statusSinceMs() <= 0 ? null : Instant.ofEpochMilli(o.statusSinceMs()).toString());
        doc.put("retired", o.retired());
        doc.put("queueExpiry", d.queueExpiryMs() == null ? null : Instant.ofEpochMilli(d.queueExpiryMs()).toString());
        doc.put("rebuilt", d.rebuilt());
        List<Map<String, Object>> pending = new ArrayList<>();
        for (HistoryEntry h : d.pending()) {
            pending.add(FeedRoute.entryDocument(h));
        }
        doc.put("pending", pending);
        OrderDetails.QueueRemoval removal = d.queueRemoval();
        doc.put("queueRemoval", removal == null ? null : Map.of("auditId", removal.auditId(),
                "at", Instant.ofEpochMilli(removal.atMs()).toString(), "actor", removal.actor(), "reason", removal.reason()));
        if (withHistory) {
            List<Map<String, Object>> history = new ArrayList<>();
            for (HistoryEntry h : d.history()) {
                history.add(FeedRoute.entryDocument(h));
            }
            doc.put("history", history);
        }
        return doc;
    }

    private static String checkedId(String id, String what) {
        try {
            return OrderId.require(id, what);
        } catch (IllegalArgumentException e) {
            throw ApiProblem.badInput(e.getMessage());
        }
    }
}
