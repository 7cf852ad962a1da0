package com.orderconsole.api;

import com.orderconsole.app.ProductionGuard;
import com.orderconsole.domain.InvalidRulesException;
import com.orderconsole.domain.Operator;
import com.orderconsole.domain.TransitionRules;
import com.orderconsole.service.rules.RulesImpact;
import com.orderconsole.service.rules.RulesJson;
import com.orderconsole.service.rules.RulesService;
import com.orderconsole.service.rules.RulesWhatIf;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * The transition rules, as the console's rules page and {@code rules} have them: {@code GET /v1/rules} (the document in
 * force; every role), {@code POST /v1/rules/what-if} (what a new document would do to the orders there are now; changes
 * nothing; every role) and {@code PUT /v1/rules} (puts a new document in force: ops or higher by the service's rule,
 * guarded on production). A document is the one {@code rules export} writes, given as {@code "rules"}.
 */
final class RulesRoutes {
    private final RulesService rules;
    private final RulesWhatIf whatIf;
    private final MysqlWork mysql;
    private final ApiGuard guard;
    private final Runnable countsMoved;

    /** @param countsMoved called after new rules are in force (the stuck counts follow their thresholds) */
    RulesRoutes(RulesService rules, RulesWhatIf whatIf, MysqlWork mysql, ApiGuard guard, Runnable countsMoved) {
        this.rules = rules;
        this.whatIf = whatIf;
        this.mysql = mysql;
        this.guard = guard;
        this.countsMoved = countsMoved;
    }

    List<Route> routes() {
        return List.of(
                Route.get("/v1/rules", call -> call.result(200, RulesJson.write(rules.current()).getBytes(StandardCharsets.UTF_8))),
                Route.post("/v1/rules/what-if", this::whatIf),
                new Route("PUT", "/v1/rules", Set.of(), false, false, this::change));
    }

    private static String document(JsonBody body) {
        String doc = body.object("rules");
        if (doc == null) {
            throw ApiProblem.badInput("rules is missing: the rules document, as GET /v1/rules answers it");
        }
        return doc;
    }

    private void whatIf(ApiCall call) throws IOException {
        String doc = document(JsonBody.read(call.contentType(), call::body, Set.of("rules")));
        mysql.answer(call, 200, () -> impactDocument(whatIf.whatIf(doc)), "nothing was changed; ask again");
    }

    private void change(ApiCall call) throws IOException {
        JsonBody body = JsonBody.read(call.contentType(), call::body, Set.of("rules", "reason", "confirmCount"));
        String doc = document(body);
        try {
            rules.validate(doc); // an invalid document is refused as such, whatever the confirmation says
        } catch (InvalidRulesException e) {
            throw refused(e);
        }
        String reason = body.text("reason");
        guard.check(ProductionGuard.Action.RULES_CHANGE, 1, "putting new transition rules in force", reason,
                body.positiveLong("confirmCount"));
        Operator who = call.operator();
        mysql.answer(call, 200, () -> {
            TransitionRules now;
            try {
                now = rules.set(who, doc);
                countsMoved.run();
            } catch (InvalidRulesException e) {
                throw refused(e);
            } catch (IllegalStateException e) {
                throw ApiProblem.conflict(e.getMessage());
            }
            return tree(RulesJson.write(now));
        }, "the rules may be in force all the same: GET /v1/rules says which version is");
    }

    private static Object tree(String json) {
        try {
            return ApiCall.JSON.readTree(json);
        } catch (IOException e) {
            throw new java.io.UncheckedIOException(e);
        }
    }

    private static ApiProblem refused(InvalidRulesException e) {
        return ApiProblem.badInput("the rules document is not valid: " + String.join("; ", e.faults()) + "; nothing was changed")
                .with("faults", e.faults());
    }

    private static Map<String, Object> impactDocument(RulesImpact r) {
        List<Map<String, Object>> statuses = new ArrayList<>();
        for (RulesImpact.StatusImpact s : r.statuses()) {
            Map<String, Object> row = new LinkedHashMap<>();
            row.put("status", s.status().name());
            row.put("exitsBefore", s.exitsBefore().stream().map(Enum::name).sorted().toList());
            row.put("exitsAfter", s.exitsAfter().stream().map(Enum::name).sorted().toList());
            List<Map<String, Object>> removed = new ArrayList<>();
            for (RulesImpact.RemovedExit x : s.removed()) {
                removed.add(Map.of("from", x.from().name(), "to", x.to().name(), "appliedLastHour", x.appliedLastHour()));
            }
            row.put("removed", removed);
            row.put("live", s.live());
            row.put("stuck", s.stuck());
            row.put("losesEveryExit", s.losesEveryExit());
            row.put("sample", s.sample());
            statuses.add(row);
        }
        Map<String, Object> doc = new LinkedHashMap<>();
        doc.put("inForceVersion", r.inForceVersion());
        doc.put("readable", r.readable());
        doc.put("faults", r.faults().stream().map(com.orderconsole.domain.RulesFault::english).toList());
        doc.put("statuses", statuses);
        doc.put("timeoutCancelKept", r.timeoutCancelKept());
        doc.put("waitPayLive", r.waitPayLive());
        doc.put("waitPaySample", r.waitPaySample());
        doc.put("stranded", r.stranded());
        doc.put("stuckLosingAnExit", r.stuckLosingAnExit());
        doc.put("harmful", r.harmful());
        doc.put("at", Instant.ofEpochMilli(r.atMs()).toString());
        return doc;
    }
}
