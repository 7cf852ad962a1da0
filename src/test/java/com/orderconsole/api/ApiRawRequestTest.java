package com.orderconsole.api;

import com.orderconsole.RawSql;
import com.orderconsole.domain.Role;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Requests as the fresh-user tester wrote them by hand, on a raw socket because a client library would refuse or
 * normalise them: whatever HTTP server or JSON parser refuses them, the answer is the API's one error shape in our own
 * words naming what was wrong, never Jetty's or Jackson's text, and nothing is stored.
 */
class ApiRawRequestTest {
    /** Jetty's and Jackson's own phrases, as the tester saw them leak. */
    private static final List<String> FOREIGN = List.of("Bad Request", "Ambiguous", "Illegal character", "CNTL", "Bad query",
            "Unsupported Version", "not supported", "Unrecognized token", "Unexpected", "No URI", "No Host", "Upgrade Required",
            "Duplicate", "Multiple Content-Lengths", "Transfer-Encoding, chunked", "Exception", ": null", "400:", "505:");

    private ApiHarness h;
    private String token;

    @BeforeEach
    void start() {
        h = ApiHarness.fresh();
        token = h.client("payments", Role.SUPPORT);
    }

    @AfterEach
    void stop() {
        h.close();
    }

    /** A creation of {@code id}: stored if anything let it through. */
    private String creation(String target, String extraHeaders, String id) {
        String body = "{\"id\": \"" + id + "\", \"paymentTimeout\": \"30m\"}";
        return "POST " + target + " HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: Bearer " + token + "\r\n" + extraHeaders
                + "Content-Type: application/json\r\nContent-Length: " + body.length() + "\r\nConnection: close\r\n\r\n" + body;
    }

    private RawHttp.Answer refused(String request, int status, String words) throws Exception {
        RawHttp.Answer a = RawHttp.send(h.api.port(), request);
        String what = request.substring(0, Math.min(60, request.length())) + " -> " + a.statusLine() + " " + a.body();
        assertThat(a.status()).as(what).isEqualTo(status);
        assertThat(a.headers().get("content-type")).as(what).startsWith("application/json");
        assertThat(a.json().has("exit")).as(what).isTrue();
        assertThat(a.kind()).as(what).isEqualTo("usage");
        assertThat(a.message()).as(what).contains(words);
        for (String foreign : FOREIGN) {
            assertThat(a.message()).as(what).doesNotContain(foreign);
        }
        return a;
    }

    @Test
    void requestsJettyRefusesAreAnsweredInTheErrorShapeInOurWordsAndStoreNothing() throws Exception {
        refused("GARBAGE\r\n\r\n", 400, "the request line is malformed");
        refused("POST /v1/orders HTTP/1.1 extra\r\nHost: 127.0.0.1\r\n\r\n", 400, "the request line is malformed");
        refused(creation("/v1/orders/%zz", "", "raw-1"), 400, "the request line is malformed");
        refused(creation("/v1/x/%2e%2e/orders", "", "raw-2"), 400, "the request's path is ambiguous: it has an encoded '/' or '..'");
        refused(creation("/v1%2Forders", "", "raw-3"), 400, "the request's path is ambiguous: it has an encoded '/' or '..'");
        refused(creation("/v1//orders", "", "raw-4"), 400, "the request's path is ambiguous");
        refused(creation("/v1/orders#here", "", "raw-5"), 400, "'#'");
        refused(creation("/v1/orders", "X-Trace: a\u0001b\r\n", "raw-6"), 400, "a header line is malformed");
        refused(creation("/v1/orders", "Bad Name: 1\r\n", "raw-7"), 400, "a header line is malformed");
        refused(creation("/v1/orders", "Host: 127.0.0.2\r\n", "raw-8"), 400, "Host header");
        refused(creation("/v1/orders", "Transfer-Encoding: gzip\r\n", "raw-9"), 400, "Transfer-Encoding");
        refused("GET /health/live HTTP/1.1\r\n\r\n", 400, "needs a Host header");
        refused("GET /health/live\r\n", 505, "HTTP/1.1");
        refused("GET /health/live HTTP/0.9\r\n\r\n", 505, "HTTP/1.1");
        // A query string that is not percent-encoded text reaches the route: its words, not Jetty's "400: Bad query".
        refused("GET /v1/events?after=%zz HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: Bearer " + token + "\r\nConnection: close\r\n\r\n",
                400, "the query string is not valid");
        // Malformed JSON: where it went wrong, in our words (it was Jackson's "Unrecognized token ...").
        String bad = "{\"id\": raw-10}";
        RawHttp.Answer json = refused("POST /v1/orders HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: Bearer " + token
                + "\r\nContent-Type: application/json\r\nContent-Length: " + bad.length() + "\r\nConnection: close\r\n\r\n" + bad,
                400, "the body is not valid JSON (line 1, column");
        assertThat(json.message()).contains("double quotes");

        assertThat(RawSql.count("SELECT COUNT(*) FROM orders")).as("nothing stored").isZero();
        try (com.orderconsole.RawRedis redis = new com.orderconsole.RawRedis()) {
            assertThat(redis.cmd().keys("*raw-*")).as("nothing in Redis").isEmpty();
        }
        // The same creation, sent well, is taken: the refusals above were of the requests' form alone.
        assertThat(RawHttp.send(h.api.port(), creation("/v1/orders", "", "raw-ok")).status()).isEqualTo(201);
    }

