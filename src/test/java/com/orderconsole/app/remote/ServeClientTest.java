package com.orderconsole.app.remote;

import com.fasterxml.jackson.databind.JsonNode;
import com.orderconsole.api.ApiHarness;
import com.orderconsole.domain.Role;
import com.sun.net.httpserver.HttpServer;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** The remote mode's HTTP client against a real serve (ApiHarness on embedded Redis and MariaDB). */
class ServeClientTest {
    private static ApiHarness h;
    private static String token;

    @BeforeAll
    static void start() {
        h = ApiHarness.fresh();
        token = h.client("support-desk", Role.SUPPORT);
    }

    @AfterAll
    static void stop() {
        h.close();
    }

    private static ServeClient client(AccessTokens tokens) {
        return new ServeClient(URI.create(h.base()), tokens);
    }

    @Test
    void oneActionSentTwiceWithItsKeyIsAppliedOnceAndAnsweredTheSame() {
        ServeClient c = client(new TestTokens(token));
        c.post("/v1/orders", Map.of("id", "sc-1"));
        String key = ServeClient.newKey();
        JsonNode first = c.post("/v1/orders/sc-1/transitions", Map.of("to", "PAID"), key);
        JsonNode again = c.post("/v1/orders/sc-1/transitions", Map.of("to", "PAID"), key);
        assertThat(first.path("applied").asBoolean()).isTrue();
        assertThat(again).as("the stored answer, not a second move").isEqualTo(first);
        assertThat(c.get("/v1/orders/sc-1").path("version").asLong()).isEqualTo(2);
        // A new action is a new key: serve answers it as the repeat it is.
        assertThat(c.post("/v1/orders/sc-1/transitions", Map.of("to", "PAID")).path("repeat").asBoolean()).isTrue();
    }

    @Test
    void aRefusalComesWithServesStatusKindAndWords() {
        ServeClient c = client(new TestTokens(token));
        assertThatThrownBy(() -> c.get("/v1/orders/sc-nothing"))
                .isInstanceOfSatisfying(ApiRefusal.class, r -> {
                    assertThat(r.status()).isEqualTo(404);
                    assertThat(r.kind()).isEqualTo("not_found");
                    assertThat(r.getMessage()).contains("sc-nothing");
                });
        c.post("/v1/orders", Map.of("id", "sc-2"));
        assertThatThrownBy(() -> c.post("/v1/orders/sc-2/transitions", Map.of("to", "SHIPPED")))
                .isInstanceOfSatisfying(ApiRefusal.class, r -> {
                    assertThat(r.status()).isEqualTo(409);
                    assertThat(r.kind()).isEqualTo("rejected");
                    assertThat(r.document().path("transition").path("result").asText()).isEqualTo("NOT_ALLOWED");
                });
        assertThat(ServeClient.path("/v1/orders", "idPrefix", "a b&c", "status", null, "limit", 5))
                .isEqualTo("/v1/orders?idPrefix=a%20b%26c&limit=5");
    }

    @Test
    void a401DropsTheTokenAndTriesOnceMoreWithAFreshOne() {
        TestTokens tokens = new TestTokens("oc_expired-or-revoked", token);
        ServeClient c = client(tokens);
        assertThat(c.get("/v1/health").path("redisUp").asBoolean()).isTrue();
        assertThat(tokens.rejectedTokens()).containsExactly("oc_expired-or-revoked");

        TestTokens bad = new TestTokens("oc_bad-1", "oc_bad-2");
        ServeClient refused = client(bad);
        List<ServeStatus> seen = new ArrayList<>();
        refused.onStatus(seen::add);
        assertThatThrownBy(() -> refused.get("/v1/health")).isInstanceOf(SignInRequiredException.class)
                .hasMessageContaining("serve at " + h.base() + " refused the access token").hasMessageContaining("sign in again")
                .hasMessageNotContaining("oc_bad");
        assertThat(bad.rejectedTokens()).containsExactly("oc_bad-1", "oc_bad-2");
        assertThat(seen).extracting(ServeStatus::state).containsExactly(ServeStatus.State.SIGN_IN_NEEDED);
    }

    @Test
    void nothingListeningIsSaidAsARefusedConnectionNamingServe() throws Exception {
        int port;
        try (ServerSocket s = new ServerSocket(0)) {
            port = s.getLocalPort();
        }
        ServeClient c = new ServeClient(URI.create("http://127.0.0.1:" + port), new TestTokens(token));
        assertThatThrownBy(() -> c.get("/v1/health")).isInstanceOfSatisfying(ServeUnavailableException.class, e -> {
            assertThat(e.reason()).isEqualTo(ServeUnavailableException.Reason.REFUSED);
            assertThat(e.getMessage()).isEqualTo("serve at http://127.0.0.1:" + port + " refused the connection (it is not "
                    + "running there, or the address is wrong); nothing was sent");
        });
        assertThat(c.status().state()).isEqualTo(ServeStatus.State.UNAVAILABLE);
    }

