package com.orderconsole.bench;

import com.orderconsole.bench.jmh.HotPathBenchmarks;
import org.openjdk.jmh.results.RunResult;
import org.openjdk.jmh.runner.Runner;
import org.openjdk.jmh.runner.RunnerException;
import org.openjdk.jmh.runner.options.OptionsBuilder;
import org.openjdk.jmh.runner.options.VerboseMode;

import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.Collection;
import java.util.Locale;
import java.util.Set;

/**
 * Runs every benchmark scenario of issue 5 in one JVM on this machine and prints one table.
 *
 * <p>Run with {@code mvn -B -Pbench verify} (see BENCHMARKS.md). System properties: {@code bench.orders}
 * (reconciliation/console/memory data set, default 1,000,000), {@code bench.storm} (orders expiring in
 * the same second, default 100,000), {@code bench.throughputOrders} (orders per throughput run; each
 * makes 4 transitions, default 50,000), {@code bench.jmh} (run the JMH micro-benchmarks, default true),
 * {@code bench.scenarios} (comma list of throughput, mysql, script, e2e, hot, storm, outage, scale, cluster, retention, bulk, audit, api, jwt, remote; default all;
 * {@code premerge} alone: throughput, mysql, e2e and api at smaller sizes, one sustained pace, the HTTP figures only, ~5 min),
 * {@code bench.outageSeconds} and {@code bench.outageRate} (the MySQL outage scenario, default 300 s at 1,000/s),
 * {@code bench.clusterOrders} (orders per run of the 1-vs-3-masters scenario; each makes 4 transitions,
 * default 20,000), {@code bench.retentionOrders} (orders of the 95 %-terminal data set, default 10,000,000),
 * {@code bench.remoteOrders} (orders under the remote console's pages, default 1,000,000), {@code bench.remoteSamples} (page loads
 * per side, default 1,000), {@code bench.remotePace} (PAY/s beside the 50 remote consoles, default 300),
 * {@code bench.remoteWindowSeconds} (each of the 7 paced windows, default 20), {@code bench.dir} (server data), {@code bench.out} (Markdown results file).
 */
public final class BenchMain {
    private BenchMain() {
    }

    /** Entry point; exits non-zero when a scenario could not run (a missed target is not a failure). */
    public static void main(String[] args) throws IOException {
        int orders = Integer.getInteger("bench.orders", 1_000_000);
        int storm = Integer.getInteger("bench.storm", 100_000);
        int perRun = Integer.getInteger("bench.throughputOrders", 50_000);
        boolean jmh = Boolean.parseBoolean(System.getProperty("bench.jmh", "true"));
        Set<String> only = Set.of(System.getProperty("bench.scenarios", "throughput,mysql,script,e2e,hot,storm,outage,scale,cluster,retention,bulk,audit,api,jwt,remote").split(","));
        int apiOrders = Integer.getInteger("bench.apiOrders", 60_000);
        if (only.contains("premerge")) {
            // The check before merging a change to the transition, follower or API path (~5 min): every judged figure of
            // those paths once, at smaller sizes; compare its ratios with BENCHMARKS.md's latest run.
            only = Set.of("throughput", "mysql", "e2e", "api");
            perRun = 20_000;
            apiOrders = 30_000;
            jmh = false;
            System.setProperty("bench.throughputRounds", "2");
            System.setProperty("bench.sustainedSteps", "0.5");
            System.setProperty("bench.apiHttpOnly", "true");
        }
        Path dir = Path.of(System.getProperty("bench.dir", "target/bench-servers")).toAbsolutePath();
        Path out = Path.of(System.getProperty("bench.out", "target/bench-results.md")).toAbsolutePath();
        long start = System.nanoTime();
        Table table = new Table();
        boolean failed = false;

        if (jmh) {
            failed |= scenario(table, "JMH micro-benchmarks", () -> microBenchmarks(table));
        }
        String machine;
        System.out.println("== starting embedded Redis and MariaDB in " + dir);
        try (BenchEnv env = BenchEnv.start(dir)) {
            machine = Machine.describe(env);
            System.out.println(machine);
            TransitionScenarios tx = new TransitionScenarios(env, table, perRun);
            if (only.contains("throughput")) {
                failed |= scenario(table, env, "Transition throughput vs ceiling", tx::throughput);
            }
            if (only.contains("mysql")) { // its ratio needs the throughput scenario's figure
                int mysqlOrders = Math.max(1000, perRun / 2);
                failed |= scenario(table, env, "Redis path vs MySQL-only path", () -> tx.mysqlOnly(mysqlOrders));
            }
            if (only.contains("script")) {
                failed |= scenario(table, env, "Script cost vs the article's script (redis-benchmark)",
                        () -> {
                            try {
                                new ScriptCostScenario(env, table, Integer.getInteger("bench.scriptCalls", 400_000)).run();
                            } catch (Exception e) {
                                throw new IllegalStateException(e);
                            }
                        });
            }
            if (only.contains("e2e")) {
                failed |= scenario(table, env, "End-to-end with MySQL follower", tx::endToEnd);
            }
            if (only.contains("outage")) {
                failed |= scenario(table, env, "MySQL outage under load", () -> new OutageScenario(env, table).run());
            }
            if (only.contains("hot")) {
                failed |= scenario(table, env, "Hot rows: racing PAY / CANCEL", () -> new HotRowsScenario(env, table).run());
            }
            if (only.contains("storm")) {
                failed |= scenario(table, env, "Sweep storm", () -> new SweepStormScenario(env, table).run(storm, null));
                failed |= scenario(table, env, "Sweep storm what-if: the earlier, larger sweeper batches",
                        () -> new SweepStormScenario(env, table).run(storm, SweepStormScenario.WHAT_IF_BATCH));
            }
            if (only.contains("bulk")) {
                failed |= scenario(table, env, "Bulk move (issue 13)", () -> {
                    try {
                        new BulkAuditScenarios(env, table).bulk(Integer.getInteger("bench.bulkOrders", 100_000));
                    } catch (Exception e) {
                        throw new IllegalStateException(e.getMessage(), e);
                    }
                });
            }
            if (only.contains("audit")) {
                failed |= scenario(table, env, "Audit view (issue 13)", () -> {
                    try {
                        new BulkAuditScenarios(env, table).audit(Integer.getInteger("bench.auditRows", 1_000_000));
                    } catch (Exception e) {
                        throw new IllegalStateException(e.getMessage(), e);
                    }
                });
            }
            if (only.contains("scale")) {
                failed |= scenario(table, env, "Scale: memory, console, reconciliation", () -> new ScaleScenarios(env, table, orders).run());
            }
            if (only.contains("cluster")) {
                failed |= scenario(table, env, "Scale-out: 1 vs 3 Redis masters", () -> new ClusterScenario(env, table,
                        Integer.getInteger("bench.clusterOrders", 20_000)).run());
            }
            if (only.contains("api")) {
                int n = apiOrders;
                failed |= scenario(table, env, "HTTP API (issue 32)", () -> new ApiScenario(env, table, n, storm).run());
            }
            if (only.contains("jwt")) {
                failed |= scenario(table, env, "Sign-in: people's OIDC tokens against API clients' tokens", () -> {
                    try {
                        new JwtApiScenario(env, table, Integer.getInteger("bench.jwtOrders", 20_000)).run();
                    } catch (Exception e) {
                        throw new IllegalStateException(e.getMessage(), e);
                    }
                });
            }
            if (only.contains("remote")) {
                failed |= scenario(table, env, "The console over serve's API against in-process (issues 43, 44)", () -> {
                    try {
                        new RemoteScenario(env, table, Integer.getInteger("bench.remoteOrders", 1_000_000)).run();
                    } catch (Exception e) {
                        throw new IllegalStateException(e.getMessage(), e);
                    }
                });
            }
            if (only.contains("apigaps")) {
                failed |= scenario(table, env, "Creation and the feed with gaps (issue 45)", () -> new ApiGapsScenario(env, table).run());
            }
            if (only.contains("retention")) {
                failed |= scenario(table, env, "Redis holds what is live: 95 % terminal", () -> new RetentionScenario(env, table,
                        Integer.getInteger("bench.retentionOrders", 10_000_000)).run());
            }
        }
        double minutes = (System.nanoTime() - start) / 60e9;
        String scale = String.format(Locale.ROOT, "Scale: %,d orders (reconciliation, console, memory), %,d in the sweep storm, "
                + "%,d orders × 4 transitions per throughput run. Whole run: %.1f min, finished %s.", orders, storm, perRun, minutes,
                Instant.now());
        String md = "## Machine\n\n" + machine + "\n\n## Results\n\n" + scale + "\n\n" + table.markdown();
        Files.createDirectories(out.getParent());
        Files.writeString(out, md);
        System.out.println();
        System.out.println(md);
        System.out.println("(also written to " + out + ")");
        if (failed) {
            System.exit(1);
        }
    }

