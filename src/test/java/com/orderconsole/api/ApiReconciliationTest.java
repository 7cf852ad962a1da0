package com.orderconsole.api;

import com.fasterxml.jackson.databind.JsonNode;
import com.orderconsole.RawRedis;
import com.orderconsole.domain.Role;
import com.orderconsole.redis.RedisKeys;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * Reconciliation over the API against real servers, with disagreements planted behind the engine's back: a run and its
 * progress, findings by category, their CSV, a dry run, and repairs under the service's role rules.
 */
class ApiReconciliationTest {
    private ApiHarness h;
    private String reader;
    private String support;
    private String ops;

    @BeforeEach
    void start() throws Exception {
        h = ApiHarness.fresh();
        reader = ApiHarness.person("rita", Role.READ_ONLY);
        support = h.client("shop", Role.SUPPORT);
        ops = h.client("ops-desk", Role.OPS);
        for (String id : new String[]{"r-1", "r-2", "r-3"}) {
            assertThat(h.post(support, "/v1/orders", "{\"id\": \"" + id + "\"}").statusCode()).isEqualTo(201);
        }
        assertThat(h.engine.services().follower().awaitCaughtUp(Duration.ofSeconds(20))).isTrue();
        try (RawRedis raw = new RawRedis()) {
            raw.cmd().del(RedisKeys.order("r-1"));
            raw.cmd().zrem(RedisKeys.cancelQueue(RedisKeys.bucket("r-2")), "r-2");
            raw.cmd().hset(RedisKeys.order("x-only"), Map.of("status", "2", "version", "2", "updateTime", "5", "createTime", "1"));
        }
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

    private JsonNode finishedRun() throws Exception {
        HttpResponse<String> started = h.post(reader, "/v1/reconciliations", "{}");
        assertThat(started.statusCode()).as(started.body()).isEqualTo(202);
        String id = ApiHarness.json(started).path("id").asText();
        assertThat(started.headers().firstValue("Location")).hasValue("/v1/reconciliations/" + id);
        JsonNode[] run = new JsonNode[1];
        await().atMost(Duration.ofSeconds(30)).pollInterval(Duration.ofMillis(200)).untilAsserted(() -> {
            run[0] = ApiHarness.json(h.get(reader, "/v1/reconciliations/" + id));
            assertThat(run[0].path("state").asText()).isEqualTo("done");
        });
        return run[0];
    }

    @Test
    void aRunFindsThePlantedDisagreementsAndOpsRepairsWhatTheirRoleAllows() throws Exception {
        JsonNode run = finishedRun();
        String id = run.path("id").asText();
        assertThat(run.path("startedBy").asText()).isEqualTo("rita");
        assertThat(run.path("counts").path("MISSING_IN_REDIS").asLong()).as(run.toString()).isEqualTo(1);
        assertThat(run.path("counts").path("WAIT_PAY_WITHOUT_QUEUE").asLong()).isEqualTo(1);
        assertThat(run.path("counts").path("MISSING_IN_MYSQL").asLong()).isEqualTo(1);

        JsonNode missing = ApiHarness.json(h.get(reader, "/v1/reconciliations/" + id + "/findings?category=MISSING_IN_REDIS"));
        assertThat(missing.path("findings")).hasSize(1);
        assertThat(missing.path("findings").get(0).path("orderId").asText()).isEqualTo("r-1");
        assertThat(missing.path("findings").get(0).path("redis").isNull()).isTrue();
        HttpResponse<String> csv = h.get(reader, "/v1/reconciliations/" + id + "/findings.csv");
        assertThat(csv.statusCode()).isEqualTo(200);
        assertThat(csv.headers().firstValue("Content-Type").orElse("")).startsWith("text/csv");
        assertThat(csv.body()).startsWith("category,order_id").contains("r-1").contains("r-2").contains("x-only");
        JsonNode plan = ApiHarness.json(h.get(reader, "/v1/reconciliations/" + id + "/repairs/MISSING_IN_REDIS"));
        assertThat(plan.path("count").asLong()).isEqualTo(1);
        assertThat(plan.path("steps").get(0).path("orderId").asText()).isEqualTo("r-1");
        assertThat(ApiHarness.json(h.get(reader, "/v1/orders/r-1")).path("redis").isNull()).as("a dry run changes nothing").isTrue();

        String repairMissing = "{\"category\": \"MISSING_IN_REDIS\"}";
        assertError(h.post(reader, "/v1/reconciliations/" + id + "/repairs", repairMissing), 403, "permission", "needs role ops");
        assertError(h.post(support, "/v1/reconciliations/" + id + "/repairs", repairMissing), 403, "permission", "needs role ops");
        assertError(h.post(ops, "/v1/reconciliations/" + id + "/repairs", "{\"category\": \"MISSING_IN_MYSQL\", \"reason\": \"x\"}"),
                403, "permission", "needs role admin");
        assertThat(ApiHarness.json(h.get(reader, "/v1/orders/r-1")).path("redis").isNull()).as("nothing repaired").isTrue();

        HttpResponse<String> repaired = h.post(ops, "/v1/reconciliations/" + id + "/repairs", repairMissing);
        assertThat(repaired.statusCode()).as(repaired.body()).isEqualTo(200);
        assertThat(ApiHarness.json(repaired).path("repaired").asLong()).isEqualTo(1);
        assertThat(ApiHarness.json(h.get(reader, "/v1/orders/r-1")).path("redis").path("status").asText()).isEqualTo("WAIT_PAY");

        assertError(h.post(ops, "/v1/reconciliations/" + id + "/repairs", "{\"category\": \"EVERYTHING\"}"), 400, "usage",
                "category 'EVERYTHING' is not one of");
        assertError(h.post(ops, "/v1/reconciliations/" + id + "/repairs", "{}"), 400, "usage", "category is missing");
        assertError(h.get(reader, "/v1/reconciliations/" + id + "/repairs/EVERYTHING"), 404, "not_found", "is not one of");
        assertError(h.get(reader, "/v1/reconciliations/nope/findings?category=SYNC_PENDING"), 404, "not_found",
                "no reconciliation nope");
        assertError(h.get(reader, "/v1/reconciliations/" + id + "/findings"), 400, "usage", "category is missing");
    }
}