    /** Two Authorization headers are refused in words, whichever token each holds; the first no longer wins. */
    @Test
    void twoAuthorizationHeadersAreRefusedInWordsAndStoreNothing() throws Exception {
        String other = h.client("shop", Role.SUPPORT);
        refused(creation("/v1/orders", "Authorization: Bearer " + other + "\r\n", "two-1"), 400, "2 Authorization headers");
        refused(creation("/v1/orders", "Authorization: Bearer oc_wrong\r\n", "two-2"), 400, "2 Authorization headers");
        assertThat(RawSql.count("SELECT COUNT(*) FROM orders")).as("nothing stored").isZero();
    }
    /**
     * A path with ';' parameters is refused, naming them: {@code /v1/orders/mx-1;junk=zz/transitions} moved mx-1 (the
     * parameters were dropped), so a proxy keyed on the path saw another id than the one acted on (the tester's finding 9).
     */
    @Test
    void pathParametersAreRefusedInWordsAndNothingIsDone() throws Exception {
        assertThat(RawHttp.send(h.api.port(), creation("/v1/orders", "", "mx-1")).status()).isEqualTo(201);
        String move = "{\"to\": \"PAID\"}";
        String auth = "Host: 127.0.0.1\r\nAuthorization: Bearer " + token + "\r\n";
        refused("POST /v1/orders/mx-1;junk=zz/transitions HTTP/1.1\r\n" + auth + "Content-Type: application/json\r\n"
                + "Content-Length: " + move.length() + "\r\nConnection: close\r\n\r\n" + move, 400, "';junk=zz'");
        refused("GET /v1/orders/mx-1;v=2 HTTP/1.1\r\n" + auth + "Connection: close\r\n\r\n", 400, "path parameters");
        refused("GET /v1/orders/mx-1; HTTP/1.1\r\n" + auth + "Connection: close\r\n\r\n", 400, "path parameters");
        refused(creation("/v1/orders;x=1", "", "mx-2"), 400, "path parameters");
        assertThat(h.engine.services().follower().awaitCaughtUp(java.time.Duration.ofSeconds(20))).isTrue();
        assertThat(RawSql.count("SELECT COUNT(*) FROM orders")).as("mx-2 not stored").isEqualTo(1);
        RawHttp.Answer order = RawHttp.send(h.api.port(), "GET /v1/orders/mx-1 HTTP/1.1\r\n" + auth + "Connection: close\r\n\r\n");
        assertThat(order.json().path("version").asLong()).as("mx-1 was not moved: " + order.body()).isEqualTo(1);
    }
}
