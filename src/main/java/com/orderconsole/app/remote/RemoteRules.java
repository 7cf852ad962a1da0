package com.orderconsole.app.remote;

import com.fasterxml.jackson.databind.JsonNode;
import com.orderconsole.domain.InvalidRulesException;
import com.orderconsole.domain.Operator;
import com.orderconsole.domain.OrderStatus;
import com.orderconsole.domain.TransitionRules;
import com.orderconsole.service.rules.Rules;
import com.orderconsole.service.rules.RulesJson;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * The transition rules through serve: {@code GET /v1/rules} and {@code PUT /v1/rules}. A document is checked here first,
 * by the same parser serve and the in-process service use, so an invalid one is refused with the same faults before
 * anything is sent. The stuck thresholds are part of the rules document: changing them puts the rules in force with new
 * thresholds, as in-process. A change is sent with its count (one) confirmed: the console asked before calling.
 */
public final class RemoteRules implements Rules {
    /** How long the rules read from serve are used before they are read again, as in-process: 1 s. */
    static final long CACHE_MS = 1000;

    private final ServeClient serve;
    private volatile TransitionRules cached;
    private volatile long cachedAt;

    /** @param serve the client of the signed-in person's serve */
    public RemoteRules(ServeClient serve) {
        this.serve = serve;
    }

    @Override
    public TransitionRules current() {
        TransitionRules r = cached;
        if (r == null || System.currentTimeMillis() - cachedAt > CACHE_MS) {
            r = RulesJson.parse(serve.get("/v1/rules").toString(), 1);
            remember(r);
        }
        return r;
    }

    private void remember(TransitionRules r) {
        cached = r;
        cachedAt = System.currentTimeMillis();
    }

    @Override
    public TransitionRules validate(String json) {
        return RulesJson.parse(json, 1);
    }

    /**
     * @throws InvalidRulesException naming every fault (checked here, nothing sent)
     * @throws IllegalStateException when someone else set the rules meanwhile (serve's 409)
     */
    @Override
    public TransitionRules set(Operator operator, String json) {
        validate(json);
        Map<String, Object> body = new LinkedHashMap<>();
        body.put("rules", tree(json));
        body.put("confirmCount", 1);
        try {
            TransitionRules now = RulesJson.parse(serve.put("/v1/rules", body).toString(), 1);
            remember(now);
            return now;
        } catch (ApiRefusal r) {
            cached = null;
            throw CoreRecords.refusal(r, null);
        }
    }

    @Override
    public TransitionRules setStuckThresholds(Operator operator, Map<OrderStatus, Duration> thresholds) {
        return set(operator, RulesJson.write(current().withStuck(thresholds)));
    }

    private static JsonNode tree(String json) {
        try {
            return ServeClient.json().readTree(json);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
