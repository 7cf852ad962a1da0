package com.orderconsole.service.metrics;

import com.orderconsole.FreshEngine;
import com.orderconsole.RawRedis;
import com.orderconsole.domain.Operator;
import com.orderconsole.domain.OrderStatus;
import com.orderconsole.domain.ResultCode;
import com.orderconsole.domain.Role;
import com.orderconsole.domain.TransitionResult;
import com.orderconsole.domain.TransitionRequest;
import com.orderconsole.app.Services;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * The Prometheus endpoint scraped over HTTP, as a monitoring agent would, against a real engine after
 * real transitions: names, labels and values.
 */
class MetricsEndpointTest {
    @RegisterExtension
    final FreshEngine fresh = new FreshEngine();
    private final Operator op = new Operator("alice", Role.SUPPORT);

    @AfterEach
    void stop() {
        fresh.services().metrics().stopEndpoint();
    }

    private static HttpResponse<String> get(int port, String path) throws IOException, InterruptedException {
        return HttpClient.newHttpClient().send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + path))
                .timeout(Duration.ofSeconds(10)).build(), HttpResponse.BodyHandlers.ofString());
    }

    /** @return the value of the sample with this name whose labels include all of these, or null */
    private static Double sample(String body, String name, Map<String, String> labels) {
        Pattern line = Pattern.compile("^" + Pattern.quote(name) + "(\\{([^}]*)\\})? (\\S+)$", Pattern.MULTILINE);
        Matcher m = line.matcher(body);
        while (m.find()) {
            String have = m.group(2) == null ? "" : m.group(2);
            boolean all = labels.entrySet().stream().allMatch(e -> have.contains(e.getKey() + "=\"" + e.getValue() + "\""));
            if (all) {
                return Double.valueOf(m.group(3));
            }
        }
        return null;
    }

    @Test
    void aScrapeShowsTransitionsByResultLatencyQueueAndSyncBacklog() throws Exception {
        Services s = fresh.services();
        for (String id : List.of("m-1", "m-2", "m-3")) {
            s.orders().create(op, id, null, Duration.ofMinutes(30));
        }
        s.transitions().transition(op, TransitionRequest.of("m-1", OrderStatus.PAID, "test", ""));
        s.transitions().transition(op, TransitionRequest.of("m-2", OrderStatus.PAID, "test", ""));
        s.transitions().transition(op, TransitionRequest.of("m-1", OrderStatus.PAID, "test", "")); // -4, already PAID
        s.transitions().transition(op, TransitionRequest.of("m-2", OrderStatus.FINISHED, "test", "")); // 0, not allowed

        int port = s.metrics().startEndpoint(0);
        assertThat(s.metrics().endpointPort()).hasValue(port);
        HttpResponse<String> r = get(port, "/metrics");
        assertThat(r.statusCode()).isEqualTo(200);
        assertThat(r.headers().firstValue("Content-Type")).hasValueSatisfying(t -> assertThat(t).startsWith("text/plain; version=0.0.4"));
        String body = r.body();

        assertThat(sample(body, "orderconsole_transitions_total", Map.of("result", "applied", "code", "1"))).isEqualTo(2.0);
        assertThat(sample(body, "orderconsole_transitions_total", Map.of("result", "rejected", "code", "-4"))).isEqualTo(1.0);
        assertThat(sample(body, "orderconsole_transitions_total", Map.of("result", "rejected", "code", "0"))).isEqualTo(1.0);
        assertThat(sample(body, "orderconsole_transitions_total", Map.of("result", "failed"))).isEqualTo(0.0);
        assertThat(sample(body, "orderconsole_transition_latency_seconds_count", Map.of("result", "applied"))).isEqualTo(2.0);
        assertThat(sample(body, "orderconsole_transition_latency_seconds_sum", Map.of("result", "applied"))).isPositive();
        assertThat(sample(body, "orderconsole_results_recorded_total", Map.of("code", "1"))).as("counted by the script")
                .isEqualTo(2.0);
        assertThat(sample(body, "orderconsole_results_recorded_total", Map.of("code", "-4"))).isEqualTo(1.0);
        assertThat(sample(body, "orderconsole_queue_depth", Map.of())).as("m-3 is unpaid").isEqualTo(1.0);
        assertThat(sample(body, "orderconsole_queue_overdue", Map.of())).isEqualTo(0.0);
        assertThat(sample(body, "orderconsole_queue_oldest_overdue_seconds", Map.of())).isEqualTo(0.0);
        // No follower runs in this engine: the four recorded outcomes wait in the outbox.
        assertThat(sample(body, "orderconsole_sync_backlog", Map.of())).isEqualTo(4.0);
        assertThat(sample(body, "orderconsole_sync_lag_seconds", Map.of())).isGreaterThanOrEqualTo(0.0);
        assertThat(sample(body, "orderconsole_reading_ok", Map.of())).isEqualTo(1.0);
        assertThat(sample(body, "orderconsole_reconciliation_findings", Map.of("category", "missing_in_redis")))
                .as("no compare ran yet").isNaN();
        assertThat(sample(body, "jvm_memory_used_bytes", Map.of("area", "heap"))).isPositive();

        // After the follower and a full compare the figures move.
        s.follower().drainOnce();
        s.reconciliation().run(null, (phase, done, total) -> { }, () -> false);
        Awaitility.await().atMost(Duration.ofSeconds(5)).untilAsserted(() -> {
            String after = get(port, "/metrics").body();
            assertThat(sample(after, "orderconsole_sync_backlog", Map.of())).isEqualTo(0.0);
            assertThat(sample(after, "orderconsole_reconciliation_findings", Map.of("category", "missing_in_redis"))).isEqualTo(0.0);
        });

        HttpResponse<String> health = get(port, "/health");
        assertThat(health.statusCode()).isEqualTo(200);
        assertThat(health.headers().firstValue("Content-Type")).hasValue("application/json");
        assertThat(health.body()).contains("\"status\":\"ok\"").contains("\"reasons\":[]");
        assertThat(get(port, "/").statusCode()).isEqualTo(404);
        s.metrics().stopEndpoint();
        assertThat(s.metrics().endpointPort()).isEmpty();
        assertThatThrownBy(() -> get(port, "/metrics")).isInstanceOf(IOException.class);
    }

    /**
     * A payment callback sent again with the version it was first sent with is the repeat it looks like, and counted so
     * (-4) by the script's counters, the metrics and the history, whoever sends it; the fresh-user tester saw 248 such
     * repeats counted as version conflicts (-3), which fed the rejection alerts. A version that really moved on, the
     * required-from-status guard and an override's failed compare-and-set stay conflicts.
     */
    @Test
    void aCallbackSentAgainWithItsVersionIsCountedAsARepeatNotAConflict() throws Exception {
        Services s = fresh.services();
        Operator admin = new Operator("ada", Role.ADMIN);
        for (String id : List.of("rp-1", "rp-2", "rp-3", "rp-4")) {
            s.orders().create(op, id, null, Duration.ofMinutes(30));
        }
        TransitionRequest callback = new TransitionRequest("rp-1", OrderStatus.PAID, 1L, "api", "callback 42", false);
        assertThat(s.transitions().transition(op, callback).applied()).isTrue();
        TransitionResult again = s.transitions().transition(op, callback);
        assertThat(again.code()).isEqualTo(ResultCode.ALREADY_IN_STATUS);
        assertThat(again.version()).isEqualTo(2);
        assertThat(again.from()).isEqualTo(OrderStatus.PAID);

        // rp-2 went on past PAID: a callback with version 1 is now a conflict.
        s.transitions().transition(op, TransitionRequest.of("rp-2", OrderStatus.PAID, "test", ""));
        s.transitions().transition(op, TransitionRequest.of("rp-2", OrderStatus.WAIT_SHIP, "test", ""));
        assertThat(s.transitions().transition(op, new TransitionRequest("rp-2", OrderStatus.WAIT_SHIP, 1L, "test", "", false)).code())
                .isEqualTo(ResultCode.VERSION_CONFLICT);
        // A cancel that requires WAIT_PAY, on an order already cancelled at the next version: the guard refuses it.
        s.transitions().transition(op, TransitionRequest.of("rp-3", OrderStatus.CANCELLED, "test", ""));
        assertThat(s.transitions().transition(op, new TransitionRequest("rp-3", OrderStatus.CANCELLED, 1L, "sweeper", "payment timeout",
                false).onlyFrom(OrderStatus.WAIT_PAY)).code()).isEqualTo(ResultCode.VERSION_CONFLICT);
        // An override is checked against the version the admin saw, unchanged.
        s.transitions().transition(op, TransitionRequest.of("rp-4", OrderStatus.CANCELLED, "test", ""));
        assertThat(s.transitions().transition(admin, new TransitionRequest("rp-4", OrderStatus.CANCELLED, 1L, "console", "again",
                true)).code()).isEqualTo(ResultCode.VERSION_CONFLICT);

        int port = s.metrics().startEndpoint(0);
        String body = get(port, "/metrics").body();
        assertThat(sample(body, "orderconsole_transitions_total", Map.of("result", "rejected", "code", "-4"))).isEqualTo(1.0);
        assertThat(sample(body, "orderconsole_transitions_total", Map.of("result", "rejected", "code", "-3"))).isEqualTo(3.0);
        assertThat(sample(body, "orderconsole_results_recorded_total", Map.of("code", "-4"))).as("counted by the script")
                .isEqualTo(1.0);
        assertThat(sample(body, "orderconsole_results_recorded_total", Map.of("code", "-3"))).isEqualTo(3.0);
        assertThat(s.monitor().resultCounts()).containsEntry(ResultCode.ALREADY_IN_STATUS, 1L)
                .containsEntry(ResultCode.VERSION_CONFLICT, 3L);
        s.follower().drainOnce();
        assertThat(s.orders().lookup("rp-1").history()).extracting(h -> h.code())
                .contains(ResultCode.ALREADY_IN_STATUS).doesNotContain(ResultCode.VERSION_CONFLICT);
    }

    /**
     * Issue 34: what an SRE also looks for: open dead letters, the follower's applied total, the start time and build, the
     * JVM's GC, the connection pool (HikariCP's tracker) and Redis command latency (Lettuce's recorder).
     */
    @Test
    void aScrapeShowsDeadLettersAppliedTotalBuildStartTimeGcPoolAndRedisLatency() throws Exception {
        Services s = fresh.services();
        s.orders().create(op, "x-1", null, Duration.ofMinutes(30));
        s.transitions().transition(op, TransitionRequest.of("x-1", OrderStatus.PAID, "test", ""));
        s.follower().drainOnce();
        int port = s.metrics().startEndpoint(0);
        String body = get(port, "/metrics").body();

        assertThat(sample(body, "orderconsole_dead_letters_open", Map.of())).isEqualTo(0.0);
        assertThat(sample(body, "orderconsole_follower_applied_total", Map.of())).as("the move; a creation is written to MySQL at once")
                .isEqualTo(1.0);
        assertThat(sample(body, "orderconsole_build_info", Map.of("version", com.orderconsole.app.BuildInfo.version()))).isEqualTo(1.0);
        assertThat(com.orderconsole.app.BuildInfo.version()).isNotEqualTo("unknown");
        assertThat(sample(body, "process_start_time_seconds", Map.of())).isPositive();
        assertThat(body).contains("jvm_gc_").contains("jvm_classes_loaded_classes");
        assertThat(sample(body, "hikaricp_connections_max", Map.of("pool", "orders-db"))).isPositive();
        assertThat(sample(body, "lettuce_command_completion_seconds_count", Map.of("command", "EVALSHA"))).isPositive();
    }

    /** Issue 34: the endpoint could listen on loopback only; --metrics-bind names the address. */
    @Test
    void theEndpointListensOnTheAddressItIsGiven() throws Exception {
        Services s = fresh.services();
        int port = s.metrics().startEndpoint(java.net.InetAddress.getByName("127.0.0.2"), 0);
        HttpResponse<String> r = HttpClient.newHttpClient().send(HttpRequest.newBuilder(URI.create("http://127.0.0.2:" + port + "/metrics"))
                .timeout(Duration.ofSeconds(10)).build(), HttpResponse.BodyHandlers.ofString());
        assertThat(r.statusCode()).isEqualTo(200);
        assertThatThrownBy(() -> get(port, "/metrics")).as("not on 127.0.0.1").isInstanceOf(IOException.class);
    }

    /** Pausing the sweeper on purpose shows on the endpoint, so a silent sweeper can be told from a stopped one. */
    @Test
    void aPausedSweeperReadsOne() throws Exception {
        Services s = fresh.services();
        int port = s.metrics().startEndpoint(0);
        assertThat(sample(get(port, "/metrics").body(), "orderconsole_sweeper_paused", Map.of())).isEqualTo(0.0);
        s.sweeper().setPaused(new Operator("olga", Role.OPS), true, "cli", "");
        Awaitility.await().atMost(Duration.ofSeconds(5)).untilAsserted(() ->
                assertThat(sample(get(port, "/metrics").body(), "orderconsole_sweeper_paused", Map.of())).isEqualTo(1.0));
    }

    @Test
    void aPortInUseIsRefusedInWords() {
        Services s = fresh.services();
        int port = s.metrics().startEndpoint(0);
        MetricsService second = new MetricsService(s.follower(), s.queue(), s.monitor(), s.reconciliation(), Alerts.Thresholds.DEFAULT);
        try {
            assertThatThrownBy(() -> second.startEndpoint(port)).hasMessageStartingWith("cannot serve metrics on 127.0.0.1:" + port);
        } finally {
            second.close();
        }
    }

    @Test
    void aStalledSweeperRaisesOneAlertThatClearsWhenItTicksAgain() throws Exception {
        Services s = fresh.services();
        try (RawRedis raw = new RawRedis()) {
            long now = Long.parseLong(raw.cmd().time().get(0)) * 1000;
            raw.cmd().hset("osm:sweeper", "lastTick", Long.toString(now - 60_000));
            List<Alert> first = Awaitility.await().atMost(Duration.ofSeconds(5)).until(() -> s.metrics().checkAlerts(), l -> !l.isEmpty());
            assertThat(first).singleElement().satisfies(a -> {
                assertThat(a.kind()).isEqualTo(Alert.Kind.SWEEPER_STALLED);
                assertThat(a.raised()).isTrue();
                assertThat(a.value()).isGreaterThanOrEqualTo(60.0);
            });
            nextSample(s);
            assertThat(s.metrics().checkAlerts()).as("once per incident").isEmpty();
            raw.cmd().hset("osm:sweeper", "lastTick", Long.toString(now + 1_000));
            List<Alert> cleared = Awaitility.await().atMost(Duration.ofSeconds(5)).until(() -> s.metrics().checkAlerts(), l -> !l.isEmpty());
            assertThat(cleared).singleElement().satisfies(a -> {
                assertThat(a.kind()).isEqualTo(Alert.Kind.SWEEPER_STALLED);
                assertThat(a.raised()).isFalse();
            });
            nextSample(s);
            assertThat(s.metrics().checkAlerts()).isEmpty();
        }
    }

    /**
     * Waits until the sampler has read Redis again (its reading's Redis time moved), so that what follows judges a
     * reading taken after this point, however long a sample takes on a loaded machine.
     */
    private static void nextSample(Services s) {
        long at = s.metrics().reading().atMs();
        Awaitility.await().atMost(Duration.ofMillis(StoreSampler.SAMPLE_PERIOD_MS * 5)).pollInterval(Duration.ofMillis(20))
                .until(() -> s.metrics().reading().atMs() > at);
    }
}
