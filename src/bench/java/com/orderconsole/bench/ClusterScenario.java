package com.orderconsole.bench;

import com.orderconsole.domain.Operator;
import com.orderconsole.domain.OrderState;
import com.orderconsole.domain.OrderStatus;
import com.orderconsole.domain.TransitionRequest;
import com.orderconsole.domain.TransitionResult;
import com.orderconsole.redis.RedisKeys;
import com.orderconsole.redis.RedisStores;
import com.orderconsole.app.Services;
import redis.embedded.RedisShardedCluster;

import java.io.IOException;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Issue 16.4: the same transition load on one Redis and on a Redis Cluster of three masters (embedded,
 * on this machine), both with 64 buckets: throughput, server CPU time per transition on each master
 * ({@code INFO cpu} and {@code INFO commandstats} before and after), and how evenly the buckets (and
 * the transitions) spread over the masters.
 *
 * <p>Two cores cannot show three masters' wall-clock gain (the three servers and the JVM share them);
 * what scales is the CPU each master spends per transition staying constant while each carries a
 * third of them. Workload as in {@link TransitionScenarios}: every order walks WAIT_PAY → … → FINISHED,
 * {@value TransitionScenarios#WINDOW} in flight, through the service path.
 */
final class ClusterScenario {
    private static final int BUCKETS = 64;
    private static final Operator OPERATOR = Operator.system("bench");

    private final BenchEnv env;
    private final Table table;
    private final int perRun;

    ClusterScenario(BenchEnv env, Table table, int perRun) {
        this.env = env;
        this.table = table;
        this.perRun = perRun;
    }

    void run() {
        int before = RedisKeys.buckets();
        RedisKeys.useBuckets(BUCKETS);
        try {
            measure("1 master", env.stores, env.fresh(), () -> { });
            RedisShardedCluster cluster = RedisShardedCluster.newRedisCluster().ephemeralServers()
                    .shard("a", 0).shard("b", 0).shard("c", 0).initializationTimeout(Duration.ofSeconds(30)).build();
            cluster.start();
            try (RedisStores stores = RedisStores.connect("redis://127.0.0.1:" + cluster.serverPorts().get(0), Duration.ofSeconds(5))) {
                env.sql("TRUNCATE TABLE orders", "TRUNCATE TABLE order_history", "TRUNCATE TABLE sync_cursor",
                        "TRUNCATE TABLE dataset_identity");
                Services s = Services.create(stores, env.db, BenchEnv.PAYMENT_TIMEOUT);
                s.rules().ensureSeeded();
                s.maintenance().recoverIfRedisLostData();
                try {
                    measure("3 masters", stores, s, s::close);
                } finally {
                    s.close();
                }
            } finally {
                cluster.stop();
            }
        } catch (IOException e) {
            throw new IllegalStateException("could not start the embedded Redis Cluster: " + e.getMessage(), e);
        } finally {
            RedisKeys.useBuckets(before);
        }
    }

    private static String id(long n) {
        return String.format("k%08d", n);
    }

    private void measure(String label, RedisStores stores, Services s, Runnable after) {
        long now = stores.connection().nowMs();
        long expire = now + BenchEnv.PAYMENT_TIMEOUT.toMillis();
        // Seeded through init_order.lua, routed to each order's master like any product call.
        LoadResult seeded = AsyncLoad.run(2L * perRun, 1024, 120_000, i -> stores.orders()
                .initOrderAsync(new OrderState(id(i), OrderStatus.WAIT_PAY, 1, now, now), expire));
        if (seeded.ok() != 2L * perRun) {
            throw new IllegalStateException(label + ": seeding made " + seeded.ok() + " of " + 2L * perRun + " orders");
        }
        // Warm-up on the first half, measured on the second.
        run(s, 0, 1);
        Map<String, double[]> before = serverCounters(stores);
        LoadResult lr = run(s, perRun, 4);
        Map<String, double[]> afterCounters = serverCounters(stores);
        if (lr.ok() != 4L * perRun) {
            throw new IllegalStateException(label + ": " + lr.ok() + " of " + 4L * perRun + " transitions applied; first error "
                    + lr.firstError());
        }
        table.add(Row.info("Transitions/s, " + label + ", 64 buckets (service path, " + TransitionScenarios.WINDOW + " in flight; p50 / p99 "
                + Table.num(lr.ms(50), 2) + " / " + Table.num(lr.ms(99), 2) + " ms)", Table.num(lr.opsPerSecond(), 0), "transitions/s"));
        long calls = 0;
        long maxCalls = 0;
        StringBuilder perMaster = new StringBuilder();
        for (Map.Entry<String, double[]> e : afterCounters.entrySet()) {
            double[] b = before.get(e.getKey());
            double cpuUs = (e.getValue()[0] - b[0]) * 1e6;
            long c = (long) (e.getValue()[1] - b[1]);
            calls += c;
            maxCalls = Math.max(maxCalls, c);
            perMaster.append(perMaster.isEmpty() ? "" : "; ").append(e.getKey()).append(": ")
                    .append(Table.num(c, 0)).append(" calls, ").append(Table.num(c == 0 ? 0 : cpuUs / c, 1)).append(" µs");
            table.add(Row.info("Server CPU per transition, " + label + ", master " + e.getKey() + " (INFO cpu user+sys / EVALSHA calls, "
                    + Table.num(c, 0) + " calls)", Table.num(c == 0 ? 0 : cpuUs / c, 1), "µs"));
        }
        int masters = afterCounters.size();
        Map<String, List<Integer>> buckets = stores.connection().bucketsPerMaster();
        int maxBuckets = buckets.values().stream().mapToInt(List::size).max().orElse(0);
        double bucketSpread = maxBuckets / ((double) BUCKETS / buckets.size());
        double loadSpread = calls == 0 ? 0 : maxCalls / ((double) calls / masters);
        if (masters > 1) {
            StringBuilder shares = new StringBuilder();
            buckets.forEach((w, l) -> shares.append(shares.isEmpty() ? "" : " / ").append(l.size()));
            table.add(Row.judged("Buckets per master, " + label + " (" + shares + " of 64): busiest master ÷ mean", Table.num(bucketSpread, 3),
                    "×", "≤ 1.15", "", bucketSpread <= 1.15));
            table.add(Row.judged("Transitions per master, " + label + " (EVALSHA calls " + perMaster + "): busiest ÷ mean",
                    Table.num(loadSpread, 3), "×", "≤ 1.15", "", loadSpread <= 1.15));
        }
        after.run();
    }

    /** Orders base .. base+perRun-1 take {@code steps} steps from WAIT_PAY, one pass of all orders per step. */
    private LoadResult run(Services s, int base, int steps) {
        return AsyncLoad.run((long) steps * perRun, TransitionScenarios.WINDOW, 120_000, i -> s.transitions().transitionAsync(OPERATOR,
                TransitionRequest.of(id(base + i % perRun), OrderStatus.ofCode((int) (i / perRun) + 2), "bench", ""))
                .thenApply(TransitionResult::applied));
    }

    /** @return per master: CPU seconds (user + sys) and EVALSHA calls so far */
    private static Map<String, double[]> serverCounters(RedisStores stores) {
        Map<String, String> cpu = stores.connection().infoPerMaster("cpu");
        Map<String, String> cmd = stores.connection().infoPerMaster("commandstats");
        Map<String, double[]> out = new LinkedHashMap<>();
        cpu.forEach((where, text) -> out.put(where, new double[]{field(text, "used_cpu_user") + field(text, "used_cpu_sys"),
                calls(cmd.get(where), "cmdstat_evalsha")}));
        return out;
    }

    private static double field(String info, String name) {
        for (String line : info.split("\r?\n")) {
            if (line.startsWith(name + ":")) {
                return Double.parseDouble(line.substring(name.length() + 1).trim());
            }
        }
        return 0;
    }

    private static double calls(String info, String stat) {
        for (String line : info.split("\r?\n")) {
            if (line.startsWith(stat + ":")) {
                for (String part : line.substring(stat.length() + 1).split(",")) {
                    if (part.startsWith("calls=")) {
                        return Double.parseDouble(part.substring(6));
                    }
                }
            }
        }
        return 0;
    }
}
