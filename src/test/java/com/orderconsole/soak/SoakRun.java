package com.orderconsole.soak;

import com.orderconsole.ClusterNodes;
import com.orderconsole.StallingProxy;
import com.orderconsole.app.Engine;
import com.orderconsole.app.EngineConfig;
import com.orderconsole.domain.ResultCode;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.function.Function;
import java.util.stream.Collectors;

/**
 * One fault soak, start to end: own Redis (one server, or a Redis Cluster with {@code soak.redis=cluster})
 * and MariaDB under {@code dir}, a proxy pair per engine process and for the clients (on a cluster a MySQL
 * proxy only: the cluster client reaches each master at the address the cluster announces), the engine processes, the clients, the fault injector; then catch-up,
 * reconciliation and the invariant checks; then one summary. {@link #close()} stops whatever still runs.
 */
final class SoakRun implements AutoCloseable {
    /**
     * What a run found.
     *
     * @param summary the summary table (also printed and written to {@code dir/summary.txt})
     * @param anomalies every violation found, in check order
     */
    record Result(String summary, List<SoakChecks.Anomaly> anomalies) {
    }

    private final SoakSettings settings;
    private final Path dir;
    private final List<AutoCloseable> toClose = new ArrayList<>();
    private SoakRedis redis;
    private SoakCluster cluster;
    private SoakMariaDb mysql;
    private EngineProcesses engines;

    /**
     * @param settings length and knobs
     * @param dir the run's own directory (its server data and logs are replaced at start)
     */
    SoakRun(SoakSettings settings, Path dir) {
        this.settings = settings;
        this.dir = dir;
    }

    /** Runs the soak; blocks for about {@code settings.seconds()} plus 30-60 s. */
    Result run() throws IOException {
        long t0 = System.currentTimeMillis();
        say("fault soak: seed " + settings.seed() + " (rerun with -Dsoak.seed=" + settings.seed() + "), " + settings.seconds()
                + " s, " + settings.engines() + " engine processes, " + (settings.cluster() ? "a Redis Cluster of " + settings.masters()
                + " masters, " : "one Redis server, ") + settings.ordersPerSecond() + " orders/s, faults "
                + settings.faults() + ", dir " + dir);
        // Fresh data each run; MariaDB's unpacked binaries (base/) may stay.
        for (String d : List.of("redis", "mariadb/data", "mariadb/tmp", "engines", "clients-data")) {
            Soak.deleteTree(dir.resolve(d));
        }
        Files.createDirectories(dir);

        String redisWhere;
        if (settings.cluster()) {
            cluster = closing(new SoakCluster(dir.resolve("redis"), settings.masters()));
            cluster.start();
            redisWhere = "a Redis Cluster on " + cluster.nodes().stream().map(SoakRedis::port).toList();
        } else {
            redis = closing(new SoakRedis(dir.resolve("redis")));
            redis.start();
            redisWhere = "Redis on " + redis.port();
        }
        mysql = closing(new SoakMariaDb(dir.resolve("mariadb")));
        mysql.start();
        say("servers up: " + redisWhere + ", MariaDB on " + mysql.port() + " after " + Soak.secs(System.currentTimeMillis() - t0));

        // Index i < engines: engine process i; index engines: the clients.
        List<String> redisUris = new ArrayList<>();
        List<StallingProxy> mysqlProxies = new ArrayList<>();
        List<StallingProxy> all = new ArrayList<>();
        for (int i = 0; i <= settings.engines(); i++) {
            String who = i < settings.engines() ? "engine-" + i : "clients";
            if (settings.cluster()) {
                // Each process is given another node: a restarted engine meets whichever master is down then.
                redisUris.add(cluster.uri(i));
            } else {
                StallingProxy p = closing(new StallingProxy(who + "/redis", redis.port()));
                all.add(p);
                redisUris.add("redis://127.0.0.1:" + p.port());
            }
            mysqlProxies.add(closing(new StallingProxy(who + "/mysql", mysql.port())));
        }
        all.addAll(mysqlProxies);

        // The clients' engine first: it migrates the schema before the engine processes start.
        Engine clientEngine = closing(Engine.start(config(redisUris.get(settings.engines()),
                SoakMariaDb.jdbcUrl(mysqlProxies.get(settings.engines()).port()), "clients-data")));
        engines = closing(new EngineProcesses(dir.resolve("engines"), redisUris.subList(0, settings.engines()),
                mysqlProxies.subList(0, settings.engines()), settings.seconds() + settings.catchUpMs() / 1000 + 600));
        for (int i = 0; i < engines.size(); i++) {
            engines.start(i);
        }
        if (!engines.awaitReady(90_000)) {
            throw new IllegalStateException("engine processes not ready within 90 s; see " + dir.resolve("engines"));
        }
        say("engine processes ready after " + Soak.secs(System.currentTimeMillis() - t0));

        SoakClients clients = closing(new SoakClients(clientEngine.services(), settings.seed() ^ 0x5EEDL,
                settings.ordersPerSecond(), settings.clientThreads(), t0));
        FaultInjector injector = closing(new FaultInjector(settings, redis, cluster, mysql, all, engines, clients, t0));
        long loadStart = System.currentTimeMillis();
        long end = loadStart + settings.seconds() * 1000;
        clients.start();
        injector.start(end);
        long nextProgress = loadStart + 30_000;
        while (System.currentTimeMillis() < end) {
            Soak.sleep(Math.min(1000, end - System.currentTimeMillis()));
            if (System.currentTimeMillis() >= nextProgress) {
                nextProgress += 30_000;
                say(String.format(Locale.ROOT, "t+%.0f s: %d acknowledged, %d calls failed, faults %s", (System.currentTimeMillis() - t0) / 1000.0,
                        clients.acks().size(), clients.callFailed(), injector.counts()));
            }
        }
        clients.stopCreating();
        injector.stop();
        say("faults stopped at " + Soak.secs(System.currentTimeMillis() - t0) + "; catching up");

        Set<String> corrupted = injector.corruptions().stream().map(FaultInjector.Corruption::orderId).collect(Collectors.toSet());
        String redisUri = settings.cluster() ? cluster.uri(0) : redis.uri();
        Engine checker = closing(Engine.start(config(redisUri, mysql.jdbcUrl(), "clients-data")));
        SoakChecks checks = new SoakChecks(mysql.jdbcUrl(), redisUri, settings.cluster(), t0, settings.lossWindowMs());
        checks.catchUp(checker.services(), clients, corrupted, System.currentTimeMillis() + settings.catchUpMs());
        engines.close();
        clients.close();
        checks.reconcile(checker.services(), corrupted);
        checks.verify(clients.acks(), injector.dataLosses(), injector.aofLost(), injector.corruptions());

        String summary = summary(t0, clients, injector, checks);
        System.out.println(summary);
        Files.writeString(dir.resolve("summary.txt"), summary);
        return new Result(summary, checks.anomalies());
    }

