package com.orderconsole.bench;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.orderconsole.api.ApiServer;
import com.orderconsole.app.Services;
import com.orderconsole.domain.Operator;
import com.orderconsole.domain.OrderState;
import com.orderconsole.domain.OrderStatus;
import com.orderconsole.domain.Role;
import com.orderconsole.domain.TransitionRequest;
import com.orderconsole.redis.RedisKeys;
import io.lettuce.core.RedisFuture;
import org.HdrHistogram.Histogram;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.locks.LockSupport;
import java.util.function.Supplier;

/**
 * The HTTP API of serve (issue 32, item 6), figures side by side in one run: transitions/s over the API with keep-alive at
 * 64 connections against the in-process service path at the same concurrency; p50/p99 at 1,000 requests/s; HTTP PAY
 * p99 during an expiry storm; the change feed's delivery lag at 2,000 transitions/s; and a bare route on the same server
 * stack, to bound what the stack itself costs. The load client is {@link HttpLoad} (the feed's consumer the JDK's
 * HttpClient) on loopback, bounded in count and time.
 */
final class ApiScenario {
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final Operator LOAD = Operator.system("bench-load");
    static final int CONNECTIONS = 64;
    static final int PACED_RATE = 1000;
    static final int PACED_SECONDS = 10;
    static final int STORM_PAY_RATE = 500;
    static final int FEED_RATE = 2000;
    static final int FEED_SECONDS = 10;

