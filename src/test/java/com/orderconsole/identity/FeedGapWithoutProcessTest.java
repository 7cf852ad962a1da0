package com.orderconsole.identity;

import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.core.read.ListAppender;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.orderconsole.Slow;
import com.orderconsole.api.ApiServer;
import com.orderconsole.app.Engine;
import com.orderconsole.domain.Role;
import com.orderconsole.service.feed.ChangeFeed;
import org.junit.jupiter.api.Test;
import org.slf4j.LoggerFactory;

import java.net.URI;
import java.net.URLEncoder;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * The change feed as production runs it: serve signed in with the follower role's account, which may not read
 * information_schema.INNODB_TRX (no PROCESS privilege), so a gap in the history's ids waits out the time grace. The feed
 * holds at a rolled-back id for the grace, then passes it, never past a row a transaction still holds; serve says once in
 * its log why gaps wait.
 */
@Slow
class FeedGapWithoutProcessTest {
    /** Short, so that the test waits seconds; serve's is {@link ChangeFeed#DEFAULT_GAP_GRACE}. */
    private static final Duration GRACE = Duration.ofSeconds(2);
    private static final ObjectMapper JSON = new ObjectMapper();
    private final HttpClient http = HttpClient.newHttpClient();
    private int port;
    private String token;

    private HttpResponse<String> send(HttpRequest.Builder b) throws Exception {
        return http.send(b.header("Authorization", "Bearer " + token).timeout(Duration.ofSeconds(40)).build(),
                HttpResponse.BodyHandlers.ofString());
    }

