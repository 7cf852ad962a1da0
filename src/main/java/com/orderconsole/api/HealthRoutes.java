package com.orderconsole.api;

import com.orderconsole.app.Services;
import com.orderconsole.service.follower.FollowerStatus;
import com.orderconsole.service.metrics.Readiness;
import com.orderconsole.service.metrics.Reading;
import com.orderconsole.service.monitor.Health;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * {@code GET /v1/openapi.json} (no credentials), {@code GET /health/live}, {@code GET /health/ready} (the load balancer's
 * probes), and {@code GET /v1/health}: the engine's health as the console's status bar and {@code stats} show it.
 */
final class HealthRoutes {
    private final Services s;
    private final MysqlWork mysql;
    private final byte[] openApi = openApiDocument();

    HealthRoutes(Services s, MysqlWork mysql) {
        this.s = s;
        this.mysql = mysql;
    }

    List<Route> routes() {
        return List.of(
                Route.get("/v1/openapi.json", call -> call.result(200, openApi)).anyParams().withoutCredentials(),
                Route.get("/health/live", call -> call.json(200, Readiness.liveDocument())).anyParams(),
                Route.get("/health/ready", this::ready).anyParams(),
                Route.get("/v1/health", call -> mysql.answer(call, 200, this::health, "nothing was changed; ask again")),
                Route.get("/v1/alerts/reading", call -> call.json(200, alertReading(s.metrics().reading()))));
    }

    private Map<String, Object> health() {
        Health h = s.health().check();
        FollowerStatus f = s.follower().status();
        Map<String, Object> sync = new LinkedHashMap<>();
        sync.put("pending", f.pending());
        sync.put("pendingCapped", f.pendingCapped());
        sync.put("oldestPendingAgeMs", f.oldestPendingAgeMs());
        sync.put("lastError", f.lastError());
        sync.put("backlogWarning", f.backlogWarning());
        List<Map<String, Object>> masters = h.masters().stream().map(m -> Map.<String, Object>of("where", m.where(),
                "buckets", m.buckets())).toList();
        Map<String, Object> doc = new LinkedHashMap<>();
        doc.put("redisUp", h.redisUp());
        doc.put("mysqlUp", h.mysqlUp());
        doc.put("rulesVersion", h.rulesVersion());
        doc.put("warnings", h.warnings());
        // The same warnings as text keys with their values, so a console says them in its user's language.
        doc.put("notices", h.notices().stream().map(n -> Map.<String, Object>of("key", n.key(), "args", n.args())).toList());
        doc.put("masters", masters);
        doc.put("sync", sync);
        doc.put("deadLetters", h.mysqlUp() ? s.deadLetters().countOpen() : null);
        return doc;
    }

    /**
     * The figures the alerts judge, from the latest reading (never waits on a server): a console judges them against its
     * own thresholds and says when an incident begins or clears, as it does on its own stores.
     */
    static Map<String, Object> alertReading(Reading r) {
        Map<String, Object> doc = new LinkedHashMap<>();
        doc.put("redisOk", r.redisOk());
        doc.put("mysqlOk", r.mysqlOk());
        doc.put("atMs", r.atMs());
        doc.put("syncBacklog", r.syncBacklog());
        doc.put("syncLagMs", r.syncLagMs());
        doc.put("sweeperTickAgeMs", r.sweeperTickAgeMs());
        doc.put("sweeperPaused", r.sweeperPaused());
        doc.put("queueDepth", r.queueDepth());
        doc.put("queueOverdue", r.queueOverdue());
        doc.put("oldestOverdueMs", r.oldestOverdueMs());
        Map<String, Long> results = new LinkedHashMap<>();
        r.results().forEach((c, n) -> results.put(c.name(), n));
        doc.put("results", results);
        doc.put("problems", r.problems());
        return doc;
    }

    private void ready(ApiCall call) {
        Readiness r = s.metrics().readiness();
        call.json(r.httpStatus(), r.document());
    }

    private static byte[] openApiDocument() {
        try (InputStream in = HealthRoutes.class.getResourceAsStream("/api/openapi.json")) {
            if (in == null) {
                throw new IllegalStateException("the OpenAPI document is missing from the build"); // i18n-ok: a defect
            }
            return in.readAllBytes();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
