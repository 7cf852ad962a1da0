package com.orderconsole.api;

import com.fasterxml.jackson.databind.JsonNode;
import com.orderconsole.OidcStub;
import com.orderconsole.domain.Role;
import com.orderconsole.service.identity.OidcVerifier;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import java.net.URI;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Base64;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * People sign in with the identity provider and act through serve's API: each way a token is refused (401 in words,
 * nothing stored), a group mapped to each role, a role too low (403), a key rotation under traffic with no restart, the
 * person's name in the history, and the limit on failed authentications per address. API clients' tokens keep working.
 */
class OidcApiTest {
    static final String MAP = "console-readers=read-only,console-support=support,console-ops=ops,console-admin=admin";
    private OidcStub idp;
    private OidcVerifier verifier;
    private ApiHarness h;
    private String service;

    @BeforeEach
    void start() throws Exception {
        idp = OidcStub.start();
        verifier = new OidcVerifier(idp.settings(MAP));
        h = ApiHarness.freshWithOidc(verifier);
        service = h.client("payments", Role.SUPPORT);
        for (String id : List.of("o-1", "o-2", "o-3")) {
            assertThat(h.post(service, "/v1/orders", "{\"id\": \"" + id + "\"}").statusCode()).isEqualTo(201);
        }
    }

    @AfterEach
    void stop() {
        h.close();
        idp.close();
    }

    private HttpResponse<String> pay(String token, String id) throws Exception {
        return h.post(token, "/v1/orders/" + id + "/transitions", "{\"to\": \"PAID\", \"reason\": \"callback\"}");
    }

    private static void assertError(HttpResponse<String> r, int status, String kind, String words) throws Exception {
        assertThat(r.statusCode()).as(r.body()).isEqualTo(status);
        JsonNode doc = ApiHarness.json(r);
        assertThat(doc.path("error").path("kind").asText()).as(r.body()).isEqualTo(kind);
        assertThat(doc.path("error").path("message").asText()).as(r.body()).contains(words);
    }

    private long version(String id) throws Exception {
        return ApiHarness.json(h.get(service, "/v1/orders/" + id)).path("redis").path("version").asLong();
    }

    @Test
    void everyRefusedTokenIs401InWordsAndNothingIsStored() throws Exception {
        String good = idp.token().mint();
        String[] parts = good.split("\\.");
        String otherPayload = idp.token().username("mallory").groups("console-admin").mint().split("\\.")[1];
        Map<String, String[]> cases = new LinkedHashMap<>();
        cases.put("expired", new String[]{idp.token().expiresIn(Duration.ofMinutes(-10)).mint(), "expired at"});
        cases.put("not yet valid", new String[]{idp.token().notBeforeIn(Duration.ofMinutes(10)).mint(), "not valid before"});
        cases.put("wrong issuer", new String[]{idp.token().issuer("http://127.0.0.1:1/realms/other").mint(),
                "not by the configured identity provider"});
        cases.put("wrong audience", new String[]{idp.token().audience("another-api").mint(), "not for this API"});
        cases.put("unknown key", new String[]{idp.token().signedWith(OidcStub.newKey()).mint(), "does not publish"});
        cases.put("alg none", new String[]{idp.token().unsigned().mint(), "unsigned (alg none)"});
        cases.put("HMAC", new String[]{idp.token().hmac(new byte[32]).mint(), "HMAC-signed (HS256)"});
        cases.put("payload swapped", new String[]{parts[0] + "." + otherPayload + "." + parts[2], "signature does not verify"});
        cases.put("not a JWT", new String[]{"not-a-jwt", "neither an API client's token"});
        cases.put("revoked-looking client token", new String[]{"oc_unknown", "not one of a client in force"});
        for (Map.Entry<String, String[]> c : cases.entrySet()) {
            HttpResponse<String> r = pay(c.getValue()[0], "o-1");
            assertError(r, 401, "unauthorized", c.getValue()[1]);
            assertThat(r.headers().firstValue("WWW-Authenticate")).as(c.getKey()).hasValueSatisfying(v -> assertThat(v).contains("invalid_token"));
            assertThat(r.body()).as(c.getKey() + ": the token is never echoed").doesNotContain(c.getValue()[0]);
        }
        assertError(h.send(null, HttpRequest.newBuilder(URI.create(h.base() + "/v1/orders/o-1/transitions"))
                .header("Content-Type", "application/json").POST(HttpRequest.BodyPublishers.ofString("{\"to\": \"PAID\"}"))),
                401, "unauthorized", "a person's access token from the identity provider");
        assertThat(version("o-1")).as("nothing was stored").isEqualTo(1);
        // The same person with a good token acts.
        assertThat(pay(good, "o-1").statusCode()).isEqualTo(200);
    }

