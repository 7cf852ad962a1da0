package com.orderconsole.api;

import com.fasterxml.jackson.databind.JsonNode;
import com.orderconsole.TestServers;
import com.orderconsole.domain.Role;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import java.net.URLEncoder;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.Statement;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * GET /v1/events (issue 32): every applied transition once, each order's in version order, resumable, long-polled, and
 * never past a history row a transaction still holds uncommitted (InnoDB ids are not commit order).
 */
class ChangeFeedTest {
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

    private JsonNode page(String cursor, int limit, int wait) throws Exception {
        String q = "/v1/events?limit=" + limit + "&wait=" + wait + (cursor == null ? "" : "&after=" + URLEncoder.encode(cursor, StandardCharsets.UTF_8));
        HttpResponse<String> r = h.get(token, q);
        assertThat(r.statusCode()).as(r.body()).isEqualTo(200);
        return ApiHarness.json(r);
    }

    /** Reads until a page is empty; returns "order/version/to" of each event, and the last cursor in [0]. */
    private List<String> drain(String[] cursor) throws Exception {
        List<String> seen = new ArrayList<>();
        while (true) {
            JsonNode p = page(cursor[0], 7, 0);
            for (JsonNode e : p.path("events")) {
                seen.add(e.path("orderId").asText() + "/" + e.path("version").asLong() + "/" + e.path("to").asText());
            }
            cursor[0] = p.path("cursor").asText();
            if (p.path("events").isEmpty()) {
                return seen;
            }
        }
    }

    private List<String> appliedInMysql() throws Exception {
        List<String> rows = new ArrayList<>();
        try (Connection c = DriverManager.getConnection(TestServers.mariaDb().jdbcUrl(), "root", "");
             Statement st = c.createStatement();
             ResultSet rs = st.executeQuery("SELECT order_id, version, to_status FROM order_history WHERE result_code = 1 ORDER BY id")) {
            while (rs.next()) {
                rows.add(rs.getString(1) + "/" + rs.getLong(2) + "/" + com.orderconsole.domain.OrderStatus.ofCode(rs.getInt(3)).name());
            }
        }
        return rows;
    }

    @Test
    void aConsumerFromTheStartGetsEveryAppliedTransitionOnceInVersionOrderAndResumes() throws Exception {
        for (int i = 0; i < 12; i++) {
            h.post(token, "/v1/orders", "{\"id\": \"f-" + i + "\"}");
        }
        for (int i = 0; i < 12; i++) {
            h.post(token, "/v1/orders/f-" + i + "/transitions", "{\"to\": \"" + (i % 3 == 0 ? "CANCELLED" : "PAID") + "\"}");
            h.post(token, "/v1/orders/f-" + i + "/transitions", "{\"to\": \"PAID\"}"); // a repeat or a rejection: not in the feed
            if (i % 3 == 1) {
                h.post(token, "/v1/orders/f-" + i + "/transitions", "{\"to\": \"WAIT_SHIP\"}");
            }
        }
        assertThat(h.engine.services().follower().awaitCaughtUp(Duration.ofSeconds(20))).isTrue();
        String[] cursor = {null};
        List<String> seen = drain(cursor);
        assertThat(seen).containsExactlyElementsOf(appliedInMysql());
        assertThat(seen).doesNotHaveDuplicates().hasSize(12 + 12 + 4);
        Map<String, Long> lastVersion = new HashMap<>();
        for (String e : seen) {
            String[] p = e.split("/");
            long v = Long.parseLong(p[1]);
            assertThat(v).as(e).isEqualTo(lastVersion.getOrDefault(p[0], 0L) + 1);
            lastVersion.put(p[0], v);
        }

        // Resumed from the last cursor: nothing again; a long poll answers when the next move reaches MySQL.
        assertThat(page(cursor[0], 10, 0).path("events")).isEmpty();
        Thread mover = new Thread(() -> {
            try {
                Thread.sleep(500);
                h.post(token, "/v1/orders/f-1/transitions", "{\"to\": \"SHIPPED\"}");
            } catch (Exception e) {
                throw new IllegalStateException(e);
            }
        });
        mover.start();
        JsonNode waited = page(cursor[0], 10, 20);
        mover.join();
        assertThat(waited.path("events")).hasSize(1);
        assertThat(waited.path("events").get(0).path("orderId").asText()).isEqualTo("f-1");
        assertThat(waited.path("events").get(0).path("to").asText()).isEqualTo("SHIPPED");
        assertThat(waited.path("events").get(0).path("actor").asText()).isEqualTo("api:inventory");
    }

