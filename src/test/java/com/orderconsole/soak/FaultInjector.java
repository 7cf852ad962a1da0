package com.orderconsole.soak;

import com.orderconsole.ClusterNodes;
import com.orderconsole.StallingProxy;
import com.orderconsole.domain.OrderStatus;
import com.orderconsole.redis.RedisKeys;
import io.lettuce.core.RedisClient;
import io.lettuce.core.RedisFuture;
import io.lettuce.core.RedisURI;
import io.lettuce.core.api.StatefulRedisConnection;
import io.lettuce.core.cluster.SlotHash;

import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.EnumMap;
import java.util.EnumSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Function;

/**
 * Injects the faults of issue 11 (one Redis server) or issue 16 (a Redis Cluster) at random intervals drawn from a seeded {@link Random}: one thread runs
 * the server and connection faults one after another (each kind once first, in shuffled order, then drawn
 * by weight), a second thread SIGKILLs engine processes at its own random intervals and restarts them.
 * Whatever a fault stops, it restarts before the next one; {@link #stop()} leaves everything running.
 */
final class FaultInjector implements AutoCloseable {
    /** The kinds of fault. */
    enum Kind {
        /** SIGKILL one engine process, restart it after 0.2-3 s. */
        ENGINE_KILL,
        /** SIGKILL Redis (AOF everysec on), start it again on the same port and data. */
        REDIS_RESTART_AOF,
        /** SIGKILL Redis and start it with no data: a Redis without persistence. Exactly once per run. */
        REDIS_RESTART_NO_AOF,
        /** Stop MariaDB for a while (up to 60 s in a long run, ~10 s in the 2-minute one). */
        MYSQL_STOP,
        /** Stall one engine's (or the clients') connection to Redis or MySQL for a few seconds. */
        STALL,
        /** SCRIPT FLUSH: every process's cached script SHAs become NOSCRIPT. */
        SCRIPT_FLUSH,
        /** Set one order hash's status to "7" or "x" (a record no code path writes). */
        CORRUPT,
        /** Cluster: SIGKILL one master (AOF everysec on), start it again on the same port, data and slots. */
        MASTER_RESTART_AOF,
        /**
         * Cluster: SIGKILL one master and start it with no data but its slots: a master without persistence.
         * The engine must rebuild that master's buckets from MySQL. Twice per run: once the master that holds
         * the data-set marker ({@code osm:epoch}: the whole data set is restored), once another one (only its
         * buckets are found lost), in an order drawn from the seed.
         */
        MASTER_RESTART_EMPTY,
        /** Cluster: move one bucket's slot to another master, a few keys at a time, while traffic flows. */
        SLOT_MIGRATION;

        /** @return the kinds that apply to one Redis server ({@code cluster} false) or to a Redis Cluster */
        static Set<Kind> applicable(boolean cluster) {
            return cluster
                    ? EnumSet.of(ENGINE_KILL, MASTER_RESTART_AOF, MASTER_RESTART_EMPTY, SLOT_MIGRATION, MYSQL_STOP, STALL, SCRIPT_FLUSH, CORRUPT)
                    : EnumSet.of(ENGINE_KILL, REDIS_RESTART_AOF, REDIS_RESTART_NO_AOF, MYSQL_STOP, STALL, SCRIPT_FLUSH, CORRUPT);
        }
    }

    /**
     * A corrupted record.
     *
     * @param orderId the order
     * @param value the status written
     * @param atMs when, epoch ms
     */
    record Corruption(String orderId, String value, long atMs) {
    }

    /**
     * The one Redis restart that lost the data set (one server) or one master's part of it (a cluster).
     *
     * @param atMs when Redis was killed, epoch ms
     * @param lostSegment acknowledgements of this segment (and earlier) were made on the lost data set
     * @param buckets the buckets whose keys were lost: all of them on one server, the wiped master's on a cluster
     */
    record DataLoss(long atMs, int lostSegment, Set<Integer> buckets) {
        /** @return true when {@code orderId}'s state was on the lost data */
        boolean hit(String orderId) {
            return buckets.contains(RedisKeys.bucket(orderId));
        }
    }