    private void post(String path, String body) throws Exception {
        HttpResponse<String> r = send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + path))
                .header("Content-Type", "application/json").POST(HttpRequest.BodyPublishers.ofString(body)));
        assertThat(r.statusCode()).as(r.body()).isIn(200, 201);
    }

    private JsonNode page(String cursor, int wait) throws Exception {
        HttpResponse<String> r = send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + "/v1/events?limit=10&wait=" + wait
                + (cursor == null ? "" : "&after=" + URLEncoder.encode(cursor, StandardCharsets.UTF_8)))).GET());
        assertThat(r.statusCode()).as(r.body()).isEqualTo(200);
        return JSON.readTree(r.body());
    }

    private static List<String> events(JsonNode page) {
        List<String> out = new ArrayList<>();
        page.path("events").forEach(e -> out.add(e.path("orderId").asText() + "/" + e.path("version").asLong() + "/" + e.path("to").asText()));
        return out;
    }

    /** A history row written in a transaction of serve's own account, as its follower writes one. */
    private static void insertHistory(Connection c, String orderId) throws SQLException {
        try (Statement st = c.createStatement()) {
            st.executeUpdate("INSERT INTO order_history (order_id, from_status, to_status, version, result_code, actor, source, reason, "
                    + "at_ms, event_key) VALUES ('" + orderId + "', NULL, 1, 1, 1, 'api:inventory', 'api', '', " + System.currentTimeMillis()
                    + ", 'test/" + orderId + "')");
        }
    }

    private static void rolledBack(String orderId) throws SQLException {
        try (Connection c = AccessControlledDb.connect(AccessControlledDb.FOLLOWER)) {
            c.setAutoCommit(false);
            insertHistory(c, orderId);
            c.rollback();
        }
    }

    @Test
    void underServesFollowerAccountAGapWaitsTheGraceAndNoRowCommittedLateIsSkipped() throws Exception {
        AccessControlledDb.reset();
        try (Engine ada = Engine.start(AccessControlledDb.config("ada"))) {
            token = ada.services().apiClients().add(ada.operator(), "inventory", Role.SUPPORT).token();
        }
        // As in production: the follower role is granted on the schema only, and the list needs PROCESS.
        try (Connection c = AccessControlledDb.connect(AccessControlledDb.FOLLOWER); Statement st = c.createStatement()) {
            assertThatThrownBy(() -> st.executeQuery("SELECT COUNT(*) FROM information_schema.INNODB_TRX").close())
                    .isInstanceOfSatisfying(SQLException.class, e -> assertThat(e.getErrorCode()).isEqualTo(1227));
        }
        Logger logger = (Logger) LoggerFactory.getLogger(ChangeFeed.class);
        ListAppender<ILoggingEvent> logged = new ListAppender<>();
        logged.start();
        logger.addAppender(logged);
        try (Engine fred = Engine.start(AccessControlledDb.config(AccessControlledDb.FOLLOWER)
                .withBackgroundJobs(null, Duration.ofMillis(50)));
             ApiServer api = ApiServer.start(fred.services(), ApiServer.Settings.of("127.0.0.1", 0).withGapGrace(GRACE))) {
            port = api.port();
            post("/v1/orders", "{\"id\": \"np-0\"}");
            assertThat(fred.services().follower().awaitCaughtUp(Duration.ofSeconds(20))).isTrue();
            JsonNode start = page(null, 0);
            assertThat(events(start)).containsExactly("np-0/1/WAIT_PAY");
            String cursor = start.path("cursor").asText();

            rolledBack("gone-1");
            try (Connection held = AccessControlledDb.connect(AccessControlledDb.FOLLOWER)) {
                // A follower transaction takes the id after the gap and commits only once the grace is long over.
                held.setAutoCommit(false);
                insertHistory(held, "late-1");
                post("/v1/orders/np-0/transitions", "{\"to\": \"PAID\"}");
                assertThat(fred.services().follower().awaitCaughtUp(Duration.ofSeconds(20))).isTrue();

                // First sight of the gap: the feed cannot know whether a transaction still holds its id, so it holds.
                long firstSight = System.nanoTime();
                JsonNode p = page(cursor, 0);
                assertThat(events(p)).as(p.toString()).isEmpty();
                assertThat(p.path("cursor").asText()).isEqualTo(cursor);
                assertThat(p.path("waitingOnUncommitted").asBoolean()).isFalse();
                // Once the grace is over the read passes the gap and stops at the row still held (the cursor stays before
                // it): the move committed after that row is not delivered ahead of it.
                while (!p.path("waitingOnUncommitted").asBoolean() && System.nanoTime() - firstSight < GRACE.toNanos() + 5_000_000_000L) {
                    assertThat(events(p)).as(p.toString()).isEmpty();
                    Thread.sleep(50);
                    p = page(cursor, 0);
                }
                double passedAfter = (System.nanoTime() - firstSight) / 1e9;
                System.out.printf("feed gap without PROCESS: passed %.2f s after its first sight (grace %d s)%n", passedAfter, GRACE.toSeconds());
                assertThat(p.path("waitingOnUncommitted").asBoolean()).as("the gap is passed once its grace is over: %s", p).isTrue();
                assertThat(passedAfter).isGreaterThanOrEqualTo(GRACE.toNanos() / 1e9).isLessThan(GRACE.toSeconds() + 1.5);
                assertThat(events(p)).as(p.toString()).isEmpty();
                assertThat(p.path("cursor").asText()).isEqualTo(cursor);
                // Held well past the grace: still not passed (a held row waits as long as it is held).
                Thread.sleep(GRACE.toMillis());
                p = page(cursor, 1);
                assertThat(events(p)).as(p.toString()).isEmpty();
                assertThat(p.path("waitingOnUncommitted").asBoolean()).isTrue();
                held.commit();
            }
            JsonNode p = page(cursor, 10);
            assertThat(events(p)).as(p.toString()).containsExactly("late-1/1/WAIT_PAY", "np-0/2/PAID");
            cursor = p.path("cursor").asText();

            // A long poll at a gap, as a consumer waits: answered with the move once the grace is over, not before.
            rolledBack("gone-2");
            post("/v1/orders/np-0/transitions", "{\"to\": \"WAIT_SHIP\"}");
            assertThat(fred.services().follower().awaitCaughtUp(Duration.ofSeconds(20))).isTrue();
            long t0 = System.nanoTime();
            p = page(cursor, 10);
            double waited = (System.nanoTime() - t0) / 1e9;
            System.out.printf("feed gap without PROCESS: a long poll answered after %.2f s%n", waited);
            assertThat(events(p)).as(p.toString()).containsExactly("np-0/3/WAIT_SHIP");
            assertThat(waited).isGreaterThanOrEqualTo(GRACE.toNanos() / 1e9).isLessThan(GRACE.toSeconds() + 1.5);
        } finally {
            logger.detachAppender(logged);
        }
        // Every read above met a gap and was refused the list; serve says why gaps wait once, not at each read.
        assertThat(logged.list.stream().filter(e -> e.getFormattedMessage().contains("PROCESS")).count())
                .as(logged.list.toString()).isEqualTo(1);
    }
}