    @Test
    void theCursorNeverPassesARowAFollowerTransactionStillHolds() throws Exception {
        for (int i = 0; i < 3; i++) {
            h.post(token, "/v1/orders", "{\"id\": \"e-" + i + "\"}");
        }
        assertThat(h.engine.services().follower().awaitCaughtUp(Duration.ofSeconds(20))).isTrue();
        String[] cursor = {null};
        assertThat(drain(cursor)).hasSize(3);
        try (Connection held = DriverManager.getConnection(TestServers.mariaDb().jdbcUrl(), "root", "")) {
            held.setAutoCommit(false);
            // As a follower's transaction: its history row takes the next id now and commits later.
            try (PreparedStatement ins = held.prepareStatement("INSERT INTO order_history (order_id, from_status, to_status, version, "
                    + "result_code, actor, source, reason, at_ms, event_key) VALUES ('held-1', NULL, 1, 1, 1, 'api:inventory', 'api', '', ?, 'test/held-1')")) {
                ins.setLong(1, System.currentTimeMillis());
                ins.executeUpdate();
            }
            // Others commit after it, with higher ids.
            for (int i = 0; i < 3; i++) {
                h.post(token, "/v1/orders/e-" + i + "/transitions", "{\"to\": \"PAID\"}");
            }
            assertThat(h.engine.services().follower().awaitCaughtUp(Duration.ofSeconds(20))).isTrue();
            assertThat(appliedInMysql()).hasSize(6);
            String before = cursor[0];
            JsonNode p = page(before, 100, 3); // waits its 3 s: the rows behind the held one are not delivered
            assertThat(p.path("events")).as(p.toString()).isEmpty();
            assertThat(p.path("waitingOnUncommitted").asBoolean()).isTrue();
            assertThat(p.path("cursor").asText()).isEqualTo(before);
            try (Statement st = held.createStatement()) {
                st.executeUpdate(com.orderconsole.store.HistoryStore.WRITES_DONE); // as the follower ends its writes
            }
            held.commit();
        }
        List<String> after = drain(cursor);
        // The held row first (its id is the lowest), then the moves committed meanwhile (buckets apply in parallel).
        assertThat(after).hasSize(4).startsWith("held-1/1/WAIT_PAY");
        assertThat(after.subList(1, 4)).containsExactlyInAnyOrder("e-0/2/PAID", "e-1/2/PAID", "e-2/2/PAID");
    }

    @Test
    void aGapLeftByARolledBackRowIsPassedOnceItsGraceHasPassed() throws Exception {
        h.post(token, "/v1/orders", "{\"id\": \"g-0\"}");
        assertThat(h.engine.services().follower().awaitCaughtUp(Duration.ofSeconds(20))).isTrue();
        String[] cursor = {null};
        assertThat(drain(cursor)).hasSize(1);
        try (Connection c = DriverManager.getConnection(TestServers.mariaDb().jdbcUrl(), "root", "")) {
            c.setAutoCommit(false);
            try (Statement st = c.createStatement()) {
                st.executeUpdate("INSERT INTO order_history (order_id, from_status, to_status, version, result_code, actor, source, "
                        + "reason, at_ms, event_key) VALUES ('gone-1', NULL, 1, 1, 1, 'x', 'api', '', 1, 'test/gone-1')");
            }
            c.rollback();
        }
        h.post(token, "/v1/orders/g-0/transitions", "{\"to\": \"PAID\"}");
        assertThat(h.engine.services().follower().awaitCaughtUp(Duration.ofSeconds(20))).isTrue();
        // The harness's grace is 2 s, and the rolled-back transaction has ended: a long poll of 10 s delivers the move.
        JsonNode p = page(cursor[0], 10, 10);
        assertThat(p.path("events")).hasSize(1);
        assertThat(p.path("events").get(0).path("orderId").asText()).isEqualTo("g-0");
    }