    /** Runs one scenario; a scenario that throws gets a MISS row naming the error and the others still run. */
    /** Runs a scenario against the servers once they are idle ({@link BenchEnv#settle()}). */
    private static boolean scenario(Table table, BenchEnv env, String name, Runnable body) {
        System.out.printf(Locale.ROOT, "   (waited %.1f s for idle servers)%n", env.settle());
        return scenario(table, name, body);
    }

    private static boolean scenario(Table table, String name, Runnable body) {
        System.out.println("== " + name);
        long t0 = System.nanoTime();
        try {
            body.run();
            System.out.printf(Locale.ROOT, "   (%s took %.1f s)%n", name, (System.nanoTime() - t0) / 1e9);
            return false;
        } catch (RuntimeException e) {
            e.printStackTrace();
            table.add(Row.judged(name + " could not run: " + e.getMessage(), "error", "", "runs", "", false));
            return true;
        }
    }

    private static void microBenchmarks(Table table) {
        try {
            Collection<RunResult> results = new Runner(new OptionsBuilder()
                    .include(HotPathBenchmarks.class.getName())
                    .verbosity(VerboseMode.SILENT)
                    .shouldFailOnError(true)
                    .jvmArgs("-Xmx256m")
                    .build()).run();
            for (RunResult r : results) {
                String label = r.getParams().getBenchmark();
                label = label.substring(label.lastIndexOf('.') + 1);
                table.add(Row.info("JMH " + label + " (client CPU, no server; ± " + Table.num(r.getPrimaryResult().getScoreError(), 1) + ")",
                        Table.num(r.getPrimaryResult().getScore(), 1), r.getPrimaryResult().getScoreUnit()));
            }
        } catch (RunnerException e) {
            throw new IllegalStateException("JMH failed: " + e.getMessage(), e);
        }
    }

    /** Keeps the JVM's view of itself next to the figures it produced. */
    static String jvm() {
        return System.getProperty("java.vm.name") + " " + System.getProperty("java.version") + ", "
                + String.join(" ", ManagementFactory.getRuntimeMXBean().getInputArguments().stream()
                .filter(a -> a.startsWith("-Xm")).toList());
    }
}
