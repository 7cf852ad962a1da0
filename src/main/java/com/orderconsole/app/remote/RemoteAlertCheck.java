package com.orderconsole.app.remote;

import com.fasterxml.jackson.databind.JsonNode;
import com.orderconsole.domain.ResultCode;
import com.orderconsole.service.metrics.Alert;
import com.orderconsole.service.metrics.AlertCheck;
import com.orderconsole.service.metrics.Alerts;
import com.orderconsole.service.metrics.Reading;

import java.util.ArrayList;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;

/**
 * The console's alerts on serve's figures ({@code GET /v1/alerts/reading}): judged here against this console's thresholds
 * by the same {@link Alerts} the in-process console uses, so each incident is said once when it begins and once when it
 * clears, in both modes.
 */
public final class RemoteAlertCheck implements AlertCheck {
    private final ServeClient serve;
    private final Alerts alerts;

    /**
     * @param serve the client of the signed-in person's serve
     * @param thresholds the alert thresholds, as in-process ({@link Alerts.Thresholds#fromSystemProperties()})
     */
    public RemoteAlertCheck(ServeClient serve, Alerts.Thresholds thresholds) {
        this.serve = serve;
        this.alerts = new Alerts(thresholds);
    }

    @Override
    public List<Alert> checkAlerts() {
        JsonNode r = serve.get("/v1/alerts/reading");
        Map<ResultCode, Long> results = new EnumMap<>(ResultCode.class);
        r.path("results").fields().forEachRemaining(f -> results.put(ResultCode.valueOf(f.getKey()), f.getValue().asLong()));
        List<String> problems = new ArrayList<>();
        r.path("problems").forEach(p -> problems.add(p.asText()));
        return alerts.evaluate(new Reading(r.path("redisOk").asBoolean(), r.path("mysqlOk").asBoolean(), r.path("atMs").asLong(),
                r.path("syncBacklog").asLong(), r.path("syncLagMs").asLong(), r.path("sweeperTickAgeMs").asLong(),
                r.path("sweeperPaused").asBoolean(), r.path("queueDepth").asLong(), r.path("queueOverdue").asLong(),
                r.path("oldestOverdueMs").asLong(), results, null, problems));
    }
}
