package com.orderconsole.api;

import com.fasterxml.jackson.databind.JsonNode;
import com.orderconsole.Slow;
import com.orderconsole.StallingProxy;
import com.orderconsole.TestServers;
import com.orderconsole.domain.Role;
import com.orderconsole.embedded.EmbeddedMariaDb;
import org.junit.jupiter.api.Test;

import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Consumer;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * The API while MySQL hangs (a proxy that stops forwarding, as a SIGSTOPped server) or is down (connections refused), as
 * the outage tests of the metrics and the follower play it: a transition answers from Redis in its usual time with
 * {@code inMysql:false}; creation answers 503 in words within its timeout; live stays 200, ready 200 with MySQL as its
 * reason; the move reaches MySQL and the feed once MySQL is back.
 */
@Slow
class ApiDuringMySqlOutageTest {
    private static final long TRANSITION_BOUND_MS = 2_000;
    private static final long CREATION_BOUND_MS = 8_000;

    @Test
    void aHungMySqlNeverHoldsATransitionAndCreationSays503InWords() throws Exception {
        run("hung", proxy -> proxy.stall(true), proxy -> proxy.stall(false));
    }

    @Test
    void aDownMySqlNeverHoldsATransitionAndCreationSays503InWords() throws Exception {
        run("down", proxy -> quietly(() -> proxy.down(true)), proxy -> quietly(() -> proxy.down(false)));
    }

    /**
     * Creations beyond what waits on MySQL (8 running, 256 queued) are refused at once, before anything is started: their
     * 503 says nothing was stored and when to send them again, and indeed none is stored once MySQL is back; only a
     * creation that timed out may say "may or may not" (it was written to MySQL, or will be).
     */
    @Test
    void aCreationRefusedBecauseTheMySqlQueueIsFullSaysNothingWasStored() throws Exception {
        TestServers.reset();
        EmbeddedMariaDb mariaDb = TestServers.mariaDb();
        try (StallingProxy proxy = new StallingProxy(mariaDb.port())) {
            String jdbc = mariaDb.jdbcUrl().replace(":" + mariaDb.port() + "/", ":" + proxy.port() + "/");
            try (ApiHarness h = new ApiHarness(TestServers.config().withServers(TestServers.redis().uri(), jdbc, "root", ""),
                    Duration.ofSeconds(2))) {
                String token = h.client("payments", Role.SUPPORT);
                proxy.stall(true);
                List<java.util.concurrent.CompletableFuture<HttpResponse<String>>> sent = new ArrayList<>();
                for (int i = 0; i < 320; i++) {
                    sent.add(h.http.sendAsync(java.net.http.HttpRequest.newBuilder(java.net.URI.create(h.base() + "/v1/orders"))
                            .header("Authorization", "Bearer " + token).header("Content-Type", "application/json")
                            .timeout(Duration.ofSeconds(40))
                            .POST(java.net.http.HttpRequest.BodyPublishers.ofString("{\"id\": \"q-" + i + "\"}")).build(),
                            HttpResponse.BodyHandlers.ofString()));
                }
                List<String> refusedAtOnce = new ArrayList<>();
                int timedOut = 0;
                for (int i = 0; i < sent.size(); i++) {
                    HttpResponse<String> r = sent.get(i).get(60, java.util.concurrent.TimeUnit.SECONDS);
                    assertThat(r.statusCode()).as(r.body()).isEqualTo(503);
                    assertThat(r.headers().firstValue("Retry-After")).isPresent();
                    String words = ApiHarness.json(r).path("error").path("message").asText();
                    if (!words.contains("too many requests wait on MySQL")) {
                        timedOut++; // ran and timed out, or MySQL failed it: its words may say "may or may not"
                        continue;
                    }
                    assertThat(words).as("refused before anything started").contains("nothing was stored")
                            .contains("again in 5 s").doesNotContain("may or may not");
                    refusedAtOnce.add("q-" + i);
                }
                System.out.println("[measured] MySQL hung, 320 creations: " + refusedAtOnce.size() + " refused at once, "
                        + timedOut + " ran and failed or timed out");
                assertThat(refusedAtOnce).as("beyond 8 running and 256 queued").hasSizeGreaterThanOrEqualTo(320 - 8 - 256);

                proxy.stall(false);
                // Answered after every creation queued before it was taken from the queue: what could be stored is.
                await().atMost(Duration.ofSeconds(60)).pollInterval(Duration.ofSeconds(1)).untilAsserted(() ->
                        assertThat(h.post(token, "/v1/orders", "{\"id\": \"q-last\"}").statusCode()).isIn(200, 201));
                assertThat(h.engine.services().follower().awaitCaughtUp(Duration.ofSeconds(60))).isTrue();
                for (String id : refusedAtOnce) {
                    assertThat(com.orderconsole.RawSql.count("SELECT COUNT(*) FROM orders WHERE order_id = '" + id + "'")).as(id).isZero();
                }
                try (com.orderconsole.RawRedis redis = new com.orderconsole.RawRedis()) {
                    for (String id : refusedAtOnce) {
                        assertThat(redis.cmd().exists(com.orderconsole.redis.RedisKeys.order(id))).as(id).isZero();
                    }
                }
            }
        }
    }

    private interface Io {
        void run() throws java.io.IOException;
    }

    private static void quietly(Io c) {
        try {
            c.run();
        } catch (Exception e) {
            throw new IllegalStateException(e);
        }
    }