    @Test
    void eachGroupGivesItsRoleAndARoleTooLowIs403() throws Exception {
        String reader = idp.token().username("rita").groups("console-readers").mint();
        assertThat(h.get(reader, "/v1/orders/o-1").statusCode()).isEqualTo(200);
        assertError(pay(reader, "o-1"), 403, "permission", "needs role support");

        String support = idp.token().username("sam").groups("console-support", "marketing").mint();
        assertThat(pay(support, "o-1").statusCode()).isEqualTo(200);
        assertError(h.post(support, "/v1/orders/o-2/transitions", "{\"to\": \"FINISHED\", \"override\": true, \"reason\": \"x\", "
                + "\"expectedVersion\": 1}"), 403, "permission", "may not override the transition rules: needs role admin");
        assertThat(version("o-2")).isEqualTo(1);

        // The claim may be a single string; the highest mapped group counts.
        assertThat(verifier.verify(idp.token().claim("groups", "console-ops").mint()).role()).isEqualTo(Role.OPS);
        assertThat(verifier.verify(idp.token().groups("console-support", "console-admin").mint()).role()).isEqualTo(Role.ADMIN);
        assertThat(verifier.verify(reader).role()).isEqualTo(Role.READ_ONLY);
        assertThat(verifier.verify(support).role()).isEqualTo(Role.SUPPORT);

        String admin = idp.token().username("ada").groups("console-admin").mint();
        HttpResponse<String> overridden = h.post(admin, "/v1/orders/o-2/transitions", "{\"to\": \"FINISHED\", \"override\": true, "
                + "\"reason\": \"customer called\", \"expectedVersion\": 1}");
        assertThat(overridden.statusCode()).as(overridden.body()).isEqualTo(200);

        // A person in no mapped group is refused, not given read-only.
        assertError(h.get(idp.token().username("mo").groups("marketing").mint(), "/v1/orders/o-1"), 403, "permission",
                "none of the groups");
        assertError(h.get(idp.token().claim("groups", null).mint(), "/v1/orders/o-1"), 403, "permission", "none of the groups");
    }

    @Test
    void thePersonAndTheirClientAreInTheHistoryNotWhatTheBodySays() throws Exception {
        String alice = idp.token().subject("u-alice").username("alice").claim("email", "alice@example.com").mint();
        HttpResponse<String> r = pay(alice, "o-3");
        assertThat(r.statusCode()).as(r.body()).isEqualTo(200);
        // The body has no actor field: one is refused, not used.
        assertError(h.post(alice, "/v1/orders/o-3/transitions", "{\"to\": \"SHIPPED\", \"actor\": \"bob\"}"), 400, "usage", "actor");
        String bob = idp.token().subject("u-bob").claim("preferred_username", null).claim("email", "bob@example.com")
                .claim("azp", "order-cli").mint();
        assertThat(h.post(bob, "/v1/orders/o-3/transitions", "{\"to\": \"WAIT_SHIP\"}").statusCode()).isEqualTo(200);
        String created = idp.token().subject("u-carol").username("carol").mint();
        assertThat(h.post(created, "/v1/orders", "{\"id\": \"o-4\"}").statusCode()).isEqualTo(201);
        assertThat(h.post(created, "/v1/orders", "{\"id\": \"o-4\"}").statusCode()).as("the same creation again").isEqualTo(200);

        assertThat(h.engine.services().follower().awaitCaughtUp(Duration.ofSeconds(20))).isTrue();
        List<String> actors = new ArrayList<>();
        ApiHarness.json(h.get(service, "/v1/orders/o-3")).path("history").forEach(e -> actors.add(e.path("actor").asText()));
        assertThat(actors).containsExactly("api:payments", "sso:alice via console-web", "sso:bob@example.com via order-cli");
        assertThat(ApiHarness.json(h.get(service, "/v1/orders/o-4")).path("history").get(0).path("actor").asText())
                .isEqualTo("sso:carol via console-web");
        assertThat(com.orderconsole.RawSql.count("SELECT COUNT(*) FROM order_history WHERE actor = 'sso:alice via console-web'"))
                .isEqualTo(1);

        // Another subject presenting the same name is refused: the name is alice's in the history.
        assertError(pay(idp.token().subject("u-impostor").username("alice").mint(), "o-1"), 401, "unauthorized",
                "recorded in the history for another person");
        assertThat(version("o-1")).isEqualTo(1);
    }