    private final Random random;
    private final Set<Kind> enabled;
    private final SoakSettings settings;
    private final SoakRedis redis;
    private final SoakCluster cluster;
    private final SoakMariaDb mysql;
    private final List<StallingProxy> proxies;
    private final EngineProcesses engines;
    private final SoakClients clients;
    private final long t0;
    private final Map<Kind, AtomicInteger> counts = new EnumMap<>(Kind.class);
    /** Fault start (epoch ms) and description; two threads add to it, not always in start order. */
    private final ConcurrentLinkedQueue<Map.Entry<Long, String>> timeline = new ConcurrentLinkedQueue<>();
    private final List<Corruption> corruptions = new CopyOnWriteArrayList<>();
    private final List<SoakClients.Ack> aofLost = new CopyOnWriteArrayList<>();
    private final List<String> errors = new CopyOnWriteArrayList<>();
    private final List<DataLoss> dataLosses = new CopyOnWriteArrayList<>();
    /** Whether the first master restarted empty is the one holding the data-set marker (drawn from the seed). */
    private Boolean markerFirst;
    private volatile boolean stopping;
    private volatile long quietUntil;
    private Thread faults;
    private Thread killer;

    /**
     * @param redis the one Redis server, or null on a cluster
     * @param cluster the Redis Cluster, or null on one server
     * @param proxies the connections that may stall
     */
    FaultInjector(SoakSettings settings, SoakRedis redis, SoakCluster cluster, SoakMariaDb mysql, List<StallingProxy> proxies,
                  EngineProcesses engines, SoakClients clients, long t0) {
        this.settings = settings;
        this.random = new Random(settings.seed());
        Set<Kind> kinds = EnumSet.copyOf(Kind.applicable(cluster != null));
        kinds.retainAll(settings.faults());
        this.enabled = kinds;
        this.redis = redis;
        this.cluster = cluster;
        this.mysql = mysql;
        this.proxies = proxies;
        this.engines = engines;
        this.clients = clients;
        this.t0 = t0;
        for (Kind k : Kind.applicable(cluster != null)) {
            counts.put(k, new AtomicInteger());
        }
    }

    /** Starts both injector threads; they run until {@code untilMs} (epoch ms) or {@link #stop()}. */
    void start(long untilMs) {
        // The killer draws from its own generator, so the server-fault sequence depends on the seed alone.
        Random killRandom = new Random(random.nextLong());
        faults = new Thread(() -> faultLoop(untilMs), "soak-faults");
        killer = new Thread(() -> killLoop(untilMs, killRandom), "soak-killer");
        // Daemons: should the soak end abnormally, they must not keep the test JVM alive (close() stops them).
        faults.setDaemon(true);
        killer.setDaemon(true);
        faults.start();
        if (enabled.contains(Kind.ENGINE_KILL)) {
            killer.start();
        }
    }

    private void faultLoop(long untilMs) {
        List<Kind> first = new ArrayList<>(enabled);
        first.remove(Kind.ENGINE_KILL);
        Collections.shuffle(first, random);
        if (first.contains(Kind.MASTER_RESTART_EMPTY)) {
            // A cluster loses a master twice: the one with the data-set marker, and another (see the kind).
            first.add(random.nextInt(first.size() + 1), Kind.MASTER_RESTART_EMPTY);
        }
        // Every data-set loss comes before any corruption, so that no corrupted record is wiped with it.
        int lastLoss = Math.max(first.lastIndexOf(Kind.REDIS_RESTART_NO_AOF), first.lastIndexOf(Kind.MASTER_RESTART_EMPTY));
        int corrupt = first.indexOf(Kind.CORRUPT);
        if (lastLoss >= 0 && corrupt >= 0 && corrupt < lastLoss) {
            first.remove(corrupt);
            first.add(lastLoss, Kind.CORRUPT);
        }
        List<Kind> again = new ArrayList<>();
        // Weights of the repeated faults (the data-set losses happen only in the first round).
        addTimes(again, Kind.REDIS_RESTART_AOF, 3);
        addTimes(again, Kind.MASTER_RESTART_AOF, 3);
        addTimes(again, Kind.SLOT_MIGRATION, 3);
        addTimes(again, Kind.STALL, 4);
        addTimes(again, Kind.SCRIPT_FLUSH, 2);
        addTimes(again, Kind.MYSQL_STOP, 1);
        addTimes(again, Kind.CORRUPT, 1);
        again.retainAll(enabled);
        while (!stopping && System.currentTimeMillis() < untilMs) {
            sleepUntilOr(System.currentTimeMillis() + settings.gapMinMs()
                    + random.nextInt((int) (settings.gapMaxMs() - settings.gapMinMs() + 1)), untilMs);
            if (stopping || System.currentTimeMillis() >= untilMs) {
                break;
            }
            Kind k = !first.isEmpty() ? first.remove(0) : again.isEmpty() ? null : again.get(random.nextInt(again.size()));
            if (k == null) {
                continue;
            }
            try {
                inject(k);
            } catch (RuntimeException e) {
                errors.add(k + ": " + e);
                note("fault " + k + " failed: " + e.getMessage());
            }
        }
    }

