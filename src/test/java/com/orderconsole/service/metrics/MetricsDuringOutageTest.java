package com.orderconsole.service.metrics;

import com.orderconsole.Slow;
import com.orderconsole.StallingProxy;
import com.orderconsole.TestServers;
import com.orderconsole.app.Engine;
import com.orderconsole.domain.Operator;
import com.orderconsole.domain.OrderStatus;
import com.orderconsole.domain.Role;
import com.orderconsole.domain.TransitionRequest;
import com.orderconsole.embedded.EmbeddedMariaDb;
import com.orderconsole.app.Services;
import org.junit.jupiter.api.Test;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Monitoring while MySQL hangs, as an on-call engineer meets it: a new-user trial found the endpoint silent for 20-120 s
 * (its one thread waited on a blocked MySQL read) and the sync-lag alert raised only after MySQL came back. Here MySQL
 * hangs behind a proxy that stops forwarding (as a SIGSTOPped server: no error, no answer) while serve's jobs run.
 * A MySQL hang of several seconds: {@link Slow}, as the other outage tests.
 */
@Slow
class MetricsDuringOutageTest {
    /** Shortened for the test through the documented system property (default 30 s). */
    private static final int LAG_THRESHOLD_S = 4;
    private final Operator ops = new Operator("olga", Role.OPS);

    private static HttpResponse<String> get(HttpClient http, int port, String path) throws Exception {
        return http.send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + path)).timeout(Duration.ofSeconds(5)).build(),
                HttpResponse.BodyHandlers.ofString());
    }

    private static double sample(String body, String name) {
        Matcher m = Pattern.compile("^" + Pattern.quote(name) + " (\\S+)$", Pattern.MULTILINE).matcher(body);
        assertThat(m.find()).as(name + " in\n" + body).isTrue();
        return Double.parseDouble(m.group(1));
    }

    @Test
    void aHungMySqlLeavesScrapesFastShowsTheLagGrowingAndRaisesTheSyncLagAlertDuringTheOutage() throws Exception {
        TestServers.reset();
        EmbeddedMariaDb mariaDb = TestServers.mariaDb();
        System.setProperty("orderconsole.alert.syncLagSeconds", Integer.toString(LAG_THRESHOLD_S));
        HttpClient http = HttpClient.newHttpClient();
        try (StallingProxy proxy = new StallingProxy(mariaDb.port())) {
            String jdbc = mariaDb.jdbcUrl().replace(":" + mariaDb.port() + "/", ":" + proxy.port() + "/");
            try (Engine e = Engine.start(TestServers.config().withServers(TestServers.redis().uri(), jdbc, "root", "")
                    .withBackgroundJobs(Duration.ofSeconds(1), Duration.ofMillis(200)))) {
                Services s = e.services();
                assertThat(s.metrics().alertThresholds().syncLagSeconds()).isEqualTo(LAG_THRESHOLD_S);
                for (int i = 0; i < 5; i++) {
                    s.orders().create(ops, "hang-" + i, null, Duration.ofMinutes(30));
                }
                assertThat(s.follower().awaitCaughtUp(Duration.ofSeconds(20))).isTrue();
                int port = s.metrics().startEndpoint(0);
                assertThat(get(http, port, "/health").statusCode()).isEqualTo(200);

                proxy.stall(true);
                long hungAt = System.nanoTime();
                s.transitions().transition(ops, TransitionRequest.of("hang-0", OrderStatus.PAID, "gw", ""));

                List<Long> scrapeMs = new ArrayList<>();
                List<Double> lags = new ArrayList<>();
                Alert raised = null;
                double readingOk = 1;
                long raisedAfterMs = -1;
                // As serve does (every 5 s there, every second here): judge the alerts, and scrape as Prometheus would.
                while (System.nanoTime() - hungAt < Duration.ofSeconds(LAG_THRESHOLD_S + 15).toNanos()
                        && (raised == null || readingOk != 0 || lags.size() < 3)) {
                    long t0 = System.nanoTime();
                    String body = get(http, port, "/metrics").body();
                    scrapeMs.add((System.nanoTime() - t0) / 1_000_000);
                    readingOk = sample(body, "orderconsole_reading_ok");
                    if (readingOk == 0) {
                        lags.add(sample(body, "orderconsole_sync_lag_seconds"));
                    }
                    for (Alert a : s.metrics().checkAlerts()) {
                        if (a.kind() == Alert.Kind.SYNC_LAG && a.raised()) {
                            raised = a;
                            raisedAfterMs = (System.nanoTime() - hungAt) / 1_000_000;
                        }
                    }
                    Thread.sleep(1000);
                }
                String shown = "scrapes " + scrapeMs + " ms, lags while not OK " + lags;
                System.out.println("[measured] MySQL hung: " + shown + "; sync-lag alert raised " + raisedAfterMs + " ms after the hang began");
                assertThat(scrapeMs).as(shown).allSatisfy(ms -> assertThat(ms).isLessThan(1000));
                assertThat(readingOk).as(shown).isZero();
                assertThat(raised).as("sync-lag alert raised while MySQL hangs; " + shown).isNotNull();
                assertThat(raisedAfterMs).as(shown).isLessThanOrEqualTo((LAG_THRESHOLD_S + 10) * 1000L);
                assertThat(lags).as("the lag keeps growing during the outage; " + shown).hasSizeGreaterThanOrEqualTo(2);
                assertThat(lags.get(lags.size() - 1)).as(shown).isGreaterThan(lags.get(0)).isGreaterThan(LAG_THRESHOLD_S);

                HttpResponse<String> health = get(http, port, "/health");
                assertThat(health.statusCode()).isEqualTo(503);
                assertThat(health.body()).contains("\"mysql\":\"failing\"").contains("\"redis\":\"ok\"")
                        .contains("MySQL last answered the metrics sampler").contains("\"sync_lag\"")
                        .as("the open MYSQL_DOWN incident is listed").contains("\"mysql_down\"");

                proxy.stall(false);
                assertThat(s.follower().awaitCaughtUp(Duration.ofSeconds(60))).isTrue();
                org.awaitility.Awaitility.await().atMost(Duration.ofSeconds(10)).untilAsserted(() ->
                        assertThat(get(http, port, "/health").statusCode()).isEqualTo(200));
                s.metrics().stopEndpoint();
            }
        } finally {
            System.clearProperty("orderconsole.alert.syncLagSeconds");
        }
    }
}