    private EngineConfig config(String redisUri, String jdbcUrl, String dataDir) {
        // No background jobs: the clients and the checker drive nothing by themselves.
        return EngineConfig.embeddedDefault()
                .withDataDir(dir.resolve(dataDir))
                .withServers(redisUri, jdbcUrl, "root", "")
                .withLocalIdentity()
                .withBackgroundJobs(null, null)
                .withCommandTimeout(Duration.ofSeconds(2));
    }

    private String summary(long t0, SoakClients clients, FaultInjector injector, SoakChecks checks) {
        List<SoakClients.Ack> acks = clients.acks();
        long creations = acks.stream().filter(a -> a.version() == 1).count();
        StringBuilder b = new StringBuilder();
        Function<String, StringBuilder> line = s -> b.append(s).append('\n');
        line.apply("");
        line.apply("==== FAULT SOAK SUMMARY ====");
        line.apply(String.format(Locale.ROOT, "seed %d, %d s of faults, %d engine processes, %s, wall clock %s",
                settings.seed(), settings.seconds(), settings.engines(),
                settings.cluster() ? "a Redis Cluster of " + settings.masters() + " masters" : "one Redis server",
                Soak.secs(System.currentTimeMillis() - t0)));
        line.apply(String.format(Locale.ROOT, "%-66s %8d  (creations %d, moves %d)", "transitions acknowledged", acks.size(),
                creations, acks.size() - creations));
        Map<ResultCode, Long> rejected = clients.rejected();
        line.apply(String.format(Locale.ROOT, "%-66s %8d  (of %d calls; creations failed %d; rejections %s)",
                "client calls failed (never counted as acknowledged)", clients.callFailed(), clients.calls(), clients.createFailed(), rejected));
        line.apply("faults injected");
        int total = 0;
        for (Map.Entry<FaultInjector.Kind, Integer> e : injector.counts().entrySet()) {
            line.apply(String.format(Locale.ROOT, "  %-64s %8d", e.getKey(), e.getValue()));
            total += e.getValue();
        }
        line.apply(String.format(Locale.ROOT, "  %-64s %8d", "total", total));
        List<SoakClients.Ack> lost = checks.lostNoAof();
        List<FaultInjector.DataLoss> losses = injector.dataLosses();
        // On one server there is one loss; on a cluster each lost acknowledgement is timed against the first loss after it.
        long youngest = Long.MAX_VALUE;
        long oldest = 0;
        for (SoakClients.Ack a : lost) {
            for (FaultInjector.DataLoss l : losses) {
                if (l.hit(a.orderId()) && a.segment() <= l.lostSegment()) {
                    youngest = Math.min(youngest, l.atMs() - a.atMs());
                    oldest = Math.max(oldest, l.atMs() - a.atMs());
                    break;
                }
            }
        }
        line.apply(String.format(Locale.ROOT, "%-66s %8d%s", settings.cluster() ? "lost with a master restarted empty, excused"
                        : "lost with the Redis data set (restart without AOF), excused",
                lost.size(), lost.isEmpty() ? "" : "  (acknowledged " + Soak.secs(youngest) + " to " + Soak.secs(oldest)
                        + " before the loss; e.g. " + lost.stream().limit(5).map(a -> a.orderId() + " v" + a.version() + " " + a.target()).toList() + ")"));
        if (cluster != null) {
            perMaster().forEach(line::apply);
        }
        line.apply(String.format(Locale.ROOT, "%-66s %8d", "acknowledged writes Redis lacked after a SIGKILL with AOF everysec",
                injector.aofLost().size()));
        List<SoakClients.Ack> aof = checks.lostAofWindow();
        line.apply(String.format(Locale.ROOT, "%-66s %8d%s", "  of them missing from MySQL (AOF everysec window), excused",
                aof.size(), aof.isEmpty() ? "" : "  (e.g. " + aof.stream().limit(5).map(a -> a.orderId() + " v" + a.version() + " " + a.target()).toList() + ")"));
        line.apply("anomalies found (target 0)");
        List<SoakChecks.Anomaly> anomalies = checks.anomalies();
        for (SoakChecks.Check c : SoakChecks.Check.values()) {
            line.apply(String.format(Locale.ROOT, "  %-64s %8d", c.label, anomalies.stream().filter(a -> a.check() == c).count()));
        }
        line.apply(String.format(Locale.ROOT, "  %-64s %8d", "total", anomalies.size()));
        // Kinds: the detail with its numbers blanked out, each with its count and first example.
        Map<String, List<SoakChecks.Anomaly>> kinds = new LinkedHashMap<>();
        for (SoakChecks.Anomaly a : anomalies) {
            kinds.computeIfAbsent(a.check().label.substring(0, 2) + " " + a.detail().replaceAll("[0-9]+(\\.[0-9]+)?", "#"),
                    k -> new ArrayList<>()).add(a);
        }
        if (!kinds.isEmpty()) {
            line.apply("anomaly kinds (count, first example)");
        }
        kinds.values().stream().limit(40).forEach(l -> line.apply(String.format(Locale.ROOT, "  %6d x  %s", l.size(), l.get(0))));
        line.apply("notes");
        checks.notes().forEach(n -> line.apply("  - " + n));
        injector.errors().forEach(e -> line.apply("  - soak could not inject: " + e));
        clients.clientErrors().forEach(e -> line.apply("  - unexpected client error: " + e));
        clients.rejectedExamples().forEach((code, ex) -> line.apply("  - client rejections " + code + ", e.g. " + ex));
        line.apply("  - corrupted records: " + injector.corruptions());
        line.apply("  - engine starts per process: " + Arrays.toString(engines.starts()) + "; logs in " + dir.resolve("engines"));
        line.apply("fault timeline");
        injector.timeline().forEach(t -> line.apply("  " + t));
        return b.toString();
    }

    /** @return one line per master: its buckets and keys at the end (the spread after the slot migrations) */
    private List<String> perMaster() {
        try {
            List<String> out = new ArrayList<>();
            cluster.bucketsByMaster().forEach((port, buckets) -> out.add(String.format(Locale.ROOT, "  %-64s %8d  (%d buckets at the end)",
                    "keys on master 127.0.0.1:" + port, ClusterNodes.onNode(port, r -> r.dbsize()), buckets.size())));
            return out;
        } catch (RuntimeException e) {
            return List.of("  masters unreadable at the end: " + e.getMessage());
        }
    }

    private static void say(String s) {
        System.out.println("[soak] " + s);
    }

    private <T extends AutoCloseable> T closing(T c) {
        toClose.add(c);
        return c;
    }

    /** Stops everything still running (engine processes, clients, engines, proxies, servers), last started first. */
    @Override
    public void close() {
        for (int i = toClose.size() - 1; i >= 0; i--) {
            try {
                toClose.get(i).close();
            } catch (Exception e) {
                System.out.println("[soak] cleanup: " + e);
            }
        }
        toClose.clear();
    }
}
