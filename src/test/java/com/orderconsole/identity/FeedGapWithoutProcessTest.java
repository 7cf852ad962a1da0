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
import com.orderconsole.store.HistoryStore;
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
 * information_schema.INNODB_TRX (no PROCESS privilege) and is not restarted. A gap in the history's ids (a rolled-back
 * transaction) passes within a second, from the writers' marks (V47), and never past a row a transaction still holds:
 * a follower transaction held open across the gap is waited for, and its row comes first once it commits.
 */
@Slow
class FeedGapWithoutProcessTest {
    /** serve's own grace: what lets a gap pass in a second is the writers' marks, not time. */
    private static final Duration GRACE = ChangeFeed.DEFAULT_GAP_GRACE;
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

    /** Commits as the follower does: its mark says it writes no more, then the commit. */
    private static void commitAsTheFollower(Connection c) throws SQLException {
        try (Statement st = c.createStatement()) {
            st.executeUpdate(HistoryStore.WRITES_DONE);
        }
        c.commit();
    }

    private static void rolledBack(String orderId) throws SQLException {
        try (Connection c = AccessControlledDb.connect(AccessControlledDb.FOLLOWER)) {
            c.setAutoCommit(false);
            insertHistory(c, orderId);
            c.rollback();
        }
    }

    /** Reads from the cursor every 50 ms until a page has events; @return that page and, in [0], the seconds it took */
    private JsonNode pollUntilEvents(String cursor, double[] seconds) throws Exception {
        long t0 = System.nanoTime();
        JsonNode p = page(cursor, 0);
        while (p.path("events").isEmpty() && System.nanoTime() - t0 < 10_000_000_000L) {
            Thread.sleep(50);
            p = page(cursor, 0);
        }
        seconds[0] = (System.nanoTime() - t0) / 1e9;
        return p;
    }

    @Test
    void underServesFollowerAccountAGapPassesWithinASecondAndNoRowCommittedLateIsSkipped() throws Exception {
        AccessControlledDb.reset();
        try (Engine ada = Engine.start(AccessControlledDb.config("ada"))) {
            token = ada.services().apiClients().add(ada.operator(), "inventory", Role.SUPPORT).token();
        }
        // As in production: the follower role is granted on the schema only, and the transaction list needs PROCESS.
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

            // A rolled-back id, then a move: the gap passes within a second of its first sight.
            rolledBack("gone-1");
            post("/v1/orders/np-0/transitions", "{\"to\": \"PAID\"}");
            assertThat(fred.services().follower().awaitCaughtUp(Duration.ofSeconds(20))).isTrue();
            double[] took = new double[1];
            JsonNode p = pollUntilEvents(cursor, took);
            System.out.printf("feed gap under the follower account: passed %.2f s after its first sight%n", took[0]);
            assertThat(events(p)).as(p.toString()).containsExactly("np-0/2/PAID");
            assertThat(took[0]).isLessThan(1.0);
            cursor = p.path("cursor").asText();

            try (Connection held = AccessControlledDb.connect(AccessControlledDb.FOLLOWER)) {
                // A follower transaction takes the next id and stays open; a rolled-back id and a move follow it.
                held.setAutoCommit(false);
                insertHistory(held, "late-1");
                rolledBack("gone-2");
                post("/v1/orders/np-0/transitions", "{\"to\": \"WAIT_SHIP\"}");
                assertThat(fred.services().follower().awaitCaughtUp(Duration.ofSeconds(20))).isTrue();
                p = page(cursor, 2); // a long poll of 2 s: nothing passes the row still held
                assertThat(events(p)).as(p.toString()).isEmpty();
                assertThat(p.path("waitingOnUncommitted").asBoolean()).as(p.toString()).isTrue();
                assertThat(p.path("cursor").asText()).isEqualTo(cursor);
                // Held on: still nothing (a held row waits as long as it is held, whatever the time).
                Thread.sleep(1000);
                p = page(cursor, 0);
                assertThat(events(p)).as(p.toString()).isEmpty();
                commitAsTheFollower(held);
            }
            // The row committed late comes first, then the move behind the gap, within a second.
            long t0 = System.nanoTime();
            List<String> seen = new ArrayList<>();
            while (seen.size() < 2 && System.nanoTime() - t0 < 10_000_000_000L) {
                p = page(cursor, 5);
                seen.addAll(events(p));
                cursor = p.path("cursor").asText();
            }
            double afterCommit = (System.nanoTime() - t0) / 1e9;
            System.out.printf("feed gap under the follower account: the held row and the move after the gap came %.2f s after "
                    + "its commit%n", afterCommit);
            assertThat(seen).containsExactly("late-1/1/WAIT_PAY", "np-0/3/WAIT_SHIP");
            assertThat(afterCommit).isLessThan(1.0);

            // A long poll waiting at a gap, as a consumer waits: answered within a second of the move.
            rolledBack("gone-3");
            post("/v1/orders/np-0/transitions", "{\"to\": \"SHIPPED\"}");
            assertThat(fred.services().follower().awaitCaughtUp(Duration.ofSeconds(20))).isTrue();
            t0 = System.nanoTime();
            p = page(cursor, 10);
            double waited = (System.nanoTime() - t0) / 1e9;
            System.out.printf("feed gap under the follower account: a long poll answered after %.2f s%n", waited);
            assertThat(events(p)).as(p.toString()).containsExactly("np-0/4/SHIPPED");
            assertThat(waited).isLessThan(1.0);
            // Every writer above set its mark back before it committed (the engine's follower and creation, and this test's
            // follower-like one); a rollback took its mark back with it.
            try (Connection c = AccessControlledDb.connect(AccessControlledDb.FOLLOWER); Statement st = c.createStatement();
                 java.sql.ResultSet rs = st.executeQuery("SELECT COUNT(*), SUM(open) FROM history_writer")) {
                assertThat(rs.next()).isTrue();
                assertThat(rs.getInt(1)).isPositive();
                assertThat(rs.getInt(2)).isZero();
            }
        } finally {
            logger.detachAppender(logged);
        }
        // The marks were readable throughout: serve never fell back to the grace.
        assertThat(logged.list.stream().filter(e -> e.getFormattedMessage().contains("history_writer")).count())
                .as(logged.list.toString()).isZero();
    }
}
