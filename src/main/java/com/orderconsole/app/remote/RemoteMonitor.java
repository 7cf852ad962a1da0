package com.orderconsole.app.remote;

import com.fasterxml.jackson.databind.JsonNode;
import com.orderconsole.domain.OrderStatus;
import com.orderconsole.domain.ResultCode;
import com.orderconsole.service.monitor.Edge;
import com.orderconsole.service.monitor.MinuteCount;
import com.orderconsole.service.monitor.Monitor;
import com.orderconsole.service.monitor.StateCounts;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * The state graph's and the Monitor page's counts through serve: {@code GET /v1/stats}, read afresh by each call, as
 * in-process (a count read just after a change shows it).
 */
public final class RemoteMonitor implements Monitor {
    private static final Comparator<Edge> EDGE_ORDER = Comparator.comparing(Edge::from,
            Comparator.nullsFirst(Comparator.<OrderStatus>naturalOrder())).thenComparing(Edge::to);

    private final ServeClient serve;

    /** @param serve the client of the signed-in person's serve */
    public RemoteMonitor(ServeClient serve) {
        this.serve = serve;
    }

    private JsonNode stats() {
        return serve.get("/v1/stats");
    }

    @Override
    public StateCounts stateCounts() {
        JsonNode statuses = CoreRecords.need(stats(), "statuses");
        Map<OrderStatus, Long> live = new EnumMap<>(OrderStatus.class);
        Map<OrderStatus, Long> stuck = new EnumMap<>(OrderStatus.class);
        for (OrderStatus st : OrderStatus.values()) {
            JsonNode row = statuses.path(st.name());
            live.put(st, row.path("orders").asLong());
            if (row.hasNonNull("stuck")) {
                stuck.put(st, row.get("stuck").asLong());
            }
        }
        return new StateCounts(live, stuck);
    }

    @Override
    public Map<OrderStatus, Long> mysqlCounts() {
        JsonNode statuses = CoreRecords.need(serve.get("/v1/stats?mysqlCounts=true"), "statuses");
        Map<OrderStatus, Long> out = new EnumMap<>(OrderStatus.class);
        for (OrderStatus st : OrderStatus.values()) {
            out.put(st, statuses.path(st.name()).path("mysql").asLong());
        }
        return out;
    }

    @Override
    public Map<ResultCode, Long> resultCounts() {
        JsonNode results = CoreRecords.need(stats(), "results");
        Map<ResultCode, Long> out = new EnumMap<>(ResultCode.class);
        for (ResultCode c : ResultCode.values()) {
            out.put(c, results.path(c.name()).path("count").asLong());
        }
        return out;
    }

    @Override
    public Map<Edge, Long> transitionsLastHour() {
        Map<Edge, Long> out = new TreeMap<>(EDGE_ORDER);
        for (JsonNode e : CoreRecords.need(stats(), "edges")) {
            long n = e.path("appliedLastHour").asLong();
            if (n > 0) {
                out.put(new Edge(CoreRecords.status(e.get("from")), CoreRecords.status(e.get("to"))), n);
            }
        }
        return out;
    }

    /** @param window how far back, at most the hour serve answers */
    @Override
    public List<MinuteCount> perMinute(Duration window) {
        long since = System.currentTimeMillis() - window.toMillis();
        List<MinuteCount> out = new ArrayList<>();
        for (JsonNode m : CoreRecords.need(stats(), "minutes")) {
            long start = Instant.parse(m.path("minute").asText()).toEpochMilli();
            if (start + 60_000 <= since) {
                continue;
            }
            Map<ResultCode, Long> byCode = new EnumMap<>(ResultCode.class);
            m.path("results").fields().forEachRemaining(f -> byCode.put(ResultCode.valueOf(f.getKey()), f.getValue().asLong()));
            out.add(new MinuteCount(start, byCode));
        }
        return out;
    }
}