    private static void addTimes(List<Kind> l, Kind k, int times) {
        for (int i = 0; i < times; i++) {
            l.add(k);
        }
    }

    private void inject(Kind k) {
        switch (k) {
            case REDIS_RESTART_AOF -> {
                long down = 300 + random.nextInt(2200);
                long t = System.currentTimeMillis();
                redis.crash();
                counts.get(k).incrementAndGet();
                pause(down);
                redis.start();
                int lost = checkAofKept(t, redis.port(), null);
                note(t, "REDIS_RESTART_AOF: SIGKILL, answering again after " + Soak.secs(System.currentTimeMillis() - t)
                        + (lost == 0 ? "" : "; " + lost + " acknowledged writes of the last 2 s before the kill are gone"));
            }
            case REDIS_RESTART_NO_AOF -> {
                // After a MySQL outage or a stall the follower has a backlog to apply; losing Redis then
                // would lose that backlog by design. Let it catch up first, so what is lost is the
                // follower's ordinary lag (the "unsynced window").
                sleepUntilOr(quietUntil, Long.MAX_VALUE);
                int lost;
                long at;
                clients.fence().writeLock().lock();
                try {
                    lost = clients.segment().getAndIncrement();
                    at = System.currentTimeMillis();
                    redis.crash();
                    redis.wipe();
                } finally {
                    clients.fence().writeLock().unlock();
                }
                dataLosses.add(new DataLoss(at, lost, allBuckets()));
                counts.get(k).incrementAndGet();
                long down = 300 + random.nextInt(1200);
                pause(down);
                redis.start();
                note(at, "REDIS_RESTART_NO_AOF: SIGKILL, data files deleted, answering (empty) again after "
                        + Soak.secs(System.currentTimeMillis() - at));
            }
            case MYSQL_STOP -> {
                long down = settings.mysqlOutageMaxMs() / 2 + random.nextInt((int) (settings.mysqlOutageMaxMs() / 2 + 1));
                long t = System.currentTimeMillis();
                mysql.stop();
                counts.get(k).incrementAndGet();
                pause(down);
                mysql.start();
                note(t, "MYSQL_STOP: answering again after " + Soak.secs(System.currentTimeMillis() - t));
                quietUntil = System.currentTimeMillis() + 10_000;
            }
            case STALL -> {
                StallingProxy p = proxies.get(random.nextInt(proxies.size()));
                long length = 2000 + random.nextInt((int) (settings.stallMaxMs() - 2000 + 1));
                p.stall(true);
                counts.get(k).incrementAndGet();
                note("STALL " + p.name() + " for " + Soak.secs(length));
                try {
                    pause(length);
                } finally {
                    p.stall(false);
                }
                quietUntil = System.currentTimeMillis() + 10_000;
            }
            case SCRIPT_FLUSH -> {
                if (cluster == null) {
                    withRedis(c -> c.sync().scriptFlush());
                } else {
                    cluster.nodes().forEach(n -> ClusterNodes.onNode(n.port(), r -> r.scriptFlush()));
                }
                counts.get(k).incrementAndGet();
                note(cluster == null ? "SCRIPT_FLUSH" : "SCRIPT_FLUSH on every master");
            }
            case MASTER_RESTART_AOF -> {
                SoakRedis victim = cluster.nodes().get(random.nextInt(cluster.nodes().size()));
                Set<Integer> buckets = Set.copyOf(cluster.bucketsByMaster().get(victim.port()));
                long down = 300 + random.nextInt(2200);
                long t = System.currentTimeMillis();
                victim.crash();
                counts.get(k).incrementAndGet();
                pause(down);
                victim.start();
                int lost = checkAofKept(t, victim.port(), buckets);
                long ok = awaitClusterOk();
                note(t, "MASTER_RESTART_AOF 127.0.0.1:" + victim.port() + " (" + buckets.size() + " buckets): SIGKILL, answering again after "
                        + Soak.secs(ok - t) + (lost == 0 ? "" : "; " + lost + " acknowledged writes of the last 2 s before the kill are gone"));
            }
            case MASTER_RESTART_EMPTY -> {
                // As for one server: the follower's backlog after an outage would be lost by design.
                sleepUntilOr(quietUntil, Long.MAX_VALUE);
                int markerPort = cluster.ownerOf(SlotHash.getSlot(RedisKeys.EPOCH));
                if (markerFirst == null) {
                    markerFirst = random.nextBoolean();
                }
                boolean marker = markerFirst == dataLosses.isEmpty();
                List<SoakRedis> candidates = cluster.nodes().stream().filter(n -> (n.port() == markerPort) == marker).toList();
                SoakRedis victim = candidates.get(random.nextInt(candidates.size()));
                Set<Integer> buckets = Set.copyOf(cluster.bucketsByMaster().get(victim.port()));
                int lost;
                long at;
                clients.fence().writeLock().lock();
                try {
                    lost = clients.segment().getAndIncrement();
                    at = System.currentTimeMillis();
                    victim.crash();
                    victim.wipe();
                } finally {
                    clients.fence().writeLock().unlock();
                }
                dataLosses.add(new DataLoss(at, lost, buckets));
                counts.get(k).incrementAndGet();
                pause(300 + random.nextInt(1200));
                victim.start();
                long ok = awaitClusterOk();
                note(at, "MASTER_RESTART_EMPTY 127.0.0.1:" + victim.port() + ": SIGKILL, data files deleted (node id and slots kept), "
                        + buckets.size() + " buckets lost" + (marker ? " and the data-set marker " + RedisKeys.EPOCH : "")
                        + ", answering (empty) again after " + Soak.secs(ok - at));
            }
            case SLOT_MIGRATION -> {
                int bucket = random.nextInt(RedisKeys.buckets());
                int slot = SlotHash.getSlot(RedisKeys.hashTag(bucket));
                int source = cluster.ownerOf(slot);
                List<Integer> others = cluster.nodes().stream().map(SoakRedis::port).filter(p -> p != source).toList();
                int target = others.get(random.nextInt(others.size()));
                long t = System.currentTimeMillis();
                int moved;
                try {
                    moved = cluster.migrateSlot(slot, target);
                } catch (RuntimeException e) {
                    // A MIGRATE that timed out: finish the move rather than leave the slot half moved.
                    note(t, "SLOT_MIGRATION of slot " + slot + " failed once (" + e.getMessage() + "); finishing it");
                    moved = cluster.migrateSlot(slot, target);
                }
                counts.get(k).incrementAndGet();
                note(t, "SLOT_MIGRATION bucket " + bucket + " (slot " + slot + ") from 127.0.0.1:" + source + " to 127.0.0.1:" + target
                        + ": " + moved + " keys in " + Soak.secs(System.currentTimeMillis() - t));
            }
            case CORRUPT -> corrupt();
            case ENGINE_KILL -> throw new IllegalArgumentException("engine kills run on their own thread");
        }
    }

