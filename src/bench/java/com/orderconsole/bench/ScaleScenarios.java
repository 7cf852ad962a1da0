package com.orderconsole.bench;

import com.orderconsole.domain.Operator;
import com.orderconsole.domain.OrderState;
import com.orderconsole.domain.OrderStatus;
import com.orderconsole.domain.TransitionRequest;
import com.orderconsole.redis.RedisKeys;
import com.orderconsole.app.Services;
import com.orderconsole.service.monitor.StateCounts;
import com.orderconsole.service.order.OrderPage;
import com.orderconsole.service.order.OrderQuery;
import com.orderconsole.service.recon.ReconCategory;
import com.orderconsole.service.recon.ReconProgress;
import com.orderconsole.service.recon.ReconReport;
import io.lettuce.core.RedisFuture;

import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;

/**
 * One large data set (default 1,000,000 orders) for memory per order, the console at scale and
 * reconciliation with planted disagreements of every category.
 *
 * <p>Data: a shop that has run for 90 days. 5 % WAIT_PAY, 5 % PAID, 10 % WAIT_SHIP, 20 % SHIPPED,
 * 50 % FINISHED, 10 % CANCELLED; terminal orders spread over 90 days; non-terminal orders spread over
 * 1.2 × their stuck threshold (so about one in six counts as stuck). Every WAIT_PAY order has its
 * cancel-queue entry; no sweeper runs, so the overdue ones stay WAIT_PAY.
 */
final class ScaleScenarios {
    private static final long DAY = Duration.ofDays(1).toMillis();

    private final BenchEnv env;
    private final Table table;
    private final int n;
    private final int planted;
    private final int stride;
    private long now0;

    /**
     * @param orders orders in both stores, e.g. 1,000,000
     */
    ScaleScenarios(BenchEnv env, Table table, int orders) {
        this.env = env;
        this.table = table;
        this.n = orders;
        this.planted = Math.min(300, Math.max(10, orders / 100));
        this.stride = orders / planted;
    }

    private static String id(long i) {
        return String.format("r%08d", i);
    }

    /** Deterministic uniform [0, 1) per order. */
    static double unit(long i) {
        long z = (i + 1) * 0x9E3779B97F4A7C15L;
        z = (z ^ (z >>> 30)) * 0xBF58476D1CE4E5B9L;
        z = (z ^ (z >>> 27)) * 0x94D049BB133111EBL;
        z ^= z >>> 31;
        return (z >>> 11) * 0x1.0p-53;
    }

    static OrderStatus natural(int i) {
        int slot = i % 20;
        return slot == 0 ? OrderStatus.WAIT_PAY : slot == 1 ? OrderStatus.PAID : slot <= 3 ? OrderStatus.WAIT_SHIP
                : slot <= 7 ? OrderStatus.SHIPPED : slot <= 17 ? OrderStatus.FINISHED : OrderStatus.CANCELLED;
    }

    static long version(OrderStatus s) {
        return s == OrderStatus.CANCELLED ? 2 : s.code();
    }

    static long spreadMs(OrderStatus s) {
        return switch (s) {
            case WAIT_PAY -> Duration.ofMinutes(36).toMillis();
            case PAID -> Duration.ofMinutes(144).toMillis();
            case WAIT_SHIP -> Duration.ofHours(58).toMillis();
            case SHIPPED -> Duration.ofDays(17).toMillis();
            default -> 90 * DAY;
        };
    }

    /** @return 1, 2 or 3 for an order with a planted disagreement (exactly `planted` of each), else another number */
    private int kind(int i) {
        return i < (long) planted * stride ? i % stride : -1;
    }

    private BenchEnv.Seed seed(int i) {
        if (i >= n) { // planted: the first `planted` only in MySQL, the next only in Redis
            OrderState st = new OrderState(id(i), OrderStatus.FINISHED, 5, now0 - DAY, now0 - 2 * DAY);
            boolean mysqlOnly = i < n + planted;
            return new BenchEnv.Seed(st, null, !mysqlOnly, mysqlOnly, 5, 5);
        }
        int k = kind(i);
        OrderStatus s = k == 1 ? OrderStatus.FINISHED : k == 2 ? OrderStatus.WAIT_PAY : k == 3 ? OrderStatus.PAID : natural(i);
        long since = now0 - (long) (unit(i) * spreadMs(s));
        long v = version(s);
        OrderState st = new OrderState(id(i), s, v, since, since - (v - 1) * Duration.ofHours(1).toMillis());
        Long expire = s == OrderStatus.WAIT_PAY && k != 2 ? since + BenchEnv.PAYMENT_TIMEOUT.toMillis() : null;
        if (k == 1) { // REDIS_UNEXPLAINED: Redis one version ahead of MySQL, and no history or outbox entry explains it
            return new BenchEnv.Seed(st, null, true, true, OrderStatus.SHIPPED.code(), 4);
        }
        return BenchEnv.Seed.both(st, expire);
    }

