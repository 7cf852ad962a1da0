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
import org.HdrHistogram.Histogram;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.Statement;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.locks.LockSupport;

/**
 * Creation and the change feed as an integrator sees them: orders created for a fixed window by {@link #CONNECTIONS}
 * callers in process and over HTTP (keep-alive), with the failures and MySQL's deadlock count; and the feed's delivery
 * lag while the history's ids get gaps (rolled-back batches and replays, as a follower's retries and restores leave them).
 */
final class ApiGapsScenario {
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final Operator LOAD = Operator.system("bench-load");
    static final int CONNECTIONS = 64;
    static final int CREATE_SECONDS = 20;
    static final int FEED_RATE = 500;
    static final int FEED_SECONDS = 30;
    /** A rolled-back history row every this many ms, and an INSERT IGNORE replay (a lost id) every 5th time. */
    static final int GAP_EVERY_MS = 100;

    private final BenchEnv env;
    private final Table table;
    private final HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();

    ApiGapsScenario(BenchEnv env, Table table) {
        this.env = env;
        this.table = table;
    }

    void run() {
        creations();
        feedLagWithGaps();
    }

    private long deadlocks() {
        try (Connection c = DriverManager.getConnection(env.mariaDb.jdbcUrl(), "root", ""); Statement st = c.createStatement();
             java.sql.ResultSet rs = st.executeQuery("SELECT VARIABLE_VALUE FROM information_schema.GLOBAL_STATUS WHERE VARIABLE_NAME = 'INNODB_DEADLOCKS'")) {
            rs.next();
            return rs.getLong(1);
        } catch (Exception e) {
            return -1;
        }
    }

    private interface Caller {
        boolean create(String id) throws Exception;
    }