    /** The words name the wait the client had, in seconds with one decimal, not the configured timeout. */
    private static void assertSaysItsRealWait(String words, long waitedMs) {
        java.util.regex.Matcher m = java.util.regex.Pattern.compile("within (\\d+(?:\\.\\d)?) s").matcher(words);
        if (m.find()) {
            assertThat(Double.parseDouble(m.group(1)) * 1000).as(words).isCloseTo(waitedMs, org.assertj.core.data.Offset.offset(600.0));
        }
    }

    private void run(String how, Consumer<StallingProxy> fail, Consumer<StallingProxy> heal) throws Exception {
        TestServers.reset();
        EmbeddedMariaDb mariaDb = TestServers.mariaDb();
        try (StallingProxy proxy = new StallingProxy(mariaDb.port())) {
            String jdbc = mariaDb.jdbcUrl().replace(":" + mariaDb.port() + "/", ":" + proxy.port() + "/");
            try (ApiHarness h = new ApiHarness(TestServers.config().withServers(TestServers.redis().uri(), jdbc, "root", ""),
                    Duration.ofSeconds(2))) {
                String token = h.client("payments", Role.SUPPORT);
                for (int i = 0; i < 3; i++) {
                    assertThat(h.post(token, "/v1/orders", "{\"id\": \"m-" + i + "\"}").statusCode()).isEqualTo(201);
                }
                assertThat(h.engine.services().follower().awaitCaughtUp(Duration.ofSeconds(20))).isTrue();
                JsonNode start = ApiHarness.json(h.get(token, "/v1/events?limit=100"));
                String cursor = start.path("cursor").asText();

                fail.accept(proxy);
                long t0 = System.nanoTime();
                HttpResponse<String> paid = h.post(token, "/v1/orders/m-0/transitions", "{\"to\": \"PAID\", \"reason\": \"callback 7\"}");
                long transitionMs = (System.nanoTime() - t0) / 1_000_000;
                assertThat(paid.statusCode()).as(paid.body()).isEqualTo(200);
                assertThat(ApiHarness.json(paid).path("inMysql").asBoolean()).isFalse();
                assertThat(transitionMs).as("transition with MySQL " + how).isLessThan(TRANSITION_BOUND_MS);

                t0 = System.nanoTime();
                HttpResponse<String> created = h.post(token, "/v1/orders", "{\"id\": \"m-new\"}");
                long creationMs = (System.nanoTime() - t0) / 1_000_000;
                assertThat(created.statusCode()).as(created.body()).isEqualTo(503);
                assertThat(ApiHarness.json(created).path("error").path("message").asText()).contains("MySQL");
                assertThat(created.headers().firstValue("Retry-After")).isPresent();
                assertThat(creationMs).as("creation with MySQL " + how).isLessThan(CREATION_BOUND_MS);
                assertSaysItsRealWait(ApiHarness.json(created).path("error").path("message").asText(), creationMs);

                // Support tooling still sees the live state: Redis' side, MySQL's marked as not answered, within the timeout.
                t0 = System.nanoTime();
                HttpResponse<String> shown = h.get(token, "/v1/orders/m-0");
                long shownMs = (System.nanoTime() - t0) / 1_000_000;
                assertThat(shown.statusCode()).as(shown.body()).isEqualTo(200);
                JsonNode order = ApiHarness.json(shown);
                assertThat(order.path("status").asText()).isEqualTo("PAID");
                assertThat(order.path("version").asLong()).isEqualTo(2);
                assertThat(order.path("redis").path("status").asText()).isEqualTo("PAID");
                assertThat(order.has("mysql") && order.path("mysql").isNull()).as(shown.body()).isTrue();
                assertThat(order.path("mysqlUnanswered").asText()).contains("MySQL did not answer").contains("Redis");
                assertThat(shownMs).as("lookup with MySQL " + how).isLessThan(CREATION_BOUND_MS);
                System.out.println("[measured] MySQL " + how + ": transition answered in " + transitionMs + " ms, creation 503 in "
                        + creationMs + " ms");

                assertThat(h.get(null, "/health/live").statusCode()).isEqualTo(200);
                await().atMost(Duration.ofSeconds(20)).untilAsserted(() -> {
                    HttpResponse<String> ready = h.get(null, "/health/ready");
                    assertThat(ready.statusCode()).as(ready.body()).isEqualTo(200);
                    assertThat(ready.body()).contains("\"mysql\":\"failing\"").contains("MySQL");
                });

                heal.accept(proxy);
                assertThat(h.engine.services().follower().awaitCaughtUp(Duration.ofSeconds(60))).isTrue();
                await().atMost(Duration.ofSeconds(20)).untilAsserted(() -> {
                    JsonNode p = ApiHarness.json(h.get(token, "/v1/events?limit=100&after=" + cursor));
                    // The payment once. A creation answered 503 while MySQL hung may still have been written when the hung
                    // statement ran after the stall (503 means "not known, safe to repeat"): its creation row may follow.
                    List<JsonNode> moves = new ArrayList<>();
                    p.path("events").forEach(e -> {
                        if (e.path("orderId").asText().equals("m-0")) {
                            moves.add(e);
                        } else {
                            assertThat(e.path("orderId").asText()).isEqualTo("m-new");
                            assertThat(e.path("to").asText()).isEqualTo("WAIT_PAY");
                        }
                    });
                    assertThat(moves).hasSize(1);
                    assertThat(moves.get(0).path("reason").asText()).isEqualTo("callback 7");
                });
                // Creation is idempotent: the same request again, MySQL back, answers the order (stored now or before).
                HttpResponse<String> again = h.post(token, "/v1/orders", "{\"id\": \"m-new\"}");
                assertThat(again.statusCode()).as(again.body()).isIn(200, 201);
            }
        }
    }
}