    @Test
    void keysRotateUnderTrafficWithNoRestart() throws Exception {
        int orders = 40;
        for (int i = 0; i < orders; i++) {
            h.post(service, "/v1/orders", "{\"id\": \"r-" + i + "\"}");
        }
        int readsBefore = idp.keySetReads();
        AtomicBoolean go = new AtomicBoolean(true);
        AtomicInteger sent = new AtomicInteger();
        AtomicInteger ok = new AtomicInteger();
        ConcurrentLinkedQueue<String> failures = new ConcurrentLinkedQueue<>();
        List<Thread> threads = new ArrayList<>();
        for (int t = 0; t < 4; t++) {
            Thread th = new Thread(() -> {
                while (go.get()) {
                    int i = sent.getAndIncrement();
                    try {
                        // A fresh token for each request: each is verified, with whichever key signs at that moment. A
                        // payment of a paid order answers 200 too (a repeat), so the traffic goes on as long as needed.
                        HttpResponse<String> r = pay(idp.token().username("u" + (i % 5)).mint(), "r-" + (i % orders));
                        if (r.statusCode() == 200) {
                            ok.incrementAndGet();
                        } else {
                            failures.add(r.statusCode() + " " + r.body());
                        }
                    } catch (Exception e) {
                        failures.add(e.toString());
                    }
                }
            });
            th.start();
            threads.add(th);
        }
        awaitSent(sent, 100);
        idp.rotate(true); // a new key signs; the old one stays published for tokens in flight, as providers do
        awaitSent(sent, sent.get() + 100);
        Thread.sleep(400); // past the least interval between two key fetches (200 ms in the stub's settings)
        idp.rotate(true);
        awaitSent(sent, sent.get() + 100);
        go.set(false);
        for (Thread th : threads) {
            th.join(30_000);
        }
        assertThat(failures).isEmpty();
        assertThat(ok.get()).isGreaterThanOrEqualTo(300);
        assertThat(idp.keySetReads() - readsBefore).as("the key set was read again once per new key id").isEqualTo(2);
        assertThat(idp.discoveryReads()).as("discovered once").isEqualTo(1);
    }

    private static void awaitSent(AtomicInteger sent, int atLeast) throws InterruptedException {
        long deadline = System.nanoTime() + Duration.ofSeconds(60).toNanos();
        while (sent.get() < atLeast && System.nanoTime() < deadline) {
            Thread.sleep(5);
        }
    }

    @Test
    void failedAuthenticationsAreLimitedPerAddress() throws Exception {
        String alice = idp.token().username("alice").mint();
        assertThat(pay(alice, "o-1").statusCode()).isEqualTo(200); // verified before the storm
        for (int i = 0; i < 20; i++) {
            assertThat(pay(idp.token().expiresIn(Duration.ofMinutes(-5)).mint(), "o-2").statusCode()).isEqualTo(401);
        }
        HttpResponse<String> limited = pay(idp.token().username("sam").mint(), "o-2");
        assertError(limited, 429, "rate_limited", "too many failed authentications from 127.0.0.1");
        assertThat(ApiHarness.json(limited).path("error").path("message").asText()).containsPattern("try again in \\d+ s");
        assertThat(limited.headers().firstValue("Retry-After")).hasValueSatisfying(v -> assertThat(Integer.parseInt(v)).isBetween(1, 60));
        assertError(pay("oc_guess", "o-2"), 429, "rate_limited", "nothing was done");
        // Tokens already known good still pass: a service or person behind the same proxy is not locked out.
        assertThat(pay(service, "o-2").statusCode()).isEqualTo(200);
        assertThat(h.get(alice, "/v1/orders/o-1").statusCode()).isEqualTo(200);
        assertThat(version("o-2")).isEqualTo(2);
    }

    /** @return the JSON of a JWT's payload, for a failing assertion's message */
    static String payload(String jwt) {
        return new String(Base64.getUrlDecoder().decode(jwt.split("\\.")[1]), java.nio.charset.StandardCharsets.UTF_8);
    }

    /**
     * {@code GET /v1/me} names who the token acts as, as the history stamps the person's moves: the console's band shows it.
     * An API client's token is the client's own; a token without one is refused as any request is.
     */
    @Test
    void meSaysWhoTheTokenActsAsAsTheHistoryStampsIt() throws Exception {
        String alice = idp.token().username("alice@example.com").groups("console-ops").mint();
        JsonNode me = ApiHarness.json(h.get(alice, "/v1/me"));
        assertThat(me.path("actor").asText()).isEqualTo("sso:alice@example.com via " + OidcStub.CLIENT);
        assertThat(me.path("name").asText()).isEqualTo("alice@example.com");
        assertThat(me.path("role").asText()).isEqualTo("ops");
        assertThat(me.path("via").asText()).isEqualTo(OidcStub.CLIENT);
        assertThat(pay(alice, "o-1").statusCode()).isEqualTo(200);
        assertThat(h.engine.services().follower().awaitCaughtUp(Duration.ofSeconds(20))).isTrue();
        assertThat(h.engine.services().orders().lookup("o-1").history().get(1).actor()).as("the history's stamp")
                .isEqualTo(me.path("actor").asText());

        JsonNode client = ApiHarness.json(h.get(service, "/v1/me"));
        assertThat(client.path("actor").asText()).isEqualTo("api:payments");
        assertThat(client.path("name").asText()).isEqualTo("payments");
        assertThat(client.path("role").asText()).isEqualTo("support");
        assertThat(client.path("via").asText()).isEqualTo("api-client");
        assertError(h.get(null, "/v1/me"), 401, "unauthorized", "this API needs a bearer token");
    }
}