    /** @return creations per second over the window; failures in {@code failed} */
    private double window(String prefix, java.util.function.IntFunction<Caller> perThread, AtomicLong failed) {
        AtomicLong done = new AtomicLong();
        AtomicBoolean stop = new AtomicBoolean();
        List<Thread> threads = new ArrayList<>();
        for (int t = 0; t < CONNECTIONS; t++) {
            int worker = t;
            Thread th = new Thread(() -> {
                Caller c = perThread.apply(worker);
                for (int i = 0; !stop.get(); i++) {
                    try {
                        if (c.create(String.format("%s%02d-%07d", prefix, worker, i))) {
                            done.incrementAndGet();
                        } else {
                            failed.incrementAndGet();
                        }
                    } catch (Exception e) {
                        failed.incrementAndGet();
                    }
                }
            });
            th.setDaemon(true);
            th.start();
            threads.add(th);
        }
        long t0 = System.nanoTime();
        sleep(TimeUnit.SECONDS.toMillis(CREATE_SECONDS));
        long n = done.get();
        double seconds = (System.nanoTime() - t0) / 1e9;
        stop.set(true);
        for (Thread th : threads) {
            try {
                th.join(30_000);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }
        return n / seconds;
    }

    private void creations() {
        Services s = env.fresh();
        String token = s.apiClients().add(Operator.system("bench"), "bench-create-" + System.nanoTime() % 100000, Role.SUPPORT).token();
        try (ApiServer api = ApiServer.start(s, ApiServer.Settings.of("127.0.0.1", 0))) {
            s.follower().start(Duration.ofMillis(100));
            long d0 = deadlocks();
            AtomicLong inFailed = new AtomicLong();
            double in = window("ci", w -> id -> {
                s.orders().create(LOAD, id, null, Duration.ofMinutes(30));
                return true;
            }, inFailed);
            long d1 = deadlocks();
            AtomicLong httpFailed = new AtomicLong();
            double over = window("ch", w -> {
                HttpLoad c;
                try {
                    c = new HttpLoad(api.port());
                } catch (java.io.IOException e) {
                    throw new java.io.UncheckedIOException(e);
                }
                return id -> c.post("/v1/orders", token, "{\"id\":\"" + id + "\"}") == 201;
            }, httpFailed);
            long d2 = deadlocks();
            table.add(Row.info("Creation in process, " + CONNECTIONS + " callers, " + CREATE_SECONDS + " s: " + inFailed.get()
                    + " failed, " + (d1 - d0) + " InnoDB deadlocks", Table.num(in, 0), "creations/s"));
            double ratio = over / in;
            table.add(Row.judged("Creation over HTTP, keep-alive, " + CONNECTIONS + " connections, " + CREATE_SECONDS + " s: "
                    + httpFailed.get() + " not 201, " + (d2 - d1) + " InnoDB deadlocks", Table.num(over, 0), "creations/s",
                    ">= 3,000/s and >= 50 % of in-process", Table.num(100 * ratio, 0) + " %",
                    over >= 3000 && ratio >= 0.5 && httpFailed.get() == 0));
        }
    }

    private void feedLagWithGaps() {
        Services s = env.fresh();
        int n = FEED_RATE * FEED_SECONDS;
        long now = env.redis.nowMs();
        long expire = now + BenchEnv.PAYMENT_TIMEOUT.toMillis();
        env.seed(n, i -> BenchEnv.Seed.both(new OrderState(String.format("g%08d", i), OrderStatus.WAIT_PAY, 1, now, now), expire));
        String token = s.apiClients().add(Operator.system("bench"), "bench-gaps-" + System.nanoTime() % 100000, Role.SUPPORT).token();
        try (ApiServer api = ApiServer.start(s, ApiServer.Settings.of("127.0.0.1", 0))) {
            String base = "http://127.0.0.1:" + api.port();
            s.follower().start(Duration.ofMillis(100));
            s.follower().awaitCaughtUp(Duration.ofSeconds(60));
            String cursor = "";
            while (true) {
                JsonNode p = feed(base, token, cursor, 0);
                cursor = p.path("cursor").asText();
                if (p.path("events").isEmpty()) {
                    break;
                }
            }
            Histogram lag = new Histogram(TimeUnit.MINUTES.toMillis(10), 3);
            AtomicLong received = new AtomicLong();
            AtomicLong gaps = new AtomicLong();
            AtomicBoolean stop = new AtomicBoolean();
            String from = cursor;
            Thread consumer = new Thread(() -> {
                String c = from;
                long until = System.currentTimeMillis() + (FEED_SECONDS + 90) * 1000L;
                while (received.get() < n && System.currentTimeMillis() < until) {
                    JsonNode p = feed(base, token, c, 1);
                    long nowMs = System.currentTimeMillis();
                    for (JsonNode e : p.path("events")) {
                        if (e.path("orderId").asText().startsWith("g")) { // the gap maker's committed replay row aside
                            lag.recordValue(Math.min(lag.getHighestTrackableValue(), Math.max(0, nowMs - e.path("atMs").asLong())));
                            received.incrementAndGet();
                        }
                    }
                    c = p.path("cursor").asText();
                }
            }, "feed-consumer");
            consumer.start();
            Thread gapMaker = new Thread(() -> {
                // A writer of history as the engine's are (it sets its mark back before it commits).
                try (Connection c = DriverManager.getConnection(env.mariaDb.jdbcUrl(), "root", "")) {
                    c.setAutoCommit(false);
                    for (int k = 0; !stop.get(); k++) {
                        try (Statement st = c.createStatement()) {
                            boolean replay = k % 5 == 4;
                            st.executeUpdate("INSERT IGNORE INTO order_history (order_id, from_status, to_status, version, result_code, "
                                    + "actor, source, reason, at_ms, event_key) VALUES ('x-gap-" + k + "', NULL, 1, 1, 1, 'bench', 'bench', '', "
                                    + System.currentTimeMillis() + ", '"
                                    + (replay ? "bench/replayed" : "bench/gap-" + k) + "')");
                            if (replay) {
                                st.executeUpdate(com.orderconsole.store.HistoryStore.WRITES_DONE);
                                c.commit();
                            } else {
                                c.rollback();
                            }
                            gaps.incrementAndGet();
                        }
                        sleep(GAP_EVERY_MS);
                    }
                } catch (Exception e) {
                    System.out.println("gap maker stopped: " + e.getMessage());
                }
            }, "gap-maker");
            gapMaker.setDaemon(true);
            gapMaker.start();
            long start = System.nanoTime();
            long period = 1_000_000_000L / FEED_RATE;
            AtomicLong errors = new AtomicLong();
            for (int k = 0; k < n; k++) {
                long due = start + k * period;
                while (System.nanoTime() < due) {
                    LockSupport.parkNanos(Math.min(due - System.nanoTime(), 200_000));
                }
                s.transitions().transitionAsync(LOAD, TransitionRequest.of(String.format("g%08d", k), OrderStatus.PAID, "bench", ""))
                        .whenComplete((r, e) -> {
                            if (e != null) {
                                errors.incrementAndGet();
                            }
                        });
            }
            stop.set(true);
            try {
                consumer.join(TimeUnit.SECONDS.toMillis(FEED_SECONDS + 120));
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
            double p99 = lag.getValueAtPercentile(99) / 1000.0;
            table.add(Row.info("Feed lag p50 at " + FEED_RATE + " transitions/s with gaps (" + gaps.get() + " rolled-back rows and replays, "
                    + "one per " + GAP_EVERY_MS + " ms; " + received.get() + " of " + n + " delivered)",
                    Table.num(lag.getValueAtPercentile(50) / 1000.0, 3), "s"));
            table.add(Row.judged("Feed lag p99 at " + FEED_RATE + " transitions/s with a gap every " + GAP_EVERY_MS + " ms (max "
                    + Table.num(lag.getMaxValue() / 1000.0, 2) + " s, " + errors.get() + " errors)", Table.num(p99, 3), "s", "< 1 s", "",
                    p99 < 1 && received.get() == n));
        }
    }

    private JsonNode feed(String base, String token, String cursor, int wait) {
        try {
            HttpRequest r = HttpRequest.newBuilder(URI.create(base + "/v1/events?limit=1000&wait=" + wait + (cursor.isEmpty() ? "" : "&after=" + cursor)))
                    .timeout(Duration.ofSeconds(30)).header("Authorization", "Bearer " + token).GET().build();
            return JSON.readTree(http.send(r, HttpResponse.BodyHandlers.ofString()).body());
        } catch (Exception e) {
            throw new IllegalStateException("feed read failed: " + e.getMessage(), e);
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
