package com.orderconsole.app.remote;

import com.fasterxml.jackson.databind.JsonNode;
import com.orderconsole.domain.Operator;
import com.orderconsole.service.deadletter.DeadLetter;
import com.orderconsole.service.deadletter.DeadLetters;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Dead letters through serve: {@code GET /v1/dead-letters}, {@code POST /v1/dead-letters/{id}/retry} and {@code /discard}.
 * The operator is whoever the access token names (serve checks the role); a retry or discard carries its count (one letter)
 * confirmed, as the console asked for it before calling on production.
 */
public final class RemoteDeadLetters implements DeadLetters {
    /** The most letters serve lists at once. */
    static final int MAX_LIMIT = 10_000;

    private final ServeClient serve;

    /** @param serve the client of the signed-in person's serve */
    public RemoteDeadLetters(ServeClient serve) {
        this.serve = serve;
    }

    @Override
    public List<DeadLetter> open(int limit) {
        List<DeadLetter> out = new ArrayList<>();
        call(() -> serve.get(ServeClient.path("/v1/dead-letters", "limit", Math.max(1, Math.min(limit, MAX_LIMIT)))))
                .path("letters").forEach(d -> out.add(ServeRecords.deadLetter(d)));
        return out;
    }

    @Override
    public long countOpen() {
        return ServeRecords.need(call(() -> serve.get("/v1/dead-letters?limit=1")), "open").asLong();
    }

    @Override
    public DeadLetter retry(Operator operator, long id) {
        return close(id, "retry", null);
    }

    @Override
    public DeadLetter discard(Operator operator, long id, String reason) {
        return close(id, "discard", reason);
    }

    private DeadLetter close(long id, String how, String reason) {
        Map<String, Object> body = new LinkedHashMap<>();
        if (reason != null) {
            body.put("reason", reason);
        }
        body.put("confirmCount", 1);
        return ServeRecords.deadLetter(call(() -> serve.post("/v1/dead-letters/" + id + "/" + how, body)));
    }

    private static JsonNode call(java.util.function.Supplier<JsonNode> request) {
        try {
            return request.get();
        } catch (ApiRefusal r) {
            throw Refusals.of(r);
        }
    }
}
