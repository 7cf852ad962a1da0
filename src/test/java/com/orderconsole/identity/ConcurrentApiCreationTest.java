package com.orderconsole.identity;

import com.orderconsole.Slow;
import com.orderconsole.api.ApiServer;
import com.orderconsole.app.Engine;
import com.orderconsole.domain.Role;
import org.junit.jupiter.api.Test;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicInteger;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Orders created side by side over HTTP, as a shop's checkout creates them, against serve signed in with the follower
 * role's account (creation runs V45's procedure): no creation deadlocks in MySQL (InnoDB counts none), none is answered
 * 5xx, each order and its one creation row is stored once, and a repeat of the same creation sent at the same moment by
 * another connection is answered 200 with the order, not an error.
 */
@Slow
class ConcurrentApiCreationTest {
    private static final int CREATORS = 12;
    private static final int EACH = 40;

    private static long innodbDeadlocks() {
        long[] n = new long[1];
        AccessControlledDb.root(st -> {
            try (java.sql.ResultSet rs = st.executeQuery("SHOW GLOBAL STATUS LIKE 'Innodb_deadlocks'")) {
                n[0] = rs.next() ? rs.getLong(2) : -1;
            }
        });
        return n[0];
    }

    @Test
    void concurrentCreationsUnderServesAccountNeverDeadlockAndNeverAnswer5xx() throws Exception {
        AccessControlledDb.reset();
        String token;
        try (Engine ada = Engine.start(AccessControlledDb.config("ada"))) {
            token = ada.services().apiClients().add(ada.operator(), "checkout", Role.SUPPORT).token();
        }
        try (Engine fred = Engine.start(AccessControlledDb.config(AccessControlledDb.FOLLOWER));
             ApiServer api = ApiServer.start(fred.services(), ApiServer.Settings.of("127.0.0.1", 0))) {
            HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();
            URI orders = URI.create("http://127.0.0.1:" + api.port() + "/v1/orders");
            long deadlocksBefore = innodbDeadlocks();
            ConcurrentLinkedQueue<String> bad = new ConcurrentLinkedQueue<>();
            ConcurrentHashMap<Integer, AtomicInteger> statuses = new ConcurrentHashMap<>();
            CountDownLatch go = new CountDownLatch(1);
            List<Thread> creators = new ArrayList<>();
            for (int w = 0; w < CREATORS; w++) {
                int worker = w;
                Thread t = new Thread(() -> {
                    try {
                        go.await();
                        for (int i = 0; i < EACH; i++) {
                            // Interleaved ids, so neighbours in the index come from different connections; every fourth
                            // id is also sent by the next connection at about the same moment (a client's retry).
                            int n = i * CREATORS + worker;
                            List<String> ids = new ArrayList<>(List.of(String.format("cc-%05d", n)));
                            if (i % 4 == 0) {
                                ids.add(String.format("cc-%05d", i * CREATORS + (worker + CREATORS - 1) % CREATORS));
                            }
                            for (String id : ids) {
                                HttpResponse<String> r = http.send(HttpRequest.newBuilder(orders)
                                        .header("Authorization", "Bearer " + token).header("Content-Type", "application/json")
                                        .timeout(Duration.ofSeconds(30))
                                        .POST(HttpRequest.BodyPublishers.ofString("{\"id\": \"" + id + "\", \"customerId\": \"c-1\"}"))
                                        .build(), HttpResponse.BodyHandlers.ofString());
                                statuses.computeIfAbsent(r.statusCode(), k -> new AtomicInteger()).incrementAndGet();
                                if (r.statusCode() != 201 && r.statusCode() != 200) {
                                    bad.add(id + " " + r.statusCode() + " " + r.body());
                                }
                            }
                        }
                    } catch (Exception e) {
                        bad.add(e.toString());
                    }
                });
                t.start();
                creators.add(t);
            }
            long t0 = System.nanoTime();
            go.countDown();
            for (Thread t : creators) {
                t.join(180_000);
            }
            double seconds = (System.nanoTime() - t0) / 1e9;
            long deadlocks = innodbDeadlocks() - deadlocksBefore;
            System.out.printf("concurrent API creations: %d creators, statuses %s in %.1f s, %d InnoDB deadlocks%n", CREATORS,
                    statuses, seconds, deadlocks);
            assertThat(bad).as("creations not answered 200/201").isEmpty();
            assertThat(deadlocks).as("deadlocks between creations").isZero();
            assertThat(statuses.get(201).get()).isEqualTo(CREATORS * EACH);
            assertThat(AccessControlledDb.count("SELECT COUNT(*) FROM " + com.orderconsole.embedded.EmbeddedMariaDb.SCHEMA
                    + ".orders WHERE order_id LIKE 'cc-%'")).isEqualTo(CREATORS * EACH);
            assertThat(AccessControlledDb.count("SELECT COUNT(*) FROM " + com.orderconsole.embedded.EmbeddedMariaDb.SCHEMA
                    + ".order_history WHERE order_id LIKE 'cc-%'")).as("one creation row per order").isEqualTo(CREATORS * EACH);

            // serve's account keeps the answers of idempotency keys (V48): a repeat is the first answer, replayed.
            HttpRequest keyed = HttpRequest.newBuilder(orders).header("Authorization", "Bearer " + token)
                    .header("Content-Type", "application/json").header("Idempotency-Key", "k-1")
                    .POST(HttpRequest.BodyPublishers.ofString("{\"id\": \"keyed-1\"}")).build();
            HttpResponse<String> first = http.send(keyed, HttpResponse.BodyHandlers.ofString());
            HttpResponse<String> again = http.send(keyed, HttpResponse.BodyHandlers.ofString());
            assertThat(first.statusCode()).as(first.body()).isEqualTo(201);
            assertThat(again.statusCode()).isEqualTo(201);
            assertThat(again.headers().firstValue("Idempotent-Replayed")).hasValue("true");
        }
    }
}