    @Test
    void aGapLeftByARolledBackTransactionPassesOnceTheWritersAtWorkWhenItAppearedHaveEnded() throws Exception {
        // serve's grace (60 s): what lets the gap pass within a second or two is the end of the writers, not time.
        h.close();
        TestServers.reset();
        h = new ApiHarness(TestServers.config(), com.orderconsole.service.feed.ChangeFeed.DEFAULT_GAP_GRACE);
        token = h.client("inventory", Role.SUPPORT);
        h.post(token, "/v1/orders", "{\"id\": \"r-0\"}");
        assertThat(h.engine.services().follower().awaitCaughtUp(Duration.ofSeconds(20))).isTrue();
        String[] cursor = {null};
        assertThat(drain(cursor)).hasSize(1);
        try (Connection open = DriverManager.getConnection(TestServers.mariaDb().jdbcUrl(), "root", "")) {
            open.setAutoCommit(false);
            try (Connection c = DriverManager.getConnection(TestServers.mariaDb().jdbcUrl(), "root", "")) {
                c.setAutoCommit(false);
                try (Statement st = c.createStatement()) {
                    st.executeUpdate("INSERT INTO order_history (order_id, from_status, to_status, version, result_code, actor, source, "
                            + "reason, at_ms, event_key) VALUES ('gone-2', NULL, 1, 1, 1, 'x', 'api', '', 1, 'test/gone-2')");
                }
                // A writer of history at work when the gap appears and still at work: for all the feed knows, it may hold
                // the gap's id and commit it late (its own row comes after the gap; it is rolled back below).
                try (Statement st = open.createStatement()) {
                    st.executeUpdate("INSERT INTO order_history (order_id, from_status, to_status, version, result_code, actor, source, "
                            + "reason, at_ms, event_key) VALUES ('open-1', NULL, 1, 1, 1, 'x', 'api', '', 1, 'test/open-1')");
                }
                c.rollback();
            }
            h.post(token, "/v1/orders/r-0/transitions", "{\"to\": \"PAID\"}");
            assertThat(h.engine.services().follower().awaitCaughtUp(Duration.ofSeconds(20))).isTrue();
            JsonNode held = page(cursor[0], 10, 2);
            assertThat(held.path("events")).as(held.toString()).isEmpty();
            assertThat(held.path("cursor").asText()).isEqualTo(cursor[0]);
            // The consumer is told why nothing came: a gap, not "nothing new" and not an uncommitted row.
            assertThat(held.path("waitingOnGap").asBoolean()).as(held.toString()).isTrue();
            assertThat(held.path("waitingOnUncommitted").asBoolean()).as(held.toString()).isFalse();
            open.rollback();
        }
        long t0 = System.nanoTime();
        JsonNode p = page(cursor[0], 10, 10);
        double seconds = (System.nanoTime() - t0) / 1e9;
        System.out.printf("feed gap: passed %.2f s after the last writer at work at its first sight ended%n", seconds);
        assertThat(p.path("events")).as(p.toString()).hasSize(1);
        assertThat(p.path("events").get(0).path("orderId").asText()).isEqualTo("r-0");
        assertThat(p.path("waitingOnGap").asBoolean()).as(p.toString()).isFalse();
        assertThat(seconds).isLessThan(3);

        // With nothing else open, a rolled-back id costs the consumer a moment from the gap's first sight.
        try (Connection c = DriverManager.getConnection(TestServers.mariaDb().jdbcUrl(), "root", "")) {
            c.setAutoCommit(false);
            try (Statement st = c.createStatement()) {
                st.executeUpdate("INSERT INTO order_history (order_id, from_status, to_status, version, result_code, actor, source, "
                        + "reason, at_ms, event_key) VALUES ('gone-3', NULL, 1, 1, 1, 'x', 'api', '', 1, 'test/gone-3')");
            }
            c.rollback();
        }
        h.post(token, "/v1/orders/r-0/transitions", "{\"to\": \"WAIT_SHIP\"}");
        assertThat(h.engine.services().follower().awaitCaughtUp(Duration.ofSeconds(20))).isTrue();
        t0 = System.nanoTime();
        p = page(p.path("cursor").asText(), 10, 10);
        seconds = (System.nanoTime() - t0) / 1e9;
        System.out.printf("feed gap: passed %.2f s after its first sight%n", seconds);
        assertThat(p.path("events")).as(p.toString()).hasSize(1);
        assertThat(p.path("events").get(0).path("to").asText()).isEqualTo("WAIT_SHIP");
        assertThat(seconds).isLessThan(2);
    }

    /**
     * A cursor past every id the history has handed out (one kept from another database, or a test's) is refused in
     * words: it was taken silently and its consumer waited for ever. The cursor a page just gave is always taken.
     */
    @Test
    void aCursorAheadOfTheFeedIsRefusedInWordsAndOneJustGivenIsTaken() throws Exception {
        h.post(token, "/v1/orders", "{\"id\": \"c-0\"}");
        assertThat(h.engine.services().follower().awaitCaughtUp(Duration.ofSeconds(20))).isTrue();
        String[] cursor = {null};
        assertThat(drain(cursor)).hasSize(1);
        assertThat(page(cursor[0], 10, 0).path("events")).isEmpty(); // the head's own cursor: taken, nothing new

        String ahead = java.util.Base64.getUrlEncoder().withoutPadding().encodeToString("oc1:1000000".getBytes(StandardCharsets.US_ASCII));
        HttpResponse<String> r = h.get(token, "/v1/events?wait=5&after=" + ahead);
        assertThat(r.statusCode()).as(r.body()).isEqualTo(400);
        assertThat(ApiHarness.json(r).path("error").path("kind").asText()).isEqualTo("usage");
        assertThat(ApiHarness.json(r).path("error").path("message").asText()).contains("is ahead of this feed");

        h.post(token, "/v1/orders/c-0/transitions", "{\"to\": \"PAID\"}");
        assertThat(h.engine.services().follower().awaitCaughtUp(Duration.ofSeconds(20))).isTrue();
        assertThat(page(cursor[0], 10, 5).path("events")).hasSize(1);
    }
}
