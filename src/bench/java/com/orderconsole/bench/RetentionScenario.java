package com.orderconsole.bench;

import com.orderconsole.domain.Operator;
import com.orderconsole.domain.OrderState;
import com.orderconsole.domain.OrderStatus;
import com.orderconsole.domain.TransitionRequest;
import com.orderconsole.domain.TransitionResult;
import com.orderconsole.redis.RedisKeys;
import com.orderconsole.app.Services;
import com.orderconsole.service.monitor.StateCounts;
import com.orderconsole.service.order.OrderPage;
import com.orderconsole.service.order.OrderQuery;
import io.lettuce.core.RedisFuture;

import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * Issue 16.3 and 16.4: Redis holds what is live. A shop of {@code bench.retentionOrders} orders (default
 * 10,000,000), 95 % of them FINISHED or CANCELLED long ago, stored in both stores as a data set from
 * before the retention holds them. The maintenance job's pass ({@code retireUntracked}) gives the
 * terminal ones their expiry; measured: Redis memory with every order and with the live ones left,
 * the order table's first page and the state-graph counts (terminal ones from MySQL).
 *
 * <p>Before that, the retention itself on a sample: 10,000 orders finished through the service path,
 * applied by the follower with a 1 s retention, must all have left Redis 1.5 s later.
 */
final class RetentionScenario {
    private static final long DAY = Duration.ofDays(1).toMillis();
    private static final int SAMPLE = 10_000;
    private static final Operator OPERATOR = Operator.system("bench");

    private final BenchEnv env;
    private final Table table;
    private final int n;

    RetentionScenario(BenchEnv env, Table table, int orders) {
        this.env = env;
        this.table = table;
        this.n = orders;
    }

    private static String id(long i) {
        return String.format("v%09d", i);
    }

    /** One order in 20 is live (WAIT_PAY, PAID, WAIT_SHIP or SHIPPED in turn); the rest 85 % FINISHED, 10 % CANCELLED. */
    private static OrderStatus status(int i) {
        int slot = i % 20;
        if (slot == 0) {
            return OrderStatus.ofCode(1 + (i / 20) % 4);
        }
        return slot <= 17 ? OrderStatus.FINISHED : OrderStatus.CANCELLED;
    }

    void run() {
        int bucketsBefore = RedisKeys.buckets();
        RedisKeys.useBuckets(RedisKeys.DEFAULT_BUCKETS);
        try {
            sample();
            large();
        } finally {
            RedisKeys.useBuckets(bucketsBefore);
        }
    }

    private void sample() {
        env.fresh();
        Services s = Services.create(env.stores, env.db, BenchEnv.PAYMENT_TIMEOUT, Duration.ofSeconds(1));
        try {
            long now = env.redis.nowMs();
            env.seed(SAMPLE, i -> BenchEnv.Seed.both(new OrderState("s" + i, OrderStatus.SHIPPED, 4, now, now - DAY), null));
            LoadResult lr = AsyncLoad.run(SAMPLE, TransitionScenarios.WINDOW, 60_000, i -> s.transitions().transitionAsync(OPERATOR,
                    TransitionRequest.of("s" + i, OrderStatus.FINISHED, "bench", "")).thenApply(TransitionResult::applied));
            long t0 = System.nanoTime();
            int applied = 0;
            for (int k = 0; k < 20 && applied < SAMPLE; k++) {
                applied += s.follower().drainOnce();
            }
            double followMs = (System.nanoTime() - t0) / 1e6;
            sleep(1_500);
            List<RedisFuture<Long>> fs = new ArrayList<>();
            for (int i = 0; i < SAMPLE; i++) {
                fs.add(env.raw.exists(RedisKeys.order("s" + i)));
            }
            long left = 0;
            for (RedisFuture<Long> f : fs) {
                left += env.redis.await(f, "EXISTS");
            }
            table.add(Row.judged("Retention: " + Table.num(lr.ok(), 0) + " orders finished through the service path, applied by the follower ("
                    + Table.num(followMs, 0) + " ms, its retire step included), retention 1 s: still in Redis 1.5 s later",
                    Table.num(left, 0), "orders", "0", "", left == 0 && lr.ok() == SAMPLE));
        } finally {
            s.close();
        }
    }