    /**
     * Right after a restart with AOF (before clients and sweepers retry, which takes them 0.5 s or more;
     * a restarted cluster master refuses writes for 2 s more): which acknowledgements of the 2 s before the
     * kill did Redis lose? An applied transition writes the order's version and its outbox entry in one
     * script, so a version below the acknowledged one means both are gone. (Replies read up to 250 ms after
     * the kill were still sent by the dead server.)
     *
     * @param port the restarted server, read directly
     * @param buckets the buckets it holds (a cluster master), or null for all
     * @return how many were lost
     */
    private int checkAofKept(long killedAtMs, int port, Set<Integer> buckets) {
        List<SoakClients.Ack> window = clients.acks().stream()
                .filter(a -> a.atMs() >= killedAtMs - 2000 && a.atMs() <= killedAtMs + 250)
                .filter(a -> buckets == null || buckets.contains(RedisKeys.bucket(a.orderId()))).toList();
        if (window.isEmpty()) {
            return 0;
        }
        List<String> versions = withNode(port, c -> {
            var async = c.async();
            List<RedisFuture<String>> fs = window.stream()
                    .map(a -> async.hget(RedisKeys.order(a.orderId()), "version")).toList();
            return fs.stream().map(f -> {
                try {
                    return f.get(5, TimeUnit.SECONDS);
                } catch (Exception e) {
                    throw new IllegalStateException("cannot read versions after the restart: " + e, e);
                }
            }).toList();
        });
        int lost = 0;
        for (int i = 0; i < window.size(); i++) {
            String v = versions.get(i);
            if (v == null || !v.chars().allMatch(Character::isDigit) || Long.parseLong(v) < window.get(i).version()) {
                aofLost.add(window.get(i));
                lost++;
            }
        }
        return lost;
    }

