package com.orderconsole.bench;

import com.nimbusds.jose.jwk.JWKSet;
import com.nimbusds.jose.jwk.KeyUse;
import com.nimbusds.jose.jwk.RSAKey;
import com.nimbusds.jose.jwk.gen.RSAKeyGenerator;
import com.orderconsole.api.ApiServer;
import com.orderconsole.app.ConsoleServices;
import com.orderconsole.app.Services;
import com.orderconsole.app.remote.AccessTokens;
import com.orderconsole.app.remote.RemoteAudit;
import com.orderconsole.app.remote.RemoteMonitor;
import com.orderconsole.app.remote.RemoteRules;
import com.orderconsole.app.remote.RemoteServices;
import com.orderconsole.app.remote.ServeClient;
import com.orderconsole.domain.Operator;
import com.orderconsole.domain.OrderState;
import com.orderconsole.domain.OrderStatus;
import com.orderconsole.domain.Role;
import com.orderconsole.domain.TransitionRequest;
import com.orderconsole.service.audit.Audit;
import com.orderconsole.service.audit.AuditFilter;
import com.orderconsole.service.monitor.Monitor;
import com.orderconsole.service.order.OrderPage;
import com.orderconsole.service.order.OrderQuery;
import com.orderconsole.service.order.OrderStory;
import com.orderconsole.service.rules.Rules;
import com.orderconsole.service.identity.OidcSettings;
import com.orderconsole.service.identity.OidcVerifier;
import com.sun.net.httpserver.HttpServer;
import org.HdrHistogram.Histogram;

import java.net.InetSocketAddress;
import java.net.URI;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.Executors;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.locks.LockSupport;

/**
 * The console over serve's API against the console in-process, on the same data in one run (issue 43 item 7, issue 44
 * item 8). One serve (HTTP API with its follower) on {@code bench.remoteOrders} orders (default 1,000,000, seeded as the
 * scale scenario seeds them); a person's RS256 access token from an OIDC provider in this JVM, as a signed-in console
 * sends it; {@link RemoteServices} (and its audit and monitor classes) against {@link Services}.
 *
 * <p>Page loads, samples alternating between the two sides so the shared machine's drift falls on both: the orders page
 * (50 rows, one status filter, the status rotating), an order's story (orders with three recorded transitions), the
 * audit page (first 100 rows) and a state-graph refresh as the page does it (rules, state counts, moves of the last hour;
 * remotely each refresh reads serve afresh, as one every 2 s does). Targets: the orders page's and the story's p99 over
 * the API at most 2 × in-process p99 + 5 ms.
 *
 * <p>Load: PAY transitions over serve's API at a fixed pace ({@code bench.remotePace}/s, latency from when each was due),
 * in windows of {@code bench.remoteWindowSeconds} alternating without and with 50 remote consoles, each refreshing its
 * state graph and its orders page every 2 s with its own token and connection. Target: transitions' p99 with the
 * consoles at most 10 % above without.
 */
final class RemoteScenario {
    static final int PAGE_ROWS = 50;
    static final int AUDIT_ROWS = 100;
    static final int STORY_ORDERS = 1000;
    static final int CONSOLES = 50;
    static final long REFRESH_MS = 2000;
    static final int PAIRS = 3;
    static final int PACED_CONNECTIONS = 16;
    private static final OrderStatus[] FILTERS = OrderStatus.values();
    private static final Operator BENCH = Operator.system("bench");
    private static final String PAY_BODY = "{\"to\":\"PAID\"}";

    private final BenchEnv env;
    private final Table table;
    private final int n;
    private final int samples = Integer.getInteger("bench.remoteSamples", 1000);
    private final int pace = Integer.getInteger("bench.remotePace", 300);
    private final int windowSeconds = Integer.getInteger("bench.remoteWindowSeconds", 20);
    private final AtomicInteger nextPay = new AtomicInteger();

    /** @param orders orders in both stores besides the story and load orders, e.g. 1,000,000 */
    RemoteScenario(BenchEnv env, Table table, int orders) {
        this.env = env;
        this.table = table;
        this.n = orders;
    }

    private int payOrders() {
        return pace * windowSeconds * (2 * PAIRS + 1) + pace * 5;
    }