    void run() {
        Services s = env.fresh();
        long usedBefore = Long.parseLong(env.info("memory").get("used_memory"));
        now0 = env.redis.nowMs();
        int total = n + 2 * planted;
        long seedMs = env.seed(total, this::seed);
        table.add(Row.info("Seeding " + Table.num(total, 0) + " orders into both stores (pipelined init_order.lua ∥ multi-row INSERT)",
                Table.num(total / (seedMs / 1000.0), 0), "orders/s"));
        // QUEUE_ENTRY_NOT_WAIT_PAY: queue entries for PAID orders.
        List<RedisFuture<Long>> fs = new ArrayList<>();
        for (int i = 3; i < (long) planted * stride; i += stride) {
            fs.add(env.raw.zadd(RedisKeys.cancelQueue(RedisKeys.bucket(id(i))), now0 + DAY, id(i)));
        }
        fs.forEach(f -> env.redis.await(f, "ZADD"));
        memory(usedBefore, n + planted);
        plantSyncPending(s);
        console(s);
        reconcile(s);
    }

    private void memory(long usedBefore, long redisOrders) {
        long usedAfter = Long.parseLong(env.info("memory").get("used_memory"));
        double perOrder = (usedAfter - usedBefore) / (double) redisOrders;
        List<RedisFuture<Long>> fs = new ArrayList<>();
        int samples = Math.min(1000, n);
        for (int k = 0; k < samples; k++) {
            fs.add(env.raw.memoryUsage(RedisKeys.order(id((long) k * n / samples))));
        }
        long sum = 0;
        for (RedisFuture<Long> f : fs) {
            sum += env.redis.await(f, "MEMORY USAGE");
        }
        table.add(Row.info("Redis memory per order (INFO used_memory delta / orders; hash + its share of queue, stats)",
                Table.num(perOrder, 0), "bytes"));
        table.add(Row.info("Redis MEMORY USAGE of one order hash (mean of " + samples + ")", Table.num(sum / (double) samples, 0), "bytes"));
        env.sql("ANALYZE TABLE orders");
        Number data = (Number) env.sqlValue("SELECT data_length FROM information_schema.tables WHERE table_schema = DATABASE() AND table_name = 'orders'");
        Number index = (Number) env.sqlValue("SELECT index_length FROM information_schema.tables WHERE table_schema = DATABASE() AND table_name = 'orders'");
        long rows = ((Number) env.sqlValue("SELECT COUNT(*) FROM orders")).longValue();
        table.add(Row.info("MySQL bytes per orders row (data_length + index_length) / rows; data " + Table.num(data.longValue() / rows, 0)
                + " + 4 indexes " + Table.num(index.longValue() / rows, 0), Table.num((data.longValue() + index.longValue()) / (double) rows, 0), "bytes"));
    }

    /** SYNC_PENDING: transitions Redis has answered that no follower has written yet (rejections, so no state differs). */
    private void plantSyncPending(Services s) {
        Operator op = Operator.system("bench");
        List<CompletableFuture<?>> fs = new ArrayList<>();
        for (int i = 0; fs.size() < planted && i < n; i++) {
            if (kind(i) > 3 && natural(i) == OrderStatus.FINISHED) {
                fs.add(s.transitions().transitionAsync(op, TransitionRequest.of(id(i), OrderStatus.PAID, "bench", "")));
            }
        }
        fs.forEach(f -> env.redis.await(f, "planted transition"));
    }

