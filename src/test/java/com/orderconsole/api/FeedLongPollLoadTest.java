package com.orderconsole.api;

import com.fasterxml.jackson.databind.JsonNode;
import com.orderconsole.TestServers;
import com.orderconsole.domain.Role;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import java.net.URI;
import java.net.URLEncoder;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.Statement;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Many consumers long-polling the feed at once (the fresh-user tester's #6): 300 waiting pollers hold no MySQL work of
 * their own, so nobody is refused (pollers nor an order creation meanwhile), every poller gets the new events, and MySQL
 * is asked a few times per interval however many wait.
 */
class FeedLongPollLoadTest {
    private static final int POLLERS = 300;
    private ApiHarness h;
    private String token;

    @BeforeEach
    void start() {
        h = ApiHarness.fresh();
        token = h.client("inventory", Role.SUPPORT);
    }

    @AfterEach
    void stop() {
        h.close();
    }

    private CompletableFuture<HttpResponse<String>> longPoll(String cursor) {
        String q = "/v1/events?limit=100&wait=5" + (cursor == null ? "" : "&after=" + URLEncoder.encode(cursor, StandardCharsets.UTF_8));
        HttpRequest r = HttpRequest.newBuilder(URI.create(h.base() + q)).header("Authorization", "Bearer " + token)
                .timeout(Duration.ofSeconds(40)).GET().build();
        return h.http.sendAsync(r, HttpResponse.BodyHandlers.ofString());
    }

    private static long selects() throws Exception {
        try (Connection c = DriverManager.getConnection(TestServers.mariaDb().jdbcUrl(), "root", "");
             Statement st = c.createStatement();
             ResultSet rs = st.executeQuery("SHOW GLOBAL STATUS LIKE 'Com_select'")) {
            rs.next();
            return rs.getLong(2);
        }
    }

    @Test
    void threeHundredWaitingPollersAreAllAnsweredWithTheNewEventsAndCostMysqlAFewReadsPerInterval() throws Exception {
        for (int i = 0; i < 3; i++) {
            assertThat(h.post(token, "/v1/orders", "{\"id\": \"w-" + i + "\"}").statusCode()).isEqualTo(201);
        }
        assertThat(h.engine.services().follower().awaitCaughtUp(Duration.ofSeconds(20))).isTrue();
        JsonNode head = ApiHarness.json(h.get(token, "/v1/events?limit=100"));
        assertThat(head.path("events")).hasSize(3);
        String cursor = head.path("cursor").asText();

        // What MySQL is asked with nobody waiting (the follower's idle polls, the clients' refresh): the baseline.
        long b0 = selects();
        long tb = System.nanoTime();
        Thread.sleep(1500);
        double basePerSecond = (selects() - b0) / ((System.nanoTime() - tb) / 1e9);

        List<CompletableFuture<HttpResponse<String>>> polls = new ArrayList<>();
        for (int i = 0; i < POLLERS; i++) {
            polls.add(longPoll(cursor));
        }
        // Let every poller arrive and settle into its wait, then measure a quiet second and a half of waiting.
        Thread.sleep(1500);
        assertThat(h.api.feedWatcher().waiting()).isEqualTo(POLLERS);
        long s0 = selects();
        long w0 = h.api.feedWatcher().reads();
        long t0 = System.nanoTime();
        Thread.sleep(1500);
        long quietSelects = selects() - s0;
        long watcherReads = h.api.feedWatcher().reads() - w0;
        double quietSeconds = (System.nanoTime() - t0) / 1e9;
        double perSecond = quietSelects / quietSeconds;

        // Changes while they wait: a creation (must not be refused) and a move.
        HttpResponse<String> created = h.post(token, "/v1/orders", "{\"id\": \"w-new\"}");
        HttpResponse<String> paid = h.post(token, "/v1/orders/w-0/transitions", "{\"to\": \"PAID\"}");

        int refused = 0;
        List<Set<String>> seen = new ArrayList<>();
        List<String> cursors = new ArrayList<>();
        for (CompletableFuture<HttpResponse<String>> p : polls) {
            HttpResponse<String> r = p.get(40, TimeUnit.SECONDS);
            if (r.statusCode() == 503) {
                refused++;
            }
            Set<String> mine = new HashSet<>();
            if (r.statusCode() == 200) {
                JsonNode page = ApiHarness.json(r);
                page.path("events").forEach(e -> mine.add(e.path("orderId").asText() + "/" + e.path("to").asText()));
                cursors.add(page.path("cursor").asText());
            } else {
                cursors.add(cursor);
            }
            seen.add(mine);
        }
        System.out.printf("feed load: %d pollers, %d answered 503, %d SELECTs in %.2f s of waiting (%.1f /s; %.1f /s with nobody waiting), "
                + "%d watcher reads (%.1f /s)%n", POLLERS, refused, quietSelects, quietSeconds, perSecond, basePerSecond, watcherReads,
                watcherReads / quietSeconds);
        assertThat(created.statusCode()).as(created.body()).isEqualTo(201);
        assertThat(paid.statusCode()).as(paid.body()).isEqualTo(200);
        assertThat(refused).as("pollers answered 503").isZero();
        // A poller woken by the first change may have answered before the second reached MySQL: it polls on, as a consumer does.
        for (int round = 0; round < 3; round++) {
            List<CompletableFuture<HttpResponse<String>>> again = new ArrayList<>();
            for (int i = 0; i < POLLERS; i++) {
                again.add(seen.get(i).size() < 2 ? longPoll(cursors.get(i)) : null);
            }
            for (int i = 0; i < POLLERS; i++) {
                if (again.get(i) != null) {
                    HttpResponse<String> r = again.get(i).get(40, TimeUnit.SECONDS);
                    assertThat(r.statusCode()).as(r.body()).isEqualTo(200);
                    JsonNode page = ApiHarness.json(r);
                    Set<String> mine = seen.get(i);
                    page.path("events").forEach(e -> mine.add(e.path("orderId").asText() + "/" + e.path("to").asText()));
                    cursors.set(i, page.path("cursor").asText());
                }
            }
        }
        for (Set<String> mine : seen) {
            assertThat(mine).containsExactlyInAnyOrder("w-new/WAIT_PAY", "w-0/PAID");
        }
        // 300 pollers each reading every 100 ms were about 4,400 SELECTs a second more than the baseline.
        assertThat(perSecond - basePerSecond).as("SELECTs per second added while %d pollers wait", POLLERS).isLessThan(40);
        // One read of the head per interval (250 ms) for all of them, not one per poller.
        assertThat(watcherReads / quietSeconds).as("watcher reads per second").isLessThan(8);
    }
}