    private BenchEnv.Seed seed(int i, long now0) {
        if (i < n) {
            OrderStatus s = ScaleScenarios.natural(i);
            long since = now0 - (long) (ScaleScenarios.unit(i) * ScaleScenarios.spreadMs(s));
            long v = ScaleScenarios.version(s);
            OrderState st = new OrderState(String.format("r%08d", i), s, v, since, since - (v - 1) * Duration.ofHours(1).toMillis());
            return BenchEnv.Seed.both(st, s == OrderStatus.WAIT_PAY ? since + BenchEnv.PAYMENT_TIMEOUT.toMillis() : null);
        }
        String id = i < n + STORY_ORDERS ? storyId(i - n) : payId(i - n - STORY_ORDERS);
        return BenchEnv.Seed.both(new OrderState(id, OrderStatus.WAIT_PAY, 1, now0, now0), now0 + BenchEnv.PAYMENT_TIMEOUT.toMillis());
    }

    private static String storyId(int k) {
        return String.format("s%07d", k);
    }

    private static String payId(int k) {
        return String.format("t%08d", k);
    }

    void run() throws Exception {
        RSAKey key = new RSAKeyGenerator(2048).keyUse(KeyUse.SIGNATURE).keyID("bench-remote").generate();
        HttpServer idp = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 16);
        String issuer = "http://127.0.0.1:" + idp.getAddress().getPort() + "/bench";
        idp.createContext("/bench/.well-known/openid-configuration", ex -> JwtApiScenario.answer(ex,
                "{\"issuer\":\"" + issuer + "\",\"jwks_uri\":\"" + issuer + "/jwks\"}"));
        idp.createContext("/bench/jwks", ex -> JwtApiScenario.answer(ex, new JWKSet(key.toPublicJWK()).toString()));
        idp.start();
        try {
            Services s = env.fresh();
            long now0 = env.redis.nowMs();
            int total = n + STORY_ORDERS + payOrders();
            long seedMs = env.seed(total, i -> seed(i, now0));
            table.add(Row.info("Remote: seeding " + Table.num(total, 0) + " orders into both stores (" + Table.num(n, 0)
                    + " spread as in the scale scenario, " + STORY_ORDERS + " for stories, the rest for the paced PAYs)",
                    Table.num(total / (seedMs / 1000.0), 0), "orders/s"));
            s.follower().start(Duration.ofMillis(200)); // serve's follower, at serve's poll
            try {
                stories(s);
                String client = s.apiClients().add(BENCH, "bench-remote-" + System.nanoTime() % 100000, Role.SUPPORT).token();
                OidcSettings settings = OidcSettings.of(issuer, "order-console-api", "groups", "console-support=support");
                try (ApiServer api = ApiServer.start(s, ApiServer.Settings.of("127.0.0.1", 0), new OidcVerifier(settings))) {
                    URI base = URI.create("http://127.0.0.1:" + api.port());
                    ServeClient agent = new ServeClient(base, new Fixed(JwtApiScenario.mint(key, issuer, "agent")));
                    pageLoads(s, new RemoteServices(agent), agent);
                    List<String> people = new ArrayList<>();
                    for (int c = 0; c < CONSOLES; c++) {
                        people.add(JwtApiScenario.mint(key, issuer, "agent" + c));
                    }
                    consoles(base, api.port(), client, people);
                    statsParts(s, agent);
                }
            } finally {
                s.follower().close();
            }
        } finally {
            idp.stop(0);
        }
    }

    /** Gives each story order three recorded transitions (PAID, WAIT_SHIP, SHIPPED) and waits for MySQL's history. */
    private void stories(Services s) {
        long applied = 0;
        for (OrderStatus to : List.of(OrderStatus.PAID, OrderStatus.WAIT_SHIP, OrderStatus.SHIPPED)) {
            for (int k = 0; k < STORY_ORDERS; k++) {
                applied += s.transitions().transition(BENCH, TransitionRequest.of(storyId(k), to, "bench", "story")).applied() ? 1 : 0;
            }
        }
        boolean caughtUp = s.follower().awaitCaughtUp(Duration.ofSeconds(120));
        if (applied != 3L * STORY_ORDERS || !caughtUp) {
            throw new IllegalStateException("story orders: " + applied + " of " + 3 * STORY_ORDERS + " transitions applied, follower caught up: " + caughtUp);
        }
    }

    /** One page load on either side; k numbers the sample (the same sequence on both). */
    private interface Load {
        void run(int k);
    }

    private static OrderQuery oneFilter(int k) {
        return new OrderQuery(null, null, Set.of(FILTERS[k % FILTERS.length]), false, null, null, false, false);
    }

    private static void page(ConsoleServices cs, int k) {
        OrderPage p = cs.orders().page(oneFilter(k), null, PAGE_ROWS);
        if (p.rows().size() != PAGE_ROWS) {
            throw new IllegalStateException("orders page of " + oneFilter(k).statuses() + " has " + p.rows().size() + " rows");
        }
    }

    private static void story(ConsoleServices cs, int k) {
        OrderStory st = cs.orders().story(storyId(k % STORY_ORDERS));
        if (st.steps().size() < 3) {
            throw new IllegalStateException("story of " + storyId(k % STORY_ORDERS) + " has " + st.steps().size() + " steps");
        }
    }

    private static void refresh(Rules rules, Monitor monitor) {
        rules.current();
        monitor.stateCounts();
        monitor.transitionsLastHour();
    }

    private void pageLoads(Services s, RemoteServices remote, ServeClient agent) {
        Audit remoteAudit = new RemoteAudit(agent);
        String at = " at " + Table.num(n, 0) + " orders";
        compare("orders page, " + PAGE_ROWS + " rows, one status filter (rotating over the 6)" + at, samples,
                k -> page(s, k), k -> page(remote, k), true);
        compare("an order's story (3 recorded transitions)" + at, samples, k -> story(s, k), k -> story(remote, k), true);
        compare("audit page, first " + AUDIT_ROWS + " rows, no filter", Math.max(50, samples / 5),
                k -> s.audit().page(AuditFilter.all(), null, AUDIT_ROWS), k -> remoteAudit.page(AuditFilter.all(), null, AUDIT_ROWS), false);
        // In-process the rules come from their 1 s cache; remotely each refresh reads serve afresh, as one every 2 s does,
        // and serve answers from its stats document counted within the last second for every caller.
        compare("state-graph refresh (rules, state counts with stuck, moves of the last hour; remotely serve's count shared for 1 s)" + at, Math.max(50, samples / 5),
                k -> refresh(s.rules(), s.monitor()), k -> refresh(new RemoteRules(agent), new RemoteMonitor(agent)), false);
    }

    /** Alternates in-process and remote samples after a warm-up of each; adds the rows. */
    private void compare(String what, int count, Load local, Load remote, boolean judged) {
        int warm = Math.max(20, count / 5);
        for (int k = 0; k < warm; k++) {
            local.run(k);
            remote.run(k);
        }
        Histogram in = new Histogram(TimeUnit.SECONDS.toMicros(60), 3);
        Histogram over = new Histogram(TimeUnit.SECONDS.toMicros(60), 3);
        for (int k = 0; k < count; k++) {
            long t0 = System.nanoTime();
            local.run(k);
            long t1 = System.nanoTime();
            remote.run(k);
            long t2 = System.nanoTime();
            in.recordValue((t1 - t0) / 1000);
            over.recordValue((t2 - t1) / 1000);
        }
        double inP99 = in.getValueAtPercentile(99) / 1000.0;
        double overP99 = over.getValueAtPercentile(99) / 1000.0;
        table.add(Row.info("Remote console: " + what + ", in-process p50 / p99 (" + count + " samples, max "
                + Table.num(in.getMaxValue() / 1000.0, 1) + " ms)", ms(in), "ms"));
        String figure = "Remote console: " + what + ", over serve's API with a person's JWT p50 / p99 (max "
                + Table.num(over.getMaxValue() / 1000.0, 1) + " ms)";
        String ratio = Table.num(overP99 / Math.max(0.001, inP99), 1) + "× in-process p99";
        if (judged) {
            double limit = 2 * inP99 + 5;
            table.add(Row.judged(figure, ms(over), "ms", "p99 <= 2 × in-process p99 + 5 ms = " + Table.num(limit, 1) + " ms",
                    ratio, overP99 <= limit));
        } else {
            table.add(new Row(figure, ms(over), "ms", "", ratio, ""));
        }
    }

    private static String ms(Histogram h) {
        return Table.num(h.getValueAtPercentile(50) / 1000.0, 2) + " / " + Table.num(h.getValueAtPercentile(99) / 1000.0, 2);
    }

    /**
     * Where a state-graph refresh's time goes on serve: each part of {@code GET /v1/stats}'s document in-process, then
     * the whole document over HTTP (the history now holds the paced PAYs of the last hour).
     */
    private void statsParts(Services s, ServeClient agent) {
        MonitorParts parts = new MonitorParts(s.monitor());
        StringBuilder sb = new StringBuilder();
        for (String part : MonitorParts.NAMES) {
            Histogram h = new Histogram(TimeUnit.SECONDS.toMicros(60), 3);
            for (int k = 0; k < 60; k++) {
                long t0 = System.nanoTime();
                parts.run(part);
                if (k >= 10) {
                    h.recordValue((System.nanoTime() - t0) / 1000);
                }
            }
            sb.append(sb.isEmpty() ? "" : ", ").append(part).append(' ').append(Table.num(h.getValueAtPercentile(50) / 1000.0, 2));
        }
        Histogram http = new Histogram(TimeUnit.SECONDS.toMicros(60), 3);
        int bytes = 0;
        for (int k = 0; k < 60; k++) {
            long t0 = System.nanoTime();
            bytes = agent.getText("/v1/stats").length();
            if (k >= 10) {
                http.recordValue((System.nanoTime() - t0) / 1000);
            }
        }
        table.add(Row.info("Remote: where GET /v1/stats's time goes on serve, p50 ms per part in-process (" + sb + "); the whole "
                + "document over HTTP (" + Table.num(bytes, 0) + " characters) p50 / p99", ms(http), "ms"));
    }

    /** The paced PAYs in windows alternating without and with the 50 consoles. */
    private void consoles(URI base, int port, String client, List<String> people) throws Exception {
        AtomicInteger consolesOn = new AtomicInteger();
        Histogram refreshes = new Histogram(TimeUnit.SECONDS.toMicros(60), 3);
        AtomicLong refreshFailed = new AtomicLong();
        AtomicLong requests = new AtomicLong();
        ScheduledExecutorService pool = Executors.newScheduledThreadPool(8, r -> {
            Thread t = new Thread(r, "remote-console");
            t.setDaemon(true);
            return t;
        });
        for (int c = 0; c < CONSOLES; c++) {
            ServeClient serve = new ServeClient(base, new Fixed(people.get(c)));
            RemoteServices console = new RemoteServices(serve);
            AtomicInteger k = new AtomicInteger(c);
            pool.scheduleAtFixedRate(() -> {
                if (consolesOn.get() == 0) {
                    return;
                }
                long t0 = System.nanoTime();
                try {
                    refresh(console.rules(), console.monitor());
                    page(console, k.getAndIncrement());
                    synchronized (refreshes) {
                        refreshes.recordValue((System.nanoTime() - t0) / 1000);
                    }
                    requests.addAndGet(3);
                } catch (RuntimeException e) {
                    refreshFailed.incrementAndGet();
                }
            }, ThreadLocalRandom.current().nextLong(REFRESH_MS), REFRESH_MS, TimeUnit.MILLISECONDS);
        }
        try {
            AtomicLong failed = new AtomicLong();
            paced(port, client, failed); // warm-up window, not counted
            Histogram without = new Histogram(TimeUnit.SECONDS.toMicros(60), 3);
            Histogram with = new Histogram(TimeUnit.SECONDS.toMicros(60), 3);
            List<String> pairs = new ArrayList<>();
            long consoleSeconds = 0;
            long requests0 = 0;
            CpuMeter meter = new CpuMeter(env);
            double[] cpuWithout = new double[3];
            double[] cpuWith = new double[3];
            double consoleCpu = 0;
            for (int w = 0; w < PAIRS; w++) {
                CpuMeter.Snapshot m0 = meter.now();
                Histogram a = paced(port, client, failed);
                CpuMeter.Snapshot m1 = meter.now();
                double k0 = consoleClientCpu();
                consolesOn.set(1);
                requests0 -= requests.get();
                long c0 = System.nanoTime();
                Histogram b = paced(port, client, failed);
                consoleSeconds += (System.nanoTime() - c0) / 1_000_000_000L;
                consolesOn.set(0);
                requests0 += requests.get();
                CpuMeter.Snapshot m2 = meter.now();
                consoleCpu += consoleClientCpu() - k0;
                add(cpuWithout, m0, m1);
                add(cpuWith, m1, m2);
                without.add(a);
                with.add(b);
                pairs.add(Table.num(a.getValueAtPercentile(99) / 1000.0, 2) + "/" + Table.num(b.getValueAtPercentile(99) / 1000.0, 2));
            }
            double p99a = without.getValueAtPercentile(99) / 1000.0;
            double p99b = with.getValueAtPercentile(99) / 1000.0;
            double rise = p99b / p99a - 1;
            String how = PAIRS + " alternating windows of " + windowSeconds + " s per side at " + pace + " PAY/s over "
                    + PACED_CONNECTIONS + " keep-alive connections (p99 without/with per window: " + String.join(", ", pairs) + ")";
            table.add(Row.info("Remote consoles: transitions over serve's API without consoles, p50 / p99; " + how
                    + ", max " + Table.num(without.getMaxValue() / 1000.0, 1) + " ms", ms(without), "ms"));
            table.add(Row.judged("Remote consoles: the same with " + CONSOLES + " remote consoles each refreshing its state graph "
                    + "and its orders page every 2 s (" + Table.num(requests0 / Math.max(1.0, consoleSeconds), 0) + " requests/s to serve; "
                    + failed.get() + " PAY not 200, " + refreshFailed.get() + " console refreshes failed), p50 / p99, max "
                    + Table.num(with.getMaxValue() / 1000.0, 1) + " ms", ms(with), "ms", "p99 at most +10 %",
                    (rise >= 0 ? "+" : "") + Table.num(100 * rise, 1) + " %", rise <= 0.10 && failed.get() == 0 && refreshFailed.get() == 0));
            table.add(Row.info("Remote consoles: one console's refresh (state graph + orders page) while PAYs run, p50 / p99 ("
                    + refreshes.getTotalCount() + " refreshes)", ms(refreshes), "ms"));
            double seconds = PAIRS * (double) windowSeconds;
            table.add(Row.info("Remote consoles: cores busy without / with the consoles: JVM (serve, follower, load) "
                    + cores(cpuWithout[0], cpuWith[0], seconds) + ", MariaDB " + cores(cpuWithout[1], cpuWith[1], seconds) + ", Redis "
                    + cores(cpuWithout[2], cpuWith[2], seconds) + "; of the JVM's, the 50 consoles' own client work (HTTP client, "
                    + "JSON, in this JVM for the bench, on the agents' machines in use) " + Table.num(consoleCpu / seconds, 2)
                    + "; the consoles' extra CPU per console refresh, all processes",
                    Table.num(1000 * (cpuWith[0] + cpuWith[1] + cpuWith[2] - cpuWithout[0] - cpuWithout[1] - cpuWithout[2])
                            / Math.max(1, refreshes.getTotalCount()), 1), "ms"));
        } finally {
            pool.shutdownNow();
            pool.awaitTermination(10, TimeUnit.SECONDS);
        }
    }

    /** @return CPU seconds so far of the simulated consoles' threads and their HTTP clients' threads in this JVM */
    private static double consoleClientCpu() {
        java.lang.management.ThreadMXBean mx = java.lang.management.ManagementFactory.getThreadMXBean();
        long ns = 0;
        for (java.lang.management.ThreadInfo t : mx.getThreadInfo(mx.getAllThreadIds())) {
            if (t != null && (t.getThreadName().startsWith("remote-console") || t.getThreadName().startsWith("HttpClient-"))) {
                ns += Math.max(0, mx.getThreadCpuTime(t.getThreadId()));
            }
        }
        return ns / 1e9;
    }

    private static void add(double[] sum, CpuMeter.Snapshot a, CpuMeter.Snapshot b) {
        sum[0] += b.jvm() - a.jvm();
        sum[1] += b.mariaDb() - a.mariaDb();
        sum[2] += b.redis() - a.redis();
    }

    private static String cores(double without, double with, double seconds) {
        return Table.num(without / seconds, 2) + " / " + Table.num(with / seconds, 2);
    }

    /** One window of PAYs at {@link #pace}/s, latency from when each was due (no coordinated omission). */
    private Histogram paced(int port, String token, AtomicLong failed) throws Exception {
        int count = pace * windowSeconds;
        Histogram h = new Histogram(TimeUnit.SECONDS.toMicros(60), 3);
        BlockingQueue<long[]> due = new LinkedBlockingQueue<>();
        List<Thread> workers = new ArrayList<>();
        for (int w = 0; w < PACED_CONNECTIONS; w++) {
            HttpLoad conn = new HttpLoad(port);
            Thread t = new Thread(() -> {
                try (conn) {
                    for (long[] job = due.take(); job[0] >= 0; job = due.take()) {
                        int status;
                        try {
                            status = conn.post("/v1/orders/" + payId((int) job[0]) + "/transitions", token, PAY_BODY);
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
                }
            }, "remote-pay-" + w);
            t.start();
            workers.add(t);
        }
        long start = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(50);
        long period = 1_000_000_000L / pace;
        for (int k = 0; k < count; k++) {
            long at = start + k * period;
            while (System.nanoTime() < at) {
                LockSupport.parkNanos(Math.min(at - System.nanoTime(), 200_000));
            }
            due.add(new long[]{nextPay.getAndIncrement(), at});
        }
        for (int w = 0; w < PACED_CONNECTIONS; w++) {
            due.add(new long[]{-1, 0});
        }
        for (Thread t : workers) {
            t.join(60_000);
        }
        return h;
    }

    /** A signed-in person's one access token. */
    private record Fixed(String token) implements AccessTokens {
        @Override
        public String current() {
            return token;
        }

        @Override
        public void rejected(String t) {
        }

        @Override
        public void signOut() {
        }
    }
}