    @Test
    void noAnswerInTimeIsSaidWithTheWaitAndWhatBecameOfTheChange() throws Exception {
        try (ServerSocket silent = new ServerSocket(0, 50, java.net.InetAddress.getLoopbackAddress())) {
            List<Socket> held = new ArrayList<>();
            Thread acceptor = new Thread(() -> {
                try {
                    while (true) {
                        held.add(silent.accept()); // accepted, never answered
                    }
                } catch (java.io.IOException closed) {
                    // the test is over
                }
            });
            acceptor.setDaemon(true);
            acceptor.start();
            ServeClient c = new ServeClient(URI.create("http://127.0.0.1:" + silent.getLocalPort()), new TestTokens(token),
                    Duration.ofSeconds(2), Duration.ofMillis(600));
            assertThatThrownBy(() -> c.post("/v1/orders/x-1/transitions", Map.of("to", "PAID")))
                    .isInstanceOfSatisfying(ServeUnavailableException.class, e -> {
                        assertThat(e.reason()).isEqualTo(ServeUnavailableException.Reason.TIMED_OUT);
                        assertThat(e.getMessage()).startsWith("serve at http://127.0.0.1:" + silent.getLocalPort()
                                + " did not answer within 600 ms; the change may or may not have been applied: sending the "
                                + "same action again is safe");
                    });
        }
    }

    @Test
    void a503SaysServesWordsAndItsRetryAfter() throws Exception {
        // serve's 503 in its own shape, from a stand-in (a real serve answers it only while a store hangs or it stops).
        HttpServer busy = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 8);
        busy.createContext("/", ex -> {
            byte[] b = "{\"error\": {\"message\": \"MySQL did not answer within 5.0 s; nothing was changed; ask again\", \"kind\": \"unavailable\"}, \"exit\": 1}"
                    .getBytes(StandardCharsets.UTF_8);
            ex.getResponseHeaders().add("Retry-After", "7");
            ex.getResponseHeaders().add("Content-Type", "application/json");
            ex.sendResponseHeaders(503, b.length);
            ex.getResponseBody().write(b);
            ex.close();
        });
        busy.start();
        try {
            String at = "http://127.0.0.1:" + busy.getAddress().getPort();
            ServeClient c = new ServeClient(URI.create(at), new TestTokens(token));
            assertThatThrownBy(() -> c.get("/v1/health")).isInstanceOfSatisfying(ServeUnavailableException.class, e -> {
                assertThat(e.reason()).isEqualTo(ServeUnavailableException.Reason.BUSY);
                assertThat(e.retryAfterSeconds()).hasValue(7);
                assertThat(e.getMessage()).isEqualTo("serve at " + at + " cannot take the request now: MySQL did not answer "
                        + "within 5.0 s; nothing was changed; ask again (it asks to try again in 7 s)");
            });
        } finally {
            busy.stop(0);
        }
    }

    @Test
    void serveStoppedThenStartedOnItsPortIsSaidAndTheClientWorksOnByItself() {
        ServeClient c = client(new TestTokens(token));
        List<ServeStatus> seen = new ArrayList<>();
        c.onStatus(seen::add);
        assertThat(c.get("/v1/health").path("mysqlUp").asBoolean()).isTrue();
        int port = h.port();
        h.stopApi();
        try {
            assertThatThrownBy(() -> c.get("/v1/health")).isInstanceOfSatisfying(ServeUnavailableException.class,
                    e -> assertThat(e.getMessage()).contains("serve at " + h.baseAt(port) + " refused the connection"));
        } finally {
            h.startApi(port);
        }
        assertThat(c.get("/v1/health").path("mysqlUp").asBoolean()).isTrue();
        assertThat(c.status().state()).isEqualTo(ServeStatus.State.RECOVERED);
        assertThat(c.status().words()).startsWith("serve at " + h.base() + " answers again (it did not for ");
        assertThat(seen).extracting(ServeStatus::state).containsExactly(ServeStatus.State.UNAVAILABLE, ServeStatus.State.RECOVERED);

        // A restart between two requests: the connection kept from before is dead; the request goes through on a new one.
        h.stopApi();
        h.startApi(port);
        assertThat(c.get("/v1/health").path("mysqlUp").asBoolean()).isTrue();
        assertThat(c.status().answering()).isTrue();
    }
}
