package com.orderconsole.api;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.orderconsole.RawRedis;
import com.orderconsole.domain.Role;
import com.orderconsole.redis.RedisKeys;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import java.net.URI;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * The rules (view, what-if, change), dead letters (list, retry, discard) and the engine's health over the API, against
 * real servers, under the service layer's role rules.
 */
class ApiRulesAndDeadLettersTest {
    private ApiHarness h;
    private String reader;
    private String support;
    private String ops;

    @BeforeEach
    void start() {
        h = ApiHarness.fresh();
        reader = ApiHarness.person("rita", Role.READ_ONLY);
        support = h.client("shop", Role.SUPPORT);
        ops = h.client("ops-desk", Role.OPS);
    }

    @AfterEach
    void stop() {
        h.close();
    }

    private static void assertError(HttpResponse<String> r, int status, String kind, String words) throws Exception {
        assertThat(r.statusCode()).as(r.body()).isEqualTo(status);
        JsonNode doc = ApiHarness.json(r);
        assertThat(doc.path("error").path("kind").asText()).as(r.body()).isEqualTo(kind);
        assertThat(doc.path("error").path("message").asText()).as(r.body()).contains(words);
    }

    private HttpResponse<String> put(String token, String path, String body) throws Exception {
        return h.send(token, HttpRequest.newBuilder(URI.create(h.base() + path)).header("Content-Type", "application/json")
                .PUT(HttpRequest.BodyPublishers.ofString(body)));
    }

    @Test
    void rulesAreReadByAnyoneWeighedBeforeAChangeAndChangedByOps() throws Exception {
        JsonNode rules = ApiHarness.json(h.get(reader, "/v1/rules"));
        long version = rules.path("version").asLong();
        assertThat(rules.path("transitions").path("WAIT_PAY").toString()).contains("CANCELLED");
        ObjectNode noTimeout = rules.deepCopy();
        ArrayNode waitPay = noTimeout.with("transitions").putArray("WAIT_PAY");
        waitPay.add("PAID");
        String body = "{\"rules\": " + noTimeout + "}";

        assertThat(h.post(support, "/v1/orders", "{\"id\": \"w-1\"}").statusCode()).isEqualTo(201);
        JsonNode impact = ApiHarness.json(h.post(reader, "/v1/rules/what-if", body));
        assertThat(impact.path("timeoutCancelKept").asBoolean()).as(impact.toString()).isFalse();
        assertThat(impact.path("harmful").asBoolean()).isTrue();
        assertThat(impact.path("waitPayLive").asLong()).isEqualTo(1);
        assertThat(impact.path("inForceVersion").asLong()).isEqualTo(version);

        HttpResponse<String> refused = put(ops, "/v1/rules", body);
        assertError(refused, 400, "usage", "WAIT_PAY -> CANCELLED is missing");
        assertThat(ApiHarness.json(refused).path("faults")).isNotEmpty();

        ObjectNode slower = rules.deepCopy();
        slower.with("stuck").put("WAIT_PAY", "45m");
        String change = "{\"rules\": " + slower + "}";
        assertError(put(support, "/v1/rules", change), 403, "permission", "needs role ops");
        assertError(put(ops, "/v1/rules", "{\"rules\": {\"transitions\": {\"WAIT_PAY\": [\"NOWHERE\"]}}}"), 400, "usage",
                "the rules document is not valid");
        assertError(put(ops, "/v1/rules", "{\"rules\": [1]}"), 400, "usage", "rules must be a JSON object");
        assertThat(ApiHarness.json(h.get(reader, "/v1/rules")).path("version").asLong()).as("nothing changed").isEqualTo(version);

        HttpResponse<String> changed = put(ops, "/v1/rules", change);
        assertThat(changed.statusCode()).as(changed.body()).isEqualTo(200);
        assertThat(ApiHarness.json(changed).path("version").asLong()).isEqualTo(version + 1);
        JsonNode now = ApiHarness.json(h.get(reader, "/v1/rules"));
        assertThat(now.path("version").asLong()).isEqualTo(version + 1);
        assertThat(now.path("stuck").path("WAIT_PAY").asText()).as(now.toString()).contains("45");
    }