    private void console(Services s) {
        double[] page = time(11, () -> {
            OrderPage p = s.orders().page(OrderQuery.all(), null, 100);
            if (p.rows().size() != 100) {
                throw new IllegalStateException("first page has " + p.rows().size() + " rows");
            }
        });
        double[] counts = time(11, () -> {
            StateCounts c = s.monitor().stateCounts();
            if (c.live().values().stream().mapToLong(Long::longValue).sum() < n) {
                throw new IllegalStateException("state counts miss orders: " + c.live());
            }
        });
        StateCounts c = s.monitor().stateCounts();
        table.add(Row.judged("Console at " + Table.num(n, 0) + " orders: first page of the order table, 100 rows (first call; median of next 10: "
                + Table.num(median(page), 1) + " ms)", Table.num(page[0], 1), "ms", "< 200 ms", "", page[0] < 200 && median(page) < 200));
        table.add(Row.judged("Console at " + Table.num(n, 0) + " orders: state-graph counts incl. stuck (first call; median of next 10: "
                + Table.num(median(counts), 1) + " ms; " + Table.num(c.stuck().values().stream().mapToLong(Long::longValue).sum(), 0)
                + " stuck)", Table.num(counts[0], 1), "ms", "< 200 ms", "", counts[0] < 200 && median(counts) < 200));
    }

    private void reconcile(Services s) {
        System.gc();
        long baseline = HeapSampler.liveAfterLastGc();
        long t0 = System.nanoTime();
        Map<String, Long> phaseMs = new LinkedHashMap<>();
        String[] phase = {null};
        long[] phaseStart = {t0};
        ReconProgress progress = (p, done, total) -> {
            if (!p.equals(phase[0])) {
                long now = System.nanoTime();
                if (phase[0] != null) {
                    phaseMs.put(phase[0], (now - phaseStart[0]) / 1_000_000);
                }
                phase[0] = p;
                phaseStart[0] = now;
            }
        };
        ReconReport r;
        HeapSampler heap = new HeapSampler();
        try {
            r = s.reconciliation().run(null, progress, () -> System.nanoTime() - t0 > Duration.ofMinutes(5).toNanos());
        } finally {
            heap.close();
        }
        long end = System.nanoTime();
        phaseMs.put(phase[0] + " + sync status", (end - phaseStart[0]) / 1_000_000);
        double seconds = (end - t0) / 1e9;
        long compared = n + 2L * planted;
        table.add(Row.judged("Reconciliation of " + Table.num(compared, 0) + " orders: wall time" + (r.cancelled() ? " (STOPPED by its 5 min bound)" : "")
                + "; phases " + phaseMs.entrySet().stream().map(e -> e.getKey() + " " + Table.num(e.getValue() / 1000.0, 1) + " s").toList(),
                Table.num(seconds, 1), "s", "< 60 s", Table.num(seconds / 60 * 100, 0) + " % of limit", seconds < 60 && !r.cancelled()));
        table.add(Row.info("Reconciliation throughput", Table.num(compared / seconds, 0), "orders/s"));
        long growth = heap.collections() == 0 ? heap.peak() - baseline : heap.maxAfterGc() - baseline;
        table.add(Row.judged("Reconciliation heap: peak used (garbage included; baseline after GC " + mb(baseline) + " MB, "
                + heap.collections() + " GCs, most live after a GC " + mb(heap.maxAfterGc()) + " MB)", mb(heap.peak()), "MB",
                "flat: live heap grows < 64 MB", "+" + mb(Math.max(0, growth)) + " MB", growth < (64L << 20)));
        StringBuilder found = new StringBuilder();
        boolean all = true;
        for (ReconCategory c : ReconCategory.values()) {
            long got = r.counts().get(c);
            found.append(found.isEmpty() ? "" : ", ").append(c.name()).append(' ').append(got);
            // A state mismatch needs a recorded transition on its way, which a seeded data set has none of: the
            // "one version ahead" plants are states no record explains (issue 10), and must be found as such.
            all &= got == (c == ReconCategory.STATE_MISMATCH ? 0 : planted);
        }
        table.add(Row.judged("Reconciliation findings per category (" + found + ")", Table.num(r.total(), 0), "findings",
                planted + " planted per category (state mismatch: 0)", "", all));
    }

    private static String mb(long bytes) {
        return Long.toString(bytes >> 20);
    }

    private static double[] time(int times, Runnable r) {
        double[] ms = new double[times];
        for (int k = 0; k < times; k++) {
            long t = System.nanoTime();
            r.run();
            ms[k] = (System.nanoTime() - t) / 1e6;
        }
        return ms;
    }

    /** @return median of all but the first (cold) measurement */
    private static double median(double[] ms) {
        double[] rest = Arrays.copyOfRange(ms, 1, ms.length);
        Arrays.sort(rest);
        return rest[rest.length / 2];
    }
}
