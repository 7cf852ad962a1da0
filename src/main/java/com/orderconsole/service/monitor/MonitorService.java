package com.orderconsole.service.monitor;

import com.orderconsole.domain.OrderStatus;
import com.orderconsole.domain.ResultCode;
import com.orderconsole.redis.RedisConnection;
import com.orderconsole.redis.StatsStore;
import com.orderconsole.service.rules.StuckThresholds;
import com.orderconsole.store.CountRow;
import com.orderconsole.store.Database;

import java.time.Duration;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * Counters for the console and {@code stats}: result codes and edges counted by transition.lua in
 * Redis (every process's transitions, since the counters were last reset), live status counts, stuck
 * counts and per-minute history from MySQL.
 *
 * <p>Terminal statuses are counted in MySQL: their orders leave Redis after the retention, so Redis'
 * counters of them mean nothing. Counting millions of rows takes seconds: once a count took longer than
 * {@link #SLOW_COUNT_MS} ms, the last count is handed out and refreshed in the background when older than
 * {@link #TERMINAL_COUNT_REFRESH_MS} ms, so the graph never waits for it; a quick count is made every time.
 */
public final class MonitorService implements Monitor {
    private final RedisConnection redis;
    private final StatsStore stats;
    private final Database db;
    private final StuckThresholds stuck;
    private final com.orderconsole.service.follower.TerminalRetention retention;
    /** How old, ms, the kept MySQL count of terminal orders may be before a background recount starts. */
    static final long TERMINAL_COUNT_REFRESH_MS = 10_000;
    /** A MySQL count slower than this, ms, is kept and refreshed in the background instead of made per call. */
    static final long SLOW_COUNT_MS = 100;
    private volatile long lastCountTookMs;
    private volatile Map<OrderStatus, Long> terminalCounts;
    private volatile long terminalCountedAtMs;
    private final java.util.concurrent.atomic.AtomicBoolean recounting = new java.util.concurrent.atomic.AtomicBoolean();

    /** Built by the wiring ({@code app.Services}); {@code redis} gives Redis {@code TIME}. */
    public MonitorService(RedisConnection redis, StatsStore stats, Database db, StuckThresholds stuck) {
        this(redis, stats, db, stuck, null);
    }

    /**
     * Built by the wiring ({@code app.Services}); {@code redis} gives Redis {@code TIME}.
     *
     * @param retention which statuses are terminal (counted in MySQL); null to count every status in Redis
     */
    public MonitorService(RedisConnection redis, StatsStore stats, Database db, StuckThresholds stuck,
                          com.orderconsole.service.follower.TerminalRetention retention) {
        this.redis = redis;
        this.stats = stats;
        this.db = db;
        this.stuck = stuck;
        this.retention = retention;
    }

    /**
     * @return count per status (non-terminal: Redis live counters; terminal: MySQL, refreshed at most every
     *     10 s in the background) and stuck count per non-terminal status (every status present)
     */
    public StateCounts stateCounts() {
        Map<String, Long> s = stats.all();
        Map<OrderStatus, Long> live = new EnumMap<>(OrderStatus.class);
        java.util.Set<OrderStatus> terminal = retention == null ? java.util.Set.of() : retention.terminalStatuses();
        Map<OrderStatus, Long> durable = terminal.isEmpty() ? Map.of() : terminalCounts();
        for (OrderStatus st : OrderStatus.values()) {
            live.put(st, terminal.contains(st) ? durable.getOrDefault(st, 0L) : Math.max(0, s.getOrDefault("n:" + st.code(), 0L)));
        }
        long now = redis.nowMs();
        Map<OrderStatus, Duration> limits = stuck.all();
        Map<OrderStatus, Long> stuckCounts = new EnumMap<>(OrderStatus.class);
        db.read(t -> {
            limits.forEach((st, d) -> stuckCounts.put(st, t.orders().countStuck(st.code(), now - d.toMillis())));
            return null;
        });
        return new StateCounts(live, stuckCounts);
    }

    /**
     * MySQL's count per status as last counted: counted now the first time, then handed out at once and
     * counted again in the background when older than {@link #TERMINAL_COUNT_REFRESH_MS}.
     */
    private Map<OrderStatus, Long> terminalCounts() {
        Map<OrderStatus, Long> kept = terminalCounts;
        if (kept == null || lastCountTookMs < SLOW_COUNT_MS) {
            recountTerminal();
            return terminalCounts;
        }
        if (System.currentTimeMillis() - terminalCountedAtMs > TERMINAL_COUNT_REFRESH_MS && recounting.compareAndSet(false, true)) {
            Thread t = new Thread(() -> {
                try {
                    recountTerminal();
                } catch (RuntimeException e) {
                    // MySQL down: the status bar says so; the last count stays until the next try.
                } finally {
                    recounting.set(false);
                }
            }, "terminal-count");
            t.setDaemon(true);
            t.start();
        }
        return kept;
    }

    private void recountTerminal() {
        long t0 = System.nanoTime();
        terminalCounts = mysqlCounts();
        terminalCountedAtMs = System.currentTimeMillis();
        lastCountTookMs = (System.nanoTime() - t0) / 1_000_000;
    }

    /** @return orders per status in MySQL (exact, slower at scale than {@link #stateCounts()}) */
    public Map<OrderStatus, Long> mysqlCounts() {
        Map<OrderStatus, Long> out = new EnumMap<>(OrderStatus.class);
        for (OrderStatus st : OrderStatus.values()) {
            out.put(st, 0L);
        }
        db.read(t -> t.orders().countByStatus()).forEach((code, n) -> out.put(OrderStatus.ofCode(code), n));
        return out;
    }

    /** @return every result code with how often transition.lua returned it */
    public Map<ResultCode, Long> resultCounts() {
        Map<String, Long> s = stats.all();
        Map<ResultCode, Long> out = new EnumMap<>(ResultCode.class);
        for (ResultCode c : ResultCode.values()) {
            out.put(c, s.getOrDefault("c:" + c.code(), 0L));
        }
        return out;
    }

    /** @return applied transitions per edge since the counters began */
    public Map<Edge, Long> appliedByEdge() {
        Map<Edge, Long> out = new TreeMap<>(EDGE_ORDER);
        stats.all().forEach((k, v) -> {
            if (k.startsWith("e:")) {
                String[] p = k.substring(2).split(">");
                out.put(new Edge(OrderStatus.ofCode(Integer.parseInt(p[0])), OrderStatus.ofCode(Integer.parseInt(p[1]))), v);
            }
        });
        return out;
    }

    /** @return rejected attempts per (edge, result code) since the counters began */
    public Map<Edge, Map<ResultCode, Long>> rejectionsByEdge() {
        Map<Edge, Map<ResultCode, Long>> out = new TreeMap<>(EDGE_ORDER);
        stats.all().forEach((k, v) -> {
            if (k.startsWith("r:")) {
                String[] p = k.substring(2).split("[>:]");
                Edge e = new Edge(OrderStatus.ofCode(Integer.parseInt(p[0])), OrderStatus.ofCode(Integer.parseInt(p[1])));
                out.computeIfAbsent(e, x -> new EnumMap<>(ResultCode.class)).put(ResultCode.ofCode(Integer.parseInt(p[2])), v);
            }
        });
        return out;
    }

    /** @return applied transitions per edge during the last hour (MySQL history; lags by the sync delay) */
    public Map<Edge, Long> transitionsLastHour() {
        long since = redis.nowMs() - Duration.ofHours(1).toMillis();
        Map<Edge, Long> out = new TreeMap<>(EDGE_ORDER);
        for (CountRow r : db.read(t -> t.history().appliedEdgesSince(since))) {
            out.put(new Edge(OrderStatus.ofCode(r.key), OrderStatus.ofCode(r.key2)), r.n);
        }
        return out;
    }

    /**
     * @param window how far back, e.g. 60 minutes
     * @return one entry per minute that had history, oldest first
     */
    public List<MinuteCount> perMinute(Duration window) {
        long since = redis.nowMs() - window.toMillis();
        Map<Long, Map<ResultCode, Long>> byMinute = new TreeMap<>();
        for (CountRow r : db.read(t -> t.history().perMinuteSince(since))) {
            byMinute.computeIfAbsent((long) r.key * 60_000L, k -> new EnumMap<>(ResultCode.class))
                    .put(ResultCode.ofCode(r.key2), r.n);
        }
        List<MinuteCount> out = new ArrayList<>();
        byMinute.forEach((m, c) -> out.add(new MinuteCount(m, c)));
        return out;
    }

    private static final java.util.Comparator<Edge> EDGE_ORDER =
            java.util.Comparator.comparing(Edge::from).thenComparing(Edge::to);
}