    private void corrupt() {
        // An order left unpaid, due in 1.5-6 s: no client touches it again, a sweeper will at its deadline.
        String id = null;
        for (int tries = 0; tries < 20 && id == null; tries++) {
            String candidate = clients.unpaidOrderDueIn(1500, 6000);
            if (candidate == null) {
                Soak.sleep(200);
                continue;
            }
            String status = withRedis(c -> c.sync().hget(RedisKeys.order(candidate), "status"));
            if (Integer.toString(OrderStatus.WAIT_PAY.code()).equals(status)) {
                id = candidate;
            }
        }
        if (id == null) {
            note("CORRUPT skipped: no unpaid order due in 1.5-6 s");
            return;
        }
        // Both shapes of issue 11: a number no status has, and no number at all.
        String value = corruptions.size() % 2 == 0 ? "7" : "x";
        String key = RedisKeys.order(id);
        withRedis(c -> c.sync().hset(key, "status", value));
        corruptions.add(new Corruption(id, value, System.currentTimeMillis()));
        counts.get(Kind.CORRUPT).incrementAndGet();
        note("CORRUPT " + id + " status=" + value + " (bucket " + RedisKeys.bucket(id) + ")");
    }

    private void killLoop(long untilMs, Random r) {
        while (!stopping && System.currentTimeMillis() < untilMs) {
            sleepUntilOr(System.currentTimeMillis() + settings.killGapMinMs()
                    + r.nextInt((int) (settings.killGapMaxMs() - settings.killGapMinMs() + 1)), untilMs);
            if (stopping || System.currentTimeMillis() >= untilMs) {
                break;
            }
            int i = r.nextInt(engines.size());
            long down = 200 + r.nextInt(2800);
            try {
                engines.kill(i);
                counts.get(Kind.ENGINE_KILL).incrementAndGet();
                note("ENGINE_KILL engine-" + i + ", restart after " + Soak.secs(down));
                pause(down);
            } catch (RuntimeException e) {
                errors.add("ENGINE_KILL: " + e);
            } finally {
                engines.start(i);
            }
        }
    }

    /**
     * Stops injecting, waits (at most 90 s) for the current fault to end, then makes sure everything runs:
     * Redis, MariaDB, every engine process, no proxy stalled.
     */
    void stop() {
        stopping = true;
        for (Thread t : new Thread[]{faults, killer}) {
            if (t != null && t.isAlive()) {
                // No interrupt: a fault half done (MariaDB starting) must finish; every pause polls the flag.
                try {
                    t.join(90_000);
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                }
            }
        }
        proxies.forEach(p -> p.stall(false));
        if (redis != null && !redis.running()) {
            redis.start();
        }
        if (cluster != null) {
            cluster.start();
        }
        if (!mysql.running()) {
            mysql.start();
        }
        for (int i = 0; i < engines.size(); i++) {
            if (!engines.alive(i)) {
                engines.start(i);
            }
        }
    }

