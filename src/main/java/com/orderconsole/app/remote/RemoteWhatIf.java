package com.orderconsole.app.remote;

import com.fasterxml.jackson.databind.JsonNode;
import com.orderconsole.domain.OrderStatus;
import com.orderconsole.service.rules.RulesImpact;
import com.orderconsole.service.rules.RulesJson;
import com.orderconsole.service.rules.WhatIf;

import java.io.IOException;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * What a rules document would do to today's orders, through serve: {@code POST /v1/rules/what-if}. Changes nothing. The
 * document's faults come from the same parser here (with their text keys, so the page words them in its language); a
 * document nothing can be read from is answered without asking serve, as in-process.
 */
public final class RemoteWhatIf implements WhatIf {
    private final ServeClient serve;

    /** @param serve the client of the signed-in person's serve */
    public RemoteWhatIf(ServeClient serve) {
        this.serve = serve;
    }

    @Override
    public RulesImpact whatIf(String json) {
        long inForce = RulesJson.parse(serve.get("/v1/rules").toString(), 1).version();
        RulesJson.Draft draft = RulesJson.draft(json, inForce + 1);
        JsonNode rules = null;
        if (draft.readable()) {
            try {
                rules = ServeClient.json().readTree(json.startsWith("\uFEFF") ? json.substring(1) : json);
            } catch (IOException e) {
                rules = null;
            }
        }
        if (rules == null || !rules.isObject()) {
            return new RulesImpact(inForce, List.of(), true, 0, List.of(), draft.faults(), false, System.currentTimeMillis());
        }
        JsonNode d;
        try {
            d = serve.post("/v1/rules/what-if", Map.of("rules", rules));
        } catch (ApiRefusal r) {
            throw CoreRecords.refusal(r, null);
        }
        List<RulesImpact.StatusImpact> statuses = new ArrayList<>();
        for (JsonNode s : CoreRecords.need(d, "statuses")) {
            List<RulesImpact.RemovedExit> removed = new ArrayList<>();
            s.path("removed").forEach(x -> removed.add(new RulesImpact.RemovedExit(CoreRecords.status(x.get("from")),
                    CoreRecords.status(x.get("to")), x.path("appliedLastHour").asLong())));
            statuses.add(new RulesImpact.StatusImpact(CoreRecords.status(s.get("status")), set(s.get("exitsBefore")),
                    set(s.get("exitsAfter")), removed, s.path("live").asLong(), s.path("stuck").asLong(),
                    s.path("losesEveryExit").asBoolean(), texts(s.get("sample"))));
        }
        return new RulesImpact(d.path("inForceVersion").asLong(), statuses, d.path("timeoutCancelKept").asBoolean(),
                d.path("waitPayLive").asLong(), texts(d.get("waitPaySample")), draft.faults(),
                d.path("readable").asBoolean(true), CoreRecords.ms(CoreRecords.need(d, "at")));
    }

    private static Set<OrderStatus> set(JsonNode list) {
        Set<OrderStatus> out = EnumSet.noneOf(OrderStatus.class);
        if (list != null) {
            list.forEach(n -> out.add(OrderStatus.valueOf(n.asText())));
        }
        return out;
    }

    private static List<String> texts(JsonNode list) {
        List<String> out = new ArrayList<>();
        if (list != null) {
            list.forEach(n -> out.add(n.asText()));
        }
        return out;
    }
}
