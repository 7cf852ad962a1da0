package com.orderconsole.api;

import com.orderconsole.app.ProductionGuard;
import com.orderconsole.domain.Operator;
import com.orderconsole.service.deadletter.DeadLetter;
import com.orderconsole.service.deadletter.DeadLetterService;

import java.io.IOException;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Dead letters, as the console and {@code dead-letters} have them: {@code GET /v1/dead-letters} (the open ones, oldest
 * first; every role), {@code POST /v1/dead-letters/{id}/retry} and {@code /discard} (ops or higher by the service's rule,
 * a discard with a reason; guarded on production).
 */
final class DeadLetterRoutes {
    static final int DEFAULT_LIMIT = 100;
    private static final Set<String> CHANGE_FIELDS = Set.of("reason", "confirmCount");

    private final DeadLetterService letters;
    private final MysqlWork mysql;
    private final ApiGuard guard;

    DeadLetterRoutes(DeadLetterService letters, MysqlWork mysql, ApiGuard guard) {
        this.letters = letters;
        this.mysql = mysql;
        this.guard = guard;
    }

    List<Route> routes() {
        return List.of(
                Route.get("/v1/dead-letters", this::list, "limit"),
                Route.post("/v1/dead-letters/{id}/retry", call -> close(call, true)),
                Route.post("/v1/dead-letters/{id}/discard", call -> close(call, false)));
    }

    private void list(ApiCall call) {
        int limit = new QueryParams(call).number("limit", DEFAULT_LIMIT, 1, 10_000);
        mysql.answer(call, 200, () -> {
            List<Map<String, Object>> rows = new ArrayList<>();
            letters.open(limit).forEach(d -> rows.add(document(d)));
            Map<String, Object> doc = new LinkedHashMap<>();
            doc.put("open", letters.countOpen());
            doc.put("letters", rows);
            return doc;
        }, "nothing was changed; ask again");
    }

    private void close(ApiCall call, boolean retry) throws IOException {
        long id = QueryParams.number(call.id(), "dead letter id", 0, 1, Integer.MAX_VALUE);
        JsonBody body = JsonBody.read(call.contentType(), call::body, CHANGE_FIELDS);
        String reason = body.text("reason");
        if (!retry && (reason == null || reason.isBlank())) {
            throw ApiProblem.badInput("discarding a dead letter needs a \"reason\"; nothing was changed");
        }
        guard.check(ProductionGuard.Action.DEAD_LETTER, 1, (retry ? "retrying" : "discarding") + " dead letter " + id, reason,
                body.positiveLong("confirmCount"));
        Operator who = call.operator();
        mysql.answer(call, 200, () -> document(retry ? letters.retry(who, id) : letters.discard(who, id, reason)),
                "the letter may be closed all the same: GET /v1/dead-letters says");
    }

    private static Map<String, Object> document(DeadLetter d) {
        Map<String, Object> doc = new LinkedHashMap<>();
        doc.put("id", d.id());
        doc.put("kind", d.kind());
        doc.put("orderId", d.orderId());
        doc.put("bucket", d.bucket());
        doc.put("entryId", d.entryId());
        doc.put("reason", d.reason());
        doc.put("body", d.body());
        doc.put("createdAt", Instant.ofEpochMilli(d.createdAtMs()).toString());
        doc.put("state", d.state());
        doc.put("resolvedBy", d.resolvedBy());
        doc.put("resolution", d.resolution());
        return doc;
    }
}