    /** Stops injecting without restoring anything (for clean-up after an aborted run; see {@link #stop()}). */
    @Override
    public void close() {
        stopping = true;
    }

    /** Waits (at most 30 s) until every master says cluster_state:ok. @return when, epoch ms */
    private long awaitClusterOk() {
        cluster.awaitOk(30_000);
        return System.currentTimeMillis();
    }

    private Set<Integer> allBuckets() {
        Set<Integer> all = new java.util.HashSet<>();
        for (int b = 0; b < RedisKeys.buckets(); b++) {
            all.add(b);
        }
        return all;
    }

    /** Runs {@code f} on the server or the cluster (any running node's address), through the commands both share. */
    private <T> T withRedis(Function<SoakRedisLink, T> f) {
        String uri = cluster == null ? redis.uri()
                : cluster.nodes().stream().filter(SoakRedis::running).findFirst().orElseThrow().uri();
        try (SoakRedisLink link = SoakRedisLink.open(uri, cluster != null, Duration.ofSeconds(2))) {
            return f.apply(link);
        }
    }

    /** Runs {@code f} on a plain connection to the server on {@code port} (on a cluster, one master). */
    private <T> T withNode(int port, Function<StatefulRedisConnection<String, String>, T> f) {
        RedisURI uri = RedisURI.create("redis://127.0.0.1:" + port);
        uri.setTimeout(Duration.ofSeconds(2));
        RedisClient c = RedisClient.create(uri);
        try (StatefulRedisConnection<String, String> conn = c.connect()) {
            return f.apply(conn);
        } finally {
            c.shutdown(Duration.ZERO, Duration.ofSeconds(1));
        }
    }

    private void note(String what) {
        note(System.currentTimeMillis(), what);
    }

    /** Adds a timeline line for a fault that began at {@code atMs} (epoch ms). */
    private void note(long atMs, String what) {
        timeline.add(Map.entry(atMs, String.format(Locale.ROOT, "t+%6.1f s  %s", (atMs - t0) / 1000.0, what)));
    }

    /** Sleeps until {@code min(wakeMs, untilMs)} (epoch ms), returning early once stopping. */
    private void sleepUntilOr(long wakeMs, long untilMs) {
        long end = Math.min(wakeMs, untilMs);
        while (!stopping && System.currentTimeMillis() < end) {
            Soak.sleep(Math.min(200, end - System.currentTimeMillis()));
        }
    }

    /** Sleeps {@code ms}, returning early once stopping (the fault then ends at once). */
    private void pause(long ms) {
        sleepUntilOr(System.currentTimeMillis() + ms, Long.MAX_VALUE);
    }

    /** @return faults injected so far, by kind (every kind present) */
    Map<Kind, Integer> counts() {
        Map<Kind, Integer> m = new LinkedHashMap<>();
        counts.forEach((k, v) -> m.put(k, v.get()));
        return m;
    }

    /** @return one line per fault, in the order they began */
    List<String> timeline() {
        return timeline.stream().sorted(Map.Entry.comparingByKey()).map(Map.Entry::getValue).toList();
    }

    List<Corruption> corruptions() {
        return List.copyOf(corruptions);
    }

    /** @return acknowledgements whose write Redis did not have after a SIGKILL with AOF everysec */
    List<SoakClients.Ack> aofLost() {
        return List.copyOf(aofLost);
    }

    /** @return the data-set losses (one server: at most one; a cluster: a master restarted empty, twice), in order */
    List<DataLoss> dataLosses() {
        return List.copyOf(dataLosses);
    }

    /** @return faults that could not be injected (bugs of the soak, not of the product) */
    List<String> errors() {
        return List.copyOf(errors);
    }
}