    private void large() {
        Services s = env.fresh();
        long usedBefore = Long.parseLong(env.info("memory").get("used_memory"));
        long now = env.redis.nowMs();
        int live = 0;
        for (int i = 0; i < n; i++) {
            live += status(i).code() <= 4 ? 1 : 0;
        }
        // Every order in both stores, as a data set from before the retention holds them.
        long seedMs = env.seed(n, i -> {
            OrderStatus st = status(i);
            boolean terminal = st.code() >= 5;
            long since = terminal ? now - 8 * DAY - (long) (i % 90) * DAY : now - (i % 3600) * 1000L;
            long v = st == OrderStatus.CANCELLED ? 2 : st.code();
            OrderState state = new OrderState(id(i), st, v, since, since - (v - 1) * 3_600_000L);
            Long expire = st == OrderStatus.WAIT_PAY ? since + BenchEnv.PAYMENT_TIMEOUT.toMillis() : null;
            return BenchEnv.Seed.both(state, expire);
        });
        table.add(Row.info("Seeding " + Table.num(n, 0) + " orders, " + Table.num(live, 0) + " live, into both stores (Redis half "
                + Table.num(env.lastSeedRedisMs / 1000.0, 0) + " s, MySQL half " + Table.num(env.lastSeedMysqlMs / 1000.0, 0) + " s)",
                Table.num(n / (seedMs / 1000.0), 0), "orders/s"));
        long usedAll = Long.parseLong(env.info("memory").get("used_memory")) - usedBefore;

        // The maintenance job's pass over terminal orders without an expiry (retention 1 s here, so that
        // they leave at once; with the default 7 days they would leave 10 minutes after the pass).
        Services oneSecond = Services.create(env.stores, env.db, BenchEnv.PAYMENT_TIMEOUT, Duration.ofSeconds(1));
        long t0 = System.nanoTime();
        long retired;
        try {
            retired = oneSecond.retention().retireUntracked(() -> false);
        } finally {
            oneSecond.close();
        }
        double passS = (System.nanoTime() - t0) / 1e9;
        sleep(1_500);
        // Redis reclaims expired keys lazily and in small active cycles; a SCAN visits (and so frees) them all now.
        io.lettuce.core.ScanCursor cursor = io.lettuce.core.ScanCursor.INITIAL;
        do {
            cursor = env.redis.await(env.raw.scan(cursor, io.lettuce.core.ScanArgs.Builder.limit(10_000)), "SCAN");
        } while (!cursor.isFinished());
        long usedLive = Long.parseLong(env.info("memory").get("used_memory")) - usedBefore;
        long keys = env.redis.await(env.raw.dbsize(), "DBSIZE");
        table.add(Row.judged("Retention pass over " + Table.num(n, 0) + " orders stored before the retention (SCAN per master, "
                + "checked against MySQL, " + Table.num(passS, 1) + " s; " + Table.num(n / passS, 0) + " orders/s): terminal orders given an expiry",
                Table.num(retired, 0), "orders", Table.num(n - live, 0), "", retired == n - live));
        double perAll = usedAll / (double) n;
        double perLive = usedLive / (double) live;
        table.add(Row.info("Redis memory, every order kept (INFO used_memory delta; " + Table.num(perAll, 0) + " B per order)",
                Table.num(usedAll / (double) (1 << 20), 0), "MB"));
        table.add(Row.judged("Redis memory after the retention: live orders only (" + Table.num(keys, 0) + " keys; "
                + Table.num(usedLive / (double) (1 << 20), 0) + " MB, " + Table.num(100.0 * usedLive / usedAll, 1) + " % of every order kept, "
                + Table.num(100.0 * live / n, 0) + " % live): bytes per live order vs per order when all were kept",
                Table.num(perLive, 0), "bytes", "proportional to live: ≤ 1.25 × " + Table.num(perAll, 0), Table.num(perLive / perAll, 2) + "×",
                perLive <= 1.25 * perAll));
        double[] page = time(11, () -> {
            OrderPage p = s.orders().page(OrderQuery.all(), null, 100);
            if (p.rows().size() != 100) {
                throw new IllegalStateException("first page has " + p.rows().size() + " rows");
            }
        });
        double[] counts = time(11, () -> {
            StateCounts c = s.monitor().stateCounts();
            long total = c.live().values().stream().mapToLong(Long::longValue).sum();
            if (total != n) {
                throw new IllegalStateException("state counts add up to " + total + ", not " + n + ": " + c.live());
            }
        });
        table.add(Row.judged("Console at " + Table.num(n, 0) + " orders, 95 % terminal and out of Redis: first page of the order table, "
                + "100 rows (first call " + Table.num(page[0], 1) + " ms; median of the next 10)", Table.num(median(page), 1), "ms",
                "< 200 ms", "", page[0] < 200 && median(page) < 200));
        table.add(Row.judged("Console at " + Table.num(n, 0) + " orders, 95 % terminal: state-graph counts, terminal ones from MySQL "
                + "(first call, which counts MySQL: " + Table.num(counts[0], 0) + " ms; later calls hand out that count and recount "
                + "in the background every 10 s; median of the next 10)", Table.num(median(counts), 1), "ms", "< 200 ms", "",
                median(counts) < 200));
        long t = System.nanoTime();
        var d = s.orders().rebuildAndLookup(id(1));
        table.add(Row.info("Opening a terminal order that left Redis (rebuilt from MySQL as " + d.summary().redisStatus() + ")",
                Table.num((System.nanoTime() - t) / 1e6, 1), "ms"));
    }

    private static void sleep(long ms) {
        try {
            Thread.sleep(ms);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
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

    private static double median(double[] ms) {
        double[] rest = Arrays.copyOfRange(ms, 1, ms.length);
        Arrays.sort(rest);
        return rest[rest.length / 2];
    }
}
