package com.orderconsole.api;

import com.fasterxml.jackson.databind.JsonNode;
import com.orderconsole.Slow;
import com.orderconsole.TestServers;
import com.orderconsole.app.EngineConfig;
import com.orderconsole.domain.Role;
import com.orderconsole.redis.RedisKeys;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import java.net.http.HttpResponse;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.Statement;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.ThreadLocalRandom;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Two serve-equivalents against the same Redis and MySQL (issue 32, items 3 and 4): each its own engine, follower, sweeper
 * and API server, in one JVM. Concurrent HTTP clients spread over both; every acknowledged transition is in MySQL exactly
 * once; and the seed's race over the wire, payments arriving while the orders reach their payment deadline: exactly one
 * of pay and cancel wins each order, the loser gets its code, MySQL's history and the feed agree.
 */
@Slow
class TwoServesTest {
    private ApiHarness a;
    private ApiHarness b;
    private String token;

    /** Empties the servers both serves use and answers their configuration: the single test Redis here. */
    EngineConfig emptyServers() {
        TestServers.reset();
        return TestServers.config();
    }

    @BeforeEach
    void start() {
        EngineConfig config = emptyServers();
        a = new ApiHarness(config, Duration.ofSeconds(2));
        b = new ApiHarness(config, Duration.ofSeconds(2));
        token = a.client("payments", Role.SUPPORT);
        b.engine.services().apiClients().refresh(); // else within its next refresh, at most a second
    }

    @AfterEach
    void stop() {
        b.close();
        a.close();
        RedisKeys.useBuckets(RedisKeys.DEFAULT_BUCKETS); // a cluster's engine sets its own count
    }

    private ApiHarness any() {
        return ThreadLocalRandom.current().nextBoolean() ? a : b;
    }

    private static List<String[]> appliedInMysql() throws Exception {
        List<String[]> rows = new ArrayList<>();
        try (Connection c = DriverManager.getConnection(TestServers.mariaDb().jdbcUrl(), "root", "");
             Statement st = c.createStatement();
             ResultSet rs = st.executeQuery("SELECT order_id, version, to_status, actor FROM order_history WHERE result_code = 1 "
                     + "AND from_status IS NOT NULL ORDER BY id")) {
            while (rs.next()) {
                rows.add(new String[]{rs.getString(1) + "/" + rs.getLong(2) + "/"
                        + com.orderconsole.domain.OrderStatus.ofCode(rs.getInt(3)).name(), rs.getString(4)});
            }
        }
        return rows;
    }

    private List<String> feedMoves() throws Exception {
        List<String> seen = new ArrayList<>();
        String cursor = "";
        while (true) {
            HttpResponse<String> r = any().get(token, "/v1/events?limit=500&after=" + cursor);
            assertThat(r.statusCode()).as(r.body()).isEqualTo(200);
            JsonNode p = ApiHarness.json(r);
            for (JsonNode e : p.path("events")) {
                if (!e.path("from").isNull()) {
                    seen.add(e.path("orderId").asText() + "/" + e.path("version").asLong() + "/" + e.path("to").asText());
                }
            }
            cursor = p.path("cursor").asText();
            if (p.path("events").isEmpty()) {
                return seen;
            }
        }
    }

    private void bothCaughtUp() {
        assertThat(a.engine.services().follower().awaitCaughtUp(Duration.ofSeconds(60))).isTrue();
        assertThat(b.engine.services().follower().awaitCaughtUp(Duration.ofSeconds(60))).isTrue();
    }

