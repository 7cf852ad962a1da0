package com.orderconsole.api;

import com.orderconsole.domain.OrderStatus;
import com.orderconsole.domain.ResultCode;
import com.orderconsole.service.monitor.Edge;
import com.orderconsole.service.monitor.MonitorService;
import com.orderconsole.service.monitor.StateCounts;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeSet;

/**
 * {@code GET /v1/stats}: the state graph's counts (orders per status, stuck per status, moves per edge) and the result
 * codes counted, with the last hour's moves per minute, as the console's state graph and monitor pages read them. A read: every role may make it.
 *
 * <p>One counted document answers every caller for {@link #SHARED}, and callers arriving while it is being counted wait
 * for that count: counting costs serve about 30 ms of CPU across Redis, MySQL and the JVM at a million orders, so 50
 * consoles refreshing their state graphs every 2 s would otherwise take a third of a core from the transitions. The
 * document says when it was counted ({@code countedAt}). Asked with MySQL's own counts, it is counted afresh.
 */
final class StatsRoutes {
    /** How far back the per-minute counts go: the monitor page's window. */
    static final java.time.Duration MINUTES = java.time.Duration.ofHours(1);

    /** How long one counted document answers every caller. */
    static final java.time.Duration SHARED = java.time.Duration.ofSeconds(1);

    private final MonitorService monitor;
    private final MysqlWork mysql;
    private final Object counting = new Object();
    private volatile Counted last;

    /** A counted document and when its count began, System.nanoTime(). */
    private record Counted(Map<String, Object> document, long startedNanos) {
        boolean fresh() {
            return System.nanoTime() - startedNanos < SHARED.toNanos();
        }
    }

    StatsRoutes(MonitorService monitor, MysqlWork mysql) {
        this.monitor = monitor;
        this.mysql = mysql;
    }

    List<Route> routes() {
        return List.of(Route.get("/v1/stats", call -> {
            boolean withMysql = new QueryParams(call).flag("mysqlCounts");
            mysql.answer(call, 200, () -> withMysql ? document(true) : shared(), "nothing was changed; ask again");
        }, "mysqlCounts"));
    }

    /**
     * Drops the shared document, so the next caller gets a fresh count: called after a change made through this serve
     * that moves counts at once (new rules or stuck thresholds, a recount or another repair), which the person who made
     * it expects to see on their next refresh.
     */
    void forget() {
        last = null;
    }

    /** @return the document counted within {@link #SHARED}, or one counted now (once for every caller waiting) */
    private Map<String, Object> shared() {
        Counted c = last;
        if (c != null && c.fresh()) {
            return c.document();
        }
        synchronized (counting) {
            c = last;
            if (c == null || !c.fresh()) {
                long started = System.nanoTime();
                c = new Counted(document(false), started);
                last = c;
            }
            return c.document();
        }
    }

    /**
     * @param withMysql true to count each status in MySQL too (a count over the orders table: only when asked, as
     *     {@code stats} does, never on the state graph's refresh)
     */
    private Map<String, Object> document(boolean withMysql) {
        String countedAt = java.time.Instant.now().toString();
        StateCounts counts = monitor.stateCounts();
        Map<OrderStatus, Long> inMysql = withMysql ? monitor.mysqlCounts() : null;
        Map<String, Object> statuses = new LinkedHashMap<>();
        for (OrderStatus st : OrderStatus.values()) {
            Map<String, Object> row = new LinkedHashMap<>();
            row.put("code", st.code());
            row.put("orders", counts.live().getOrDefault(st, 0L));
            row.put("stuck", counts.stuck().get(st));
            if (inMysql != null) {
                row.put("mysql", inMysql.getOrDefault(st, 0L));
            }
            statuses.put(st.name(), row);
        }
        Map<Edge, Long> total = monitor.appliedByEdge();
        Map<Edge, Long> lastHour = monitor.transitionsLastHour();
        Map<Edge, Map<ResultCode, Long>> rejected = monitor.rejectionsByEdge();
        TreeSet<Edge> edges = new TreeSet<>(java.util.Comparator.comparing((Edge e) -> e.from() == null ? 0 : e.from().code())
                .thenComparing(e -> e.to().code()));
        edges.addAll(total.keySet());
        edges.addAll(lastHour.keySet());
        edges.addAll(rejected.keySet());
        List<Map<String, Object>> edgeDocs = new ArrayList<>();
        for (Edge e : edges) {
            Map<String, Object> row = new LinkedHashMap<>();
            row.put("from", e.from() == null ? null : e.from().name());
            row.put("to", e.to().name());
            row.put("applied", total.getOrDefault(e, 0L));
            row.put("appliedLastHour", lastHour.getOrDefault(e, 0L));
            Map<String, Long> why = new LinkedHashMap<>();
            rejected.getOrDefault(e, Map.of()).forEach((code, n) -> why.put(code.name(), n));
            row.put("rejected", why);
            edgeDocs.add(row);
        }
        Map<String, Object> results = new LinkedHashMap<>();
        monitor.resultCounts().forEach((c, n) -> {
            Map<String, Object> row = new LinkedHashMap<>();
            row.put("code", c.code());
            row.put("count", n);
            row.put("description", c.description());
            results.put(c.name(), row);
        });
        List<Map<String, Object>> minutes = new ArrayList<>();
        for (com.orderconsole.service.monitor.MinuteCount m : monitor.perMinute(MINUTES)) {
            Map<String, Long> byCode = new LinkedHashMap<>();
            m.byCode().forEach((c, n) -> byCode.put(c.name(), n));
            minutes.add(Map.of("minute", java.time.Instant.ofEpochMilli(m.minuteStartMs()).toString(), "results", byCode));
        }
        Map<String, Object> doc = new LinkedHashMap<>();
        doc.put("statuses", statuses);
        doc.put("edges", edgeDocs);
        doc.put("results", results);
        doc.put("minutes", minutes);
        doc.put("countedAt", countedAt);
        return java.util.Collections.unmodifiableMap(doc);
    }
}