    private final BenchEnv env;
    private final Table table;
    private final int perSide;
    private final int storm;
    private final HttpClient http = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1)
            .executor(Executors.newFixedThreadPool(4, r -> {
                Thread t = new Thread(r, "feed-client");
                t.setDaemon(true); // the benchmark JVM must end when main does
                return t;
            })).connectTimeout(Duration.ofSeconds(5)).build();
    private String base;
    private int port;
    private String token;
    private static int clientNumber;

    ApiScenario(BenchEnv env, Table table, int perSide, int storm) {
        this.env = env;
        this.table = table;
        this.perSide = perSide;
        this.storm = storm;
    }

    private ApiServer start(Services s) {
        token = s.apiClients().add(Operator.system("bench"), "bench-" + (++clientNumber) + "-" + System.nanoTime() % 100000, Role.SUPPORT).token();
        ApiServer api = ApiServer.start(s, ApiServer.Settings.of("127.0.0.1", 0));
        port = api.port();
        base = "http://127.0.0.1:" + port;
        return api;
    }

    private static final String PAY_BODY = "{\"to\":\"PAID\"}";

    private String payPath(String id) {
        return "/v1/orders/" + id + "/transitions";
    }

    private HttpLoad connect() {
        try {
            return new HttpLoad(port);
        } catch (java.io.IOException e) {
            throw new java.io.UncheckedIOException(e);
        }
    }

    private HttpRequest pay(String id) {
        return HttpRequest.newBuilder(URI.create(base + "/v1/orders/" + id + "/transitions")).timeout(Duration.ofSeconds(10))
                .header("Authorization", "Bearer " + token).header("Content-Type", "application/json")
                .POST(HttpRequest.BodyPublishers.ofString("{\"to\":\"PAID\"}")).build();
    }

    private void seedWaitPay(String prefix, int n, boolean mysqlToo) {
        long now = env.redis.nowMs();
        long expire = now + BenchEnv.PAYMENT_TIMEOUT.toMillis();
        if (mysqlToo) {
            env.seed(n, i -> BenchEnv.Seed.both(new OrderState(String.format("%s%08d", prefix, i), OrderStatus.WAIT_PAY, 1, now, now), expire));
        } else {
            env.seedRedis(n, i -> BenchEnv.Seed.both(new OrderState(String.format("%s%08d", prefix, i), OrderStatus.WAIT_PAY, 1, now, now), expire));
        }
    }

    void run() {
        Services s = env.fresh();
        try (ApiServer api = start(s)) {
            throughput(s);
            paced(s);
        }
        if (Boolean.getBoolean("bench.apiHttpOnly")) {
            return; // comparing server settings: the two HTTP figures alone
        }
        stormPay();
        feedLag();
    }

    /** Warm-up rounds of this many requests, each side on orders of its own. */
    static final int ROUND = 10_000;
    /** At most this many rounds or {@link #WARM_UP_MAX_SECONDS} per side, whichever comes first. */
    static final int MAX_ROUNDS = 20;
    static final int WARM_UP_MAX_SECONDS = 60;
    /** Compile time per request in a round under which the JIT counts as settled (the API's window at steady state: 3-9). */
    static final double SETTLED_JIT_US = 5;
    /** The answer of the bare endpoint: the size of a transition's answer, fixed, so only the handler differs. */
    private static final byte[] BARE_ANSWER = ("{\"orderId\":\"h00000001\",\"applied\":true,\"repeat\":false,\"code\":1,\"result\":\"APPLIED\","
            + "\"description\":\"applied\",\"from\":\"WAIT_PAY\",\"to\":\"PAID\",\"version\":2,\"at\":\"2026-12-03T18:00:00Z\","
            + "\"atMs\":1796320800000,\"inMysql\":false}").getBytes(java.nio.charset.StandardCharsets.UTF_8);

    /** One closed-loop worker: its calls, and what it gives back when the loop ends. */
    private interface Worker {
        void call(int i) throws Exception;

        default void done() {
        }
    }

    /**
     * Closed loop, 64 workers each side: in-process TransitionService calls, the API over HTTP with keep-alive, and a bare
     * endpoint per stack named in {@code -Dbench.apiBare} (default the product's; {@link BareStacks}), answering a fixed JSON
     * of the same size without our handler.
     * Each side is first warmed up in rounds until the JIT settles (its total compile time grew by under 1 % in the last
     * round), so the window measures compiled code; the window's JIT time per request says whether it did. The load client
     * runs in this JVM and shares the two cores: its CPU is measured and shown apart from the rest of the JVM's.
     */
    private void throughput(Services s) {
        seedWaitPay("wi", ROUND * MAX_ROUNDS / 2, false); // the in-process path settles in a few rounds
        seedWaitPay("wh", ROUND * MAX_ROUNDS, false);
        seedWaitPay("i", perSide, false);
        seedWaitPay("h", perSide, false);
        String wiText = warmUp(MAX_ROUNDS / 2, () -> i -> s.transitions().transition(LOAD, TransitionRequest.of(String.format("wi%08d", i), OrderStatus.PAID, "bench", "")));
        Measured in = measure("in-process", () -> i -> s.transitions().transition(LOAD, TransitionRequest.of(String.format("i%08d", i), OrderStatus.PAID, "bench", "")));
        AtomicLong failed = new AtomicLong();
        java.util.concurrent.BlockingQueue<HttpLoad> apiConnections = connections(port);
        String whText = warmUp(MAX_ROUNDS, () -> httpWorker(apiConnections, "wh", new AtomicLong()));
        Measured http = measure("http", () -> httpWorker(apiConnections, "h", failed));
        apiConnections.forEach(ApiScenario::closeQuietly);

        List<String[]> bareRows = new ArrayList<>();
        for (String stack : System.getProperty("bench.apiBare", "jetty").split(",")) {
            AtomicLong bareFailed = new AtomicLong();
            try (BareStacks.Bare bare = BareStacks.start(stack.trim(), BARE_ANSWER)) {
                java.util.concurrent.BlockingQueue<HttpLoad> bareConnections = connections(bare.port());
                // The same path shape, headers and body as a payment, so the server parses what it parses for the API.
                String bareText = warmUp(MAX_ROUNDS, () -> httpWorker(bareConnections, "b", new AtomicLong()));
                Measured m = measure("bare " + stack, () -> httpWorker(bareConnections, "b", bareFailed));
                bareConnections.forEach(ApiScenario::closeQuietly);
                bareRows.add(new String[]{bare.what(), bareText, Long.toString(bareFailed.get()), m.cpuText() + "; " + m.gc,
                        Double.toString(m.rate)});
            }
        }
        double ratio = http.rate / in.rate;
        table.add(Row.info("API: in-process service path, " + CONNECTIONS + " callers, " + Table.num(perSide, 0) + " PAY after warm-up ("
                + wiText + "); callers' CPU " + Table.num(in.clientUs, 0) + " µs per call, JIT " + Table.num(in.jitUs, 1) + " µs per call; "
                + in.gc, Table.num(in.rate, 0), "transitions/s"));
        table.add(Row.judged("API: over HTTP, keep-alive, " + CONNECTIONS + " connections, " + Table.num(perSide, 0) + " PAY after warm-up ("
                + whText + "), " + failed.get() + " not 200; CPU per request: " + http.cpuText() + "; " + http.gc,
                Table.num(http.rate, 0), "transitions/s", ">= 50 % of in-process", Table.num(100 * ratio, 0) + " %", ratio >= 0.5 && failed.get() == 0));
        for (String[] b : bareRows) {
            double rate = Double.parseDouble(b[4]);
            table.add(Row.info("API: bare endpoint (" + b[0] + ", fixed " + BARE_ANSWER.length + "-byte JSON, body read, no auth, no handler of ours), "
                    + CONNECTIONS + " connections, " + Table.num(perSide, 0) + " POST after warm-up (" + b[1] + "), " + b[2]
                    + " not 200; CPU per request: " + b[3] + "; " + Table.num(100 * rate / in.rate, 0)
                    + " % of in-process, API " + Table.num(100 * http.rate / rate, 0) + " % of bare", Table.num(rate, 0), "requests/s"));
        }
    }

    /** A measured window's figures: rate, and CPU per request by who spent it (µs). */
    private record Measured(double rate, double clientUs, double jvmUs, double redisUs, double jitUs, String threads, String gc) {
        String cpuText() {
            return "load client " + Table.num(clientUs, 0) + " µs, rest of the JVM " + Table.num(jvmUs, 0) + " µs (" + threads
                    + "), Redis " + Table.num(redisUs, 0) + " µs; JIT compile time " + Table.num(jitUs, 1) + " µs per request";
        }
    }

    private Measured measure(String label, Supplier<Worker> perWorker) {
        CpuMeter cpu = new CpuMeter(env);
        java.lang.management.CompilationMXBean jit = java.lang.management.ManagementFactory.getCompilationMXBean();
        CpuMeter.Snapshot c0 = cpu.now();
        Map<String, Double> t0 = threadCpu();
        long jit0 = jit.getTotalCompilationTime();
        GcMeter gc = new GcMeter();
        System.out.println("api window " + label + " from " + java.time.Instant.now());
        Side side = closedLoop(perSide, perWorker);
        System.out.println("api window " + label + " to " + java.time.Instant.now());
        long jit1 = jit.getTotalCompilationTime();
        CpuMeter.Snapshot c1 = cpu.now();
        Map<String, Double> t1 = threadCpu();
        StringBuilder byThread = new StringBuilder();
        for (String group : List.of("server", "Lettuce", "JIT", "GC", "other")) {
            byThread.append(byThread.length() == 0 ? "" : ", ").append(group).append(' ')
                    .append(Table.num((t1.getOrDefault(group, 0.0) - t0.getOrDefault(group, 0.0)) * 1e6 / perSide, 0));
        }
        return new Measured(side.rate, side.callerCpuUs, (c1.jvm() - c0.jvm()) * 1e6 / perSide - side.callerCpuUs,
                (c1.redis() - c0.redis()) * 1e6 / perSide, (jit1 - jit0) * 1e3 / perSide, byThread.toString(), gc.since());
    }

    /**
     * Rounds of {@link #ROUND} requests until the JIT's total compile time grows by under 1 % in a round and by under
     * {@link #SETTLED_JIT_US} per request (after at least two), or {@code maxRounds} / {@link #WARM_UP_MAX_SECONDS}; round k
     * uses indexes k*ROUND and up. The second bound matters for a side measured late in the JVM's life: its total is large
     * by then, and 1 % of it was 60 µs of compiling per request in the next window.
     * @return what it took, in words
     */
    private String warmUp(int maxRounds, Supplier<Worker> perWorker) {
        java.lang.management.CompilationMXBean jit = java.lang.management.ManagementFactory.getCompilationMXBean();
        long t0 = System.nanoTime();
        long before = jit.getTotalCompilationTime();
        double growth = 1;
        double roundUs = Double.MAX_VALUE;
        int rounds = 0;
        while (rounds < maxRounds && System.nanoTime() - t0 < TimeUnit.SECONDS.toNanos(WARM_UP_MAX_SECONDS)) {
            int base = rounds * ROUND;
            closedLoop(ROUND, () -> {
                Worker w = perWorker.get();
                return new Worker() {
                    @Override
                    public void call(int i) throws Exception {
                        w.call(base + i);
                    }

                    @Override
                    public void done() {
                        w.done();
                    }
                };
            });
            rounds++;
            long after = jit.getTotalCompilationTime();
            growth = (after - before) / (double) Math.max(1, before);
            roundUs = (after - before) * 1000.0 / ROUND;
            before = after;
            if (rounds >= 2 && growth < 0.01 && roundUs < SETTLED_JIT_US) {
                break;
            }
        }
        return Table.num(rounds * ROUND, 0) + " requests in " + Table.num((System.nanoTime() - t0) / 1e9, 1) + " s, compile time +"
                + Table.num(100 * growth, 1) + " % (" + Table.num(roundUs, 1) + " µs per request) in the last round";
    }

    private java.util.concurrent.BlockingQueue<HttpLoad> connections(int port) {
        java.util.concurrent.BlockingQueue<HttpLoad> q = new java.util.concurrent.LinkedBlockingQueue<>();
        for (int c = 0; c < CONNECTIONS; c++) {
            try {
                q.add(new HttpLoad(port));
            } catch (java.io.IOException e) {
                throw new java.io.UncheckedIOException(e);
            }
        }
        return q;
    }

    private static void closeQuietly(HttpLoad c) {
        try {
            c.close();
        } catch (java.io.IOException e) {
            // closing a loopback socket: nothing to do
        }
    }

    private Worker httpWorker(java.util.concurrent.BlockingQueue<HttpLoad> pool, String prefix, AtomicLong failed) {
        HttpLoad c = Objects.requireNonNull(pool.poll());
        return new Worker() {
            @Override
            public void call(int i) {
                try {
                    if (c.post(payPath(String.format("%s%08d", prefix, i)), token, PAY_BODY) != 200) {
                        failed.incrementAndGet();
                    }
                } catch (Exception e) {
                    failed.incrementAndGet();
                }
            }

            @Override
            public void done() {
                pool.add(c);
            }
        };
    }

    /**
     * CPU seconds of this JVM's live threads by group, from /proc/self/task (Linux; empty elsewhere): the HTTP server's
     * threads, Lettuce's event loops, the JIT compilers, the garbage collector, the rest (the load client's threads are
     * measured apart, by {@link #closedLoop}).
     */
    static Map<String, Double> threadCpu() {
        Map<String, Double> m = new java.util.TreeMap<>();
        try (java.nio.file.DirectoryStream<java.nio.file.Path> tasks = java.nio.file.Files.newDirectoryStream(java.nio.file.Path.of("/proc/self/task"))) {
            for (java.nio.file.Path t : tasks) {
                try {
                    String stat = java.nio.file.Files.readString(t.resolve("stat"));
                    String comm = stat.substring(stat.indexOf('(') + 1, stat.lastIndexOf(')'));
                    String[] f = stat.substring(stat.lastIndexOf(')') + 2).split(" ");
                    double seconds = (Long.parseLong(f[11]) + Long.parseLong(f[12])) / 100.0;
                    String group = comm.startsWith("api-http") || comm.equals("HTTP-Dispatcher") ? "server" : comm.startsWith("lettuce") ? "Lettuce"
                            : comm.contains("CompilerThre") ? "JIT" : comm.startsWith("GC Thread") || comm.startsWith("G1 ") || comm.matches("Z[A-Z].*") ? "GC"
                            : comm.startsWith("api-load") ? "client" : "other";
                    m.merge(group, seconds, Double::sum);
                } catch (java.io.IOException | RuntimeException e) {
                    // the thread ended meanwhile
                }
            }
        } catch (java.io.IOException e) {
            // not Linux: no split
        }
        return m;
    }

    /** A closed loop's rate and the CPU its calling threads used per call. */
    private record Side(double rate, double callerCpuUs) {
    }

    /**
     * Collections and their time since it was made, from the JVM's collector beans; and the CPU time the host gave other
     * guests meanwhile (steal in /proc/stat, Linux): this machine is a VM, and its cores are sometimes not all its own.
     */
    static final class GcMeter {
        private final long count0 = count();
        private final long ms0 = millis();
        private final long steal0 = stealTicks();
        private final long t0 = System.nanoTime();

        private static long count() {
            return java.lang.management.ManagementFactory.getGarbageCollectorMXBeans().stream().mapToLong(b -> Math.max(0, b.getCollectionCount())).sum();
        }

        private static long millis() {
            return java.lang.management.ManagementFactory.getGarbageCollectorMXBeans().stream().mapToLong(b -> Math.max(0, b.getCollectionTime())).sum();
        }

        /** @return the steal column of /proc/stat's "cpu" line, in clock ticks (1/100 s), or -1 where there is none */
        private static long stealTicks() {
            try {
                String[] f = java.nio.file.Files.readAllLines(java.nio.file.Path.of("/proc/stat")).get(0).trim().split("\\s+");
                return Long.parseLong(f[8]);
            } catch (java.io.IOException | RuntimeException e) {
                return -1;
            }
        }

        String since() {
            long steal = stealTicks();
            double cpuMs = (System.nanoTime() - t0) / 1e6 * Runtime.getRuntime().availableProcessors();
            String stolen = steal0 < 0 || steal < 0 ? "" : "; steal " + (steal - steal0) * 10 + " ms ("
                    + Table.num(100 * (steal - steal0) * 10 / Math.max(1, cpuMs), 1) + " % of the cores' time)";
            return (count() - count0) + " collections, " + (millis() - ms0) + " ms in them" + stolen;
        }
    }

    private Side closedLoop(int n, Supplier<Worker> perWorker) {
        AtomicInteger next = new AtomicInteger();
        AtomicLong callerCpuNs = new AtomicLong();
        java.lang.management.ThreadMXBean threads = java.lang.management.ManagementFactory.getThreadMXBean();
        AtomicInteger named = new AtomicInteger();
        ExecutorService workers = Executors.newFixedThreadPool(CONNECTIONS, r -> new Thread(r, "api-load-" + named.incrementAndGet()));
        long t0 = System.nanoTime();
        CountDownLatch done = new CountDownLatch(CONNECTIONS);
        for (int w = 0; w < CONNECTIONS; w++) {
            workers.execute(() -> {
                long cpu0 = threads.getCurrentThreadCpuTime();
                Worker worker = perWorker.get();
                try {
                    for (int i = next.getAndIncrement(); i < n && System.nanoTime() - t0 < TimeUnit.SECONDS.toNanos(120); i = next.getAndIncrement()) {
                        worker.call(i);
                    }
                } catch (Exception e) {
                    throw new IllegalStateException(e);
                } finally {
                    worker.done();
                    callerCpuNs.addAndGet(threads.getCurrentThreadCpuTime() - cpu0);
                    done.countDown();
                }
            });
        }
        await(done, 180);
        double seconds = (System.nanoTime() - t0) / 1e9;
        workers.shutdownNow();
        int calls = Math.min(next.get(), n);
        return new Side(calls / seconds, callerCpuNs.get() / 1e3 / Math.max(1, calls));
    }

    /**
     * Open loop at 1,000 requests/s for 10 s, latency from when each was due (no coordinated omission): over HTTP, and the
     * in-process service path paced the same way (64 callers taking due requests from one queue), which says how much of
     * the tail is the HTTP server's and how much the rest of the machine's.
     */
    private void paced(Services s) {
        int n = PACED_RATE * PACED_SECONDS;
        seedWaitPay("l", n, false);
        seedWaitPay("p", n, false);
        GcMeter inGc = new GcMeter();
        AtomicLong inFailed = new AtomicLong();
        Histogram in = openLoop(n, PACED_RATE, inFailed, () -> k -> s.transitions().transition(LOAD,
                TransitionRequest.of(String.format("p%08d", k), OrderStatus.PAID, "bench", "")).applied() ? 200 : 409);
        String inGcText = inGc.since();
        GcMeter gc = new GcMeter();
        Histogram h = openLoop("l", n, PACED_RATE, new AtomicLong());
        String gcText = gc.since();
        table.add(Row.info("API: in-process service path paced the same way, p50 / p99 at " + PACED_RATE + " transitions/s ("
                + in.getTotalCount() + " PAY, " + inFailed.get() + " not applied; max " + Table.num(in.getMaxValue() / 1000.0, 1)
                + " ms; " + inGcText + ")", Table.num(in.getValueAtPercentile(50) / 1000.0, 2) + " / "
                + Table.num(in.getValueAtPercentile(99) / 1000.0, 2), "ms"));
        table.add(Row.info("API: p50 at " + PACED_RATE + " requests/s over HTTP (" + h.getTotalCount() + " PAY)",
                Table.num(h.getValueAtPercentile(50) / 1000.0, 2), "ms"));
        double p99 = h.getValueAtPercentile(99) / 1000.0;
        table.add(Row.judged("API: p99 at " + PACED_RATE + " requests/s over HTTP (max " + Table.num(h.getMaxValue() / 1000.0, 1) + " ms; " + gcText + ")",
                Table.num(p99, 2), "ms", "<= 5 ms", "", p99 <= 5));
    }

    /** One paced caller's call of request k: the HTTP status, or what stands for it. */
    private interface PacedCall {
        int call(long k) throws Exception;

        /** Ends the caller (closes its connection). */
        default void close() {
        }
    }

    /** Paced requests over {@link #CONNECTIONS} keep-alive connections; latency from when each was due. */
    private Histogram openLoop(String prefix, int n, int rate, AtomicLong failed) {
        return openLoop(n, rate, failed, () -> {
            HttpLoad c = connect();
            return new PacedCall() {
                @Override
                public int call(long k) throws java.io.IOException {
                    return c.post(payPath(String.format("%s%08d", prefix, k)), token, PAY_BODY);
                }

                @Override
                public void close() {
                    closeQuietly(c);
                }
            };
        });
    }

    /** Paced calls by {@link #CONNECTIONS} callers taking due requests from one queue; latency from when each was due. */
    private Histogram openLoop(int n, int rate, AtomicLong failed, Supplier<PacedCall> perCaller) {
        Histogram h = new Histogram(TimeUnit.SECONDS.toMicros(60), 3);
        java.util.concurrent.BlockingQueue<long[]> due = new java.util.concurrent.LinkedBlockingQueue<>();
        List<Thread> workers = new ArrayList<>();
        for (int w = 0; w < CONNECTIONS; w++) {
            Thread t = new Thread(() -> {
                PacedCall c = null;
                try {
                    c = perCaller.get();
                    for (long[] job = due.take(); job[0] >= 0; job = due.take()) {
                        int status;
                        try {
                            status = c.call(job[0]);
                        } catch (Exception e) {
                            status = -1;
                        }
                        long micros = Math.max(0, (System.nanoTime() - job[1]) / 1000);
                        synchronized (h) {
                            h.recordValue(Math.min(micros, h.getHighestTrackableValue()));
                        }
                        if (status != 200) {
                            failed.incrementAndGet();
                        }
                    }
                } catch (Exception e) {
                    failed.incrementAndGet();
                } finally {
                    if (c != null) {
                        c.close();
                    }
                }
            }, "http-load-" + w);
            t.start();
            workers.add(t);
        }
        long start = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(100);
        long period = 1_000_000_000L / rate;
        for (int k = 0; k < n; k++) {
            long at = start + k * period;
            while (System.nanoTime() < at) {
                LockSupport.parkNanos(Math.min(at - System.nanoTime(), 200_000));
            }
            due.add(new long[]{k, at});
        }
        for (int w = 0; w < CONNECTIONS; w++) {
            due.add(new long[]{-1, 0});
        }
        for (Thread t : workers) {
            try {
                t.join(60_000);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }
        return h;
    }

    /** {@code storm} orders expire in the same second while HTTP payments arrive at 500/s on other orders. */
    private void stormPay() {
        Services s = env.fresh();
        try (ApiServer api = start(s)) {
            long now = env.redis.nowMs();
            int payers = STORM_PAY_RATE * 30;
            long payExpire = now + BenchEnv.PAYMENT_TIMEOUT.toMillis();
            env.seedRedis(storm + payers, i -> i < storm
                    ? BenchEnv.Seed.both(new OrderState(String.format("s%08d", i), OrderStatus.WAIT_PAY, 1, now, now), null)
                    : BenchEnv.Seed.both(new OrderState(String.format("q%08d", i - storm), OrderStatus.WAIT_PAY, 1, now, now), payExpire));
            long second = (env.redis.nowMs() / 1000 + 3) * 1000;
            List<RedisFuture<Long>> fs = new ArrayList<>(storm);
            for (int i = 0; i < storm; i++) {
                String oid = String.format("s%08d", i);
                fs.add(env.raw.zadd(RedisKeys.cancelQueue(RedisKeys.bucket(oid)), second + i % 1000, oid));
            }
            fs.forEach(f -> env.redis.await(f, "ZADD"));
            s.sweeper().start(Duration.ofSeconds(1));
            // From 1 s before the storm second, for as long as the storm takes (bounded by the orders seeded: 30 s).
            long untilStorm = second - 1000 - System.currentTimeMillis();
            if (untilStorm > 0) {
                sleep(untilStorm);
            }
            AtomicLong failed = new AtomicLong();
            long t0 = System.currentTimeMillis();
            int n = Math.min(payers, STORM_PAY_RATE * 12);
            Histogram h = openLoop("q", n, STORM_PAY_RATE, failed);
            long overdue = 0;
            for (int b = 0; b < RedisKeys.buckets(); b++) {
                overdue += env.redis.await(env.raw.zcount(RedisKeys.cancelQueue(b), io.lettuce.core.Range.create(Double.NEGATIVE_INFINITY, (double) (second + 999))), "ZCOUNT");
            }
            s.sweeper().close();
            double p99 = h.getValueAtPercentile(99) / 1000.0;
            table.add(Row.judged("API: HTTP PAY p99 during the " + Table.num(storm, 0) + "-order expiry storm (" + STORM_PAY_RATE
                    + " PAY/s over " + (System.currentTimeMillis() - t0) / 1000 + " s, " + failed.get() + " not 200, " + overdue
                    + " storm orders still due after; max " + Table.num(h.getMaxValue() / 1000.0, 1) + " ms)",
                    Table.num(p99, 2), "ms", "< 25 ms", "", p99 < 25 && failed.get() == 0));
        }
    }

    /** 2,000 transitions/s for 10 s with the follower running; a consumer long-polls the feed; lag = received - applied. */
    private void feedLag() {
        Services s = env.fresh();
        int n = FEED_RATE * FEED_SECONDS;
        seedWaitPay("f", n, true);
        try (ApiServer api = start(s)) {
            s.follower().start(Duration.ofMillis(100));
            s.follower().awaitCaughtUp(Duration.ofSeconds(60));
            String cursor = "";
            while (true) {
                JsonNode p = feed(cursor, 0);
                cursor = p.path("cursor").asText();
                if (p.path("events").isEmpty()) {
                    break;
                }
            }
            Histogram lag = new Histogram(TimeUnit.MINUTES.toMillis(10), 3);
            AtomicLong received = new AtomicLong();
            String from = cursor;
            Thread consumer = new Thread(() -> {
                String c = from;
                long until = System.currentTimeMillis() + (FEED_SECONDS + 60) * 1000L;
                while (received.get() < n && System.currentTimeMillis() < until) {
                    JsonNode p = feed(c, 1);
                    long nowMs = System.currentTimeMillis();
                    for (JsonNode e : p.path("events")) {
                        lag.recordValue(Math.max(0, nowMs - e.path("atMs").asLong()));
                        received.incrementAndGet();
                    }
                    c = p.path("cursor").asText();
                }
            }, "feed-consumer");
            consumer.start();
            long start = System.nanoTime();
            long period = 1_000_000_000L / FEED_RATE;
            ConcurrentLinkedQueue<Throwable> errors = new ConcurrentLinkedQueue<>();
            List<CompletableFuture<?>> all = new ArrayList<>(n);
            for (int k = 0; k < n; k++) {
                long due = start + k * period;
                while (System.nanoTime() < due) {
                    LockSupport.parkNanos(Math.min(due - System.nanoTime(), 200_000));
                }
                all.add(s.transitions().transitionAsync(LOAD, TransitionRequest.of(String.format("f%08d", k), OrderStatus.PAID, "bench", ""))
                        .whenComplete((r, e) -> {
                            if (e != null) {
                                errors.add(e);
                            }
                        }));
            }
            try {
                consumer.join(TimeUnit.SECONDS.toMillis(FEED_SECONDS + 90));
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
            double p99 = lag.getValueAtPercentile(99) / 1000.0;
            table.add(Row.info("API: feed lag p50 at " + FEED_RATE + " transitions/s (" + received.get() + " of " + n + " delivered)",
                    Table.num(lag.getValueAtPercentile(50) / 1000.0, 3), "s"));
            table.add(Row.judged("API: feed lag p99 at " + FEED_RATE + " transitions/s (Redis accepted -> consumer received; max "
                    + Table.num(lag.getMaxValue() / 1000.0, 2) + " s, " + errors.size() + " errors)", Table.num(p99, 3), "s", "< 1 s", "",
                    p99 < 1 && received.get() == n));
        }
    }

    private JsonNode feed(String cursor, int wait) {
        try {
            HttpRequest r = HttpRequest.newBuilder(URI.create(base + "/v1/events?limit=1000&wait=" + wait + (cursor.isEmpty() ? "" : "&after=" + cursor)))
                    .timeout(Duration.ofSeconds(30)).header("Authorization", "Bearer " + token).GET().build();
            return JSON.readTree(http.send(r, HttpResponse.BodyHandlers.ofString()).body());
        } catch (Exception e) {
            throw new IllegalStateException("feed read failed: " + e.getMessage(), e);
        }
    }

    private static void await(CountDownLatch l, int seconds) {
        try {
            l.await(seconds, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    private static void sleep(long ms) {
        try {
            Thread.sleep(ms);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
