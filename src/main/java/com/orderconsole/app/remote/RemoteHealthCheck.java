package com.orderconsole.app.remote;

import com.fasterxml.jackson.databind.JsonNode;
import com.orderconsole.service.monitor.Health;
import com.orderconsole.service.monitor.HealthCheck;
import com.orderconsole.service.monitor.RedisMaster;

import java.util.ArrayList;
import java.util.List;

/**
 * Both stores' health as serve sees them ({@code GET /v1/health}), for the status bar. serve's own state comes first:
 * when serve does not answer, {@link #check()} throws {@link ServeUnavailableException} in words (refused, timed out,
 * 503 with its wait) and the status bar says that; when serve answers again after it did not, or after it restarted, the
 * reading carries that as its first notice, so the status bar says the console works on by itself.
 */
public final class RemoteHealthCheck implements HealthCheck {
    private final ServeClient serve;

    /** @param serve the client of the signed-in person's serve */
    public RemoteHealthCheck(ServeClient serve) {
        this.serve = serve;
    }

    @Override
    public Health check() {
        JsonNode h = serve.get("/v1/health");
        List<String> warnings = new ArrayList<>();
        List<Health.Notice> notices = new ArrayList<>();
        ServeStatus st = serve.status();
        if (st.state() == ServeStatus.State.RECOVERED || st.state() == ServeStatus.State.RESTARTED) {
            warnings.add(st.words());
            notices.add(new Health.Notice("plain", List.of(st.words())));
        }
        List<String> serveWarnings = new ArrayList<>();
        h.path("warnings").forEach(w -> serveWarnings.add(w.asText()));
        warnings.addAll(serveWarnings);
        JsonNode keyed = h.get("notices");
        if (keyed != null && keyed.size() == serveWarnings.size()) {
            for (JsonNode n : keyed) {
                List<Object> args = new ArrayList<>();
                n.path("args").forEach(a -> args.add(a.isIntegralNumber() ? (Object) a.asLong() : a.isNumber() ? (Object) a.asDouble()
                        : a.asText()));
                notices.add(new Health.Notice(n.path("key").asText("plain"), args));
            }
        } else {
            serveWarnings.forEach(w -> notices.add(new Health.Notice("plain", List.of(w))));
        }
        int total = 0;
        for (JsonNode m : h.path("masters")) {
            total += m.path("buckets").asInt();
        }
        List<RedisMaster> masters = new ArrayList<>();
        for (JsonNode m : h.path("masters")) {
            int b = m.path("buckets").asInt();
            masters.add(new RedisMaster(m.path("where").asText(), b, total == 0 ? 0 : (double) b / total));
        }
        Long rules = h.hasNonNull("rulesVersion") ? h.get("rulesVersion").asLong() : null;
        return new Health(h.path("redisUp").asBoolean(), h.path("mysqlUp").asBoolean(), rules, warnings, notices, masters);
    }
}