    @Test
    void concurrentClientsOnTwoServesFindEveryAcknowledgedTransitionInMySqlExactlyOnce() throws Exception {
        int orders = 120;
        for (int i = 0; i < orders; i++) {
            HttpResponse<String> r = any().post(token, "/v1/orders", "{\"id\": \"w-" + i + "\"}");
            assertThat(r.statusCode()).as(r.body()).isEqualTo(201);
        }
        String[] path = {"PAID", "WAIT_SHIP", "SHIPPED", "FINISHED"};
        Map<String, String> acknowledged = new ConcurrentHashMap<>();
        ExecutorService clients = Executors.newFixedThreadPool(8);
        try {
            List<Future<?>> done = new ArrayList<>();
            for (int c = 0; c < 8; c++) {
                done.add(clients.submit(() -> {
                    for (int n = 0; n < 150; n++) {
                        String id = "w-" + ThreadLocalRandom.current().nextInt(orders);
                        String to = path[ThreadLocalRandom.current().nextInt(path.length)];
                        HttpResponse<String> r = any().post(token, "/v1/orders/" + id + "/transitions", "{\"to\": \"" + to + "\"}");
                        JsonNode doc = ApiHarness.json(r);
                        if (r.statusCode() == 200 && doc.path("applied").asBoolean()) {
                            String key = id + "/" + doc.path("version").asLong() + "/" + doc.path("to").asText();
                            assertThat(acknowledged.put(key, "x")).as("acknowledged twice: " + key).isNull();
                        } else {
                            assertThat(r.statusCode()).as(r.body()).isIn(200, 409);
                        }
                    }
                    return null;
                }));
            }
            for (Future<?> f : done) {
                f.get();
            }
        } finally {
            clients.shutdownNow();
        }
        bothCaughtUp();
        List<String> inMysql = appliedInMysql().stream().map(r -> r[0]).toList();
        assertThat(inMysql).doesNotHaveDuplicates();
        assertThat(inMysql).containsExactlyInAnyOrderElementsOf(acknowledged.keySet());
        assertThat(appliedInMysql()).allSatisfy(r -> assertThat(r[1]).isEqualTo("api:payments"));
        System.out.println("[measured] two serves: " + acknowledged.size() + " acknowledged transitions, each in MySQL once");
        List<String> feed = feedMoves();
        assertThat(feed).doesNotHaveDuplicates().containsExactlyInAnyOrderElementsOf(acknowledged.keySet());
    }

    @Test
    void paymentsRacingTheTimeoutCancelOverHttpHaveExactlyOneWinnerPerOrder() throws Exception {
        int orders = 60;
        for (int i = 0; i < orders; i++) {
            HttpResponse<String> r = any().post(token, "/v1/orders", "{\"id\": \"r-" + i + "\", \"paymentTimeout\": \"3s\"}");
            assertThat(r.statusCode()).as(r.body()).isEqualTo(201);
        }
        long createdAt = System.nanoTime();
        Map<String, Integer> payCode = new ConcurrentHashMap<>();
        ExecutorService clients = Executors.newFixedThreadPool(12);
        try {
            List<Future<?>> done = new ArrayList<>();
            List<Integer> ids = new ArrayList<>();
            for (int i = 0; i < orders; i++) {
                ids.add(i);
            }
            Collections.shuffle(ids);
            for (int k = 0; k < orders; k++) {
                int i = ids.get(k);
                // Payments spread from 1.5 s before to 2 s after the deadline, the sweepers of both serves cancelling meanwhile.
                long at = Duration.ofMillis(1500 + 3500L * k / orders).toNanos();
                done.add(clients.submit(() -> {
                    long wait = at - (System.nanoTime() - createdAt);
                    if (wait > 0) {
                        Thread.sleep(wait / 1_000_000);
                    }
                    HttpResponse<String> r = any().post(token, "/v1/orders/r-" + i + "/transitions", "{\"to\": \"PAID\", \"reason\": \"callback\"}");
                    JsonNode doc = ApiHarness.json(r);
                    int code = r.statusCode() == 200 ? doc.path("code").asInt() : doc.path("transition").path("code").asInt();
                    assertThat(r.statusCode()).as(r.body()).isEqualTo(code == 1 ? 200 : 409);
                    payCode.put("r-" + i, code);
                    return null;
                }));
            }
            for (Future<?> f : done) {
                f.get();
            }
        } finally {
            clients.shutdownNow();
        }
        org.awaitility.Awaitility.await().atMost(Duration.ofSeconds(20)).until(() -> a.engine.services().queue().summary().depth() == 0);
        bothCaughtUp();
        Map<String, String> winner = new HashMap<>();
        for (String[] row : appliedInMysql()) {
            String[] p = row[0].split("/");
            assertThat(p[1]).as("one move per order: " + row[0]).isEqualTo("2");
            assertThat(winner.put(p[0], p[2])).as("one winner: " + row[0]).isNull();
        }
        assertThat(winner).hasSize(orders);
        int paid = 0;
        for (Map.Entry<String, Integer> e : payCode.entrySet()) {
            if (e.getValue() == 1) {
                paid++;
                assertThat(winner.get(e.getKey())).as(e.getKey()).isEqualTo("PAID");
            } else {
                assertThat(e.getValue()).as("the loser's code: terminal").isEqualTo(-2);
                assertThat(winner.get(e.getKey())).as(e.getKey()).isEqualTo("CANCELLED");
            }
        }
        System.out.println("[measured] race over HTTP: " + paid + " paid, " + (orders - paid) + " cancelled of " + orders);
        assertThat(paid).isBetween(1, orders - 1);
        List<String> feed = feedMoves();
        assertThat(feed).doesNotHaveDuplicates().hasSize(orders);
        for (String f : feed) {
            String[] p = f.split("/");
            assertThat(winner.get(p[0])).isEqualTo(p[2]);
        }
    }
}