    @Test
    void deadLettersAreListedAndClosedByOpsWithAReasonToDiscard() throws Exception {
        assertThat(h.post(support, "/v1/orders", "{\"id\": \"dl-1\"}").statusCode()).isEqualTo(201);
        assertThat(h.post(support, "/v1/orders", "{\"id\": \"dl-2\"}").statusCode()).isEqualTo(201);
        assertThat(h.engine.services().follower().awaitCaughtUp(Duration.ofSeconds(20))).isTrue();
        try (RawRedis raw = new RawRedis()) {
            raw.cmd().hset(RedisKeys.order("dl-1"), "status", "7");
            raw.cmd().hset(RedisKeys.order("dl-2"), "status", "7");
        }
        assertThat(h.post(support, "/v1/orders/dl-1/transitions", "{\"to\": \"PAID\"}").statusCode()).isEqualTo(422);
        assertThat(h.post(support, "/v1/orders/dl-2/transitions", "{\"to\": \"PAID\"}").statusCode()).isEqualTo(422);
        JsonNode[] list = new JsonNode[1];
        await().atMost(Duration.ofSeconds(10)).untilAsserted(() -> {
            list[0] = ApiHarness.json(h.get(reader, "/v1/dead-letters"));
            assertThat(list[0].path("open").asLong()).as(list[0].toString()).isEqualTo(2);
        });
        long first = list[0].path("letters").get(0).path("id").asLong();
        long second = list[0].path("letters").get(1).path("id").asLong();
        assertThat(list[0].path("letters").get(0).path("state").asText()).isEqualTo("OPEN");

        assertError(h.post(support, "/v1/dead-letters/" + first + "/retry", "{}"), 403, "permission", "needs role ops");
        assertError(h.post(ops, "/v1/dead-letters/" + second + "/discard", "{}"), 400, "usage", "needs a \"reason\"");
        assertError(h.post(ops, "/v1/dead-letters/x/retry", "{}"), 400, "usage", "dead letter id must be a whole number");
        assertThat(ApiHarness.json(h.get(reader, "/v1/dead-letters")).path("open").asLong()).as("nothing closed").isEqualTo(2);

        JsonNode retried = ApiHarness.json(h.post(ops, "/v1/dead-letters/" + first + "/retry", "{}"));
        assertThat(retried.path("state").asText()).as(retried.toString()).isEqualTo("RETRIED");
        assertThat(retried.path("resolvedBy").asText()).isEqualTo("api:ops-desk");
        JsonNode discarded = ApiHarness.json(h.post(ops, "/v1/dead-letters/" + second + "/discard", "{\"reason\": \"test order\"}"));
        assertThat(discarded.path("state").asText()).as(discarded.toString()).isEqualTo("DISCARDED");
        assertThat(ApiHarness.json(h.get(reader, "/v1/dead-letters")).path("open").asLong()).isZero();
        String restored = list[0].path("letters").get(0).path("orderId").asText();
        assertThat(ApiHarness.json(h.get(reader, "/v1/orders/" + restored)).path("status").asText()).isEqualTo("WAIT_PAY");
    }

    @Test
    void healthSaysWhatTheStatusBarSays() throws Exception {
        JsonNode health = ApiHarness.json(h.get(reader, "/v1/health"));
        assertThat(health.path("redisUp").asBoolean()).as(health.toString()).isTrue();
        assertThat(health.path("mysqlUp").asBoolean()).isTrue();
        assertThat(health.path("rulesVersion").asLong()).isPositive();
        assertThat(health.path("sync").has("pending")).isTrue();
        assertThat(health.path("deadLetters").asLong()).isZero();
        assertThat(health.path("masters")).isNotEmpty();
    }
}
