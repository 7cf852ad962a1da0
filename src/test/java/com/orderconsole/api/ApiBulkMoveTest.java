package com.orderconsole.api;

import com.fasterxml.jackson.databind.JsonNode;
import com.orderconsole.domain.Environment;
import com.orderconsole.domain.Role;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import java.net.http.HttpResponse;
import java.time.Duration;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/** Bulk moves over the API against real servers: preview, run, progress, cancel, under the service's role rules. */
class ApiBulkMoveTest {
    private ApiHarness h;

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

    private String support() throws Exception {
        String support = h.client("shop", Role.SUPPORT);
        for (int i = 1; i <= 5; i++) {
            assertThat(h.post(support, "/v1/orders", "{\"id\": \"b-" + i + "\"}").statusCode()).isEqualTo(201);
        }
        assertThat(h.post(support, "/v1/orders", "{\"id\": \"c-1\"}").statusCode()).isEqualTo(201);
        assertThat(h.engine.services().follower().awaitCaughtUp(Duration.ofSeconds(20))).isTrue();
        return support;
    }

    @Test
    void aPreviewRunsAsABatchWithItsProgressAndOnlyTheRolesTheServiceAllows() throws Exception {
        h = ApiHarness.fresh();
        String support = support();
        String reader = ApiHarness.person("rita", Role.READ_ONLY);
        JsonNode preview = ApiHarness.json(h.post(reader, "/v1/bulk-moves/previews",
                "{\"status\": [\"WAIT_PAY\"], \"idPrefix\": \"b-\", \"to\": \"CANCELLED\"}"));
        assertThat(preview.path("matched").asInt()).as(preview.toString()).isEqualTo(5);
        assertThat(preview.path("wouldApply").asInt()).isEqualTo(5);
        String id = preview.path("id").asText();

        assertError(h.post(reader, "/v1/bulk-moves", "{\"previewId\": \"" + id + "\", \"reason\": \"x\"}"), 403, "permission",
                "needs role support");
        assertError(h.post(support, "/v1/bulk-moves", "{\"previewId\": \"" + id + "\"}"), 400, "usage", "needs a reason");
        assertError(h.post(support, "/v1/bulk-moves", "{\"previewId\": \"nope\", \"reason\": \"x\"}"), 404, "not_found",
                "no bulk preview nope");
        JsonNode forced = ApiHarness.json(h.post(support, "/v1/bulk-moves/previews",
                "{\"ids\": [\"c-1\"], \"to\": \"FINISHED\", \"override\": true}"));
        assertError(h.post(support, "/v1/bulk-moves", "{\"previewId\": \"" + forced.path("id").asText() + "\", \"reason\": \"x\"}"),
                403, "permission", "needs role admin");
        assertThat(ApiHarness.json(h.get(support, "/v1/orders?status=CANCELLED")).path("orders")).as("nothing moved").isEmpty();

        HttpResponse<String> started = h.post(support, "/v1/bulk-moves", "{\"previewId\": \"" + id + "\", \"reason\": \"fraud ring 4\"}");
        assertThat(started.statusCode()).as(started.body()).isEqualTo(202);
        String run = ApiHarness.json(started).path("id").asText();
        assertThat(started.headers().firstValue("Location")).hasValue("/v1/bulk-moves/" + run);
        assertError(h.post(reader, "/v1/bulk-moves/" + run + "/cancel", "{}"), 403, "permission", "needs role support");
        JsonNode[] done = new JsonNode[1];
        await().atMost(Duration.ofSeconds(20)).untilAsserted(() -> {
            done[0] = ApiHarness.json(h.get(reader, "/v1/bulk-moves/" + run));
            assertThat(done[0].path("state").asText()).isEqualTo("done");
        });
        assertThat(done[0].path("counts").path("applied").asInt()).as(done[0].toString()).isEqualTo(5);
        assertThat(done[0].path("batchId").asLong()).isPositive();
        assertThat(done[0].path("startedBy").asText()).isEqualTo("api:shop");
        assertThat(h.engine.services().follower().awaitCaughtUp(Duration.ofSeconds(20))).isTrue();
        JsonNode cancelled = ApiHarness.json(h.get(reader, "/v1/orders?status=CANCELLED"));
        assertThat(cancelled.path("orders")).hasSize(5);
        JsonNode story = ApiHarness.json(h.get(reader, "/v1/orders/b-3/story")).path("steps");
        assertThat(story.get(story.size() - 1).path("reason").asText()).contains("fraud ring 4");
        long batch = done[0].path("batchId").asLong();
        JsonNode batches = ApiHarness.json(h.get(reader, "/v1/bulk-batches"));
        assertThat(batches.path("batches").get(0).path("id").asLong()).isEqualTo(batch);
        JsonNode recorded = ApiHarness.json(h.get(reader, "/v1/bulk-batches/" + batch));
        assertThat(recorded.path("state").asText()).isEqualTo("DONE");
        assertThat(recorded.path("actor").asText()).isEqualTo("api:shop");
        assertThat(recorded.path("counts").path("applied").asInt()).isEqualTo(5);
        JsonNode items = ApiHarness.json(h.get(reader, "/v1/bulk-batches/" + batch + "/items?outcome=applied&limit=3"));
        assertThat(items.path("items")).hasSize(3);
        JsonNode rest = ApiHarness.json(h.get(reader, "/v1/bulk-batches/" + batch + "/items?outcome=applied&after="
                + items.path("next").asText()));
        assertThat(rest.path("items")).hasSize(2);
        HttpResponse<String> csv = h.get(reader, "/v1/bulk-batches/" + batch + "/items.csv");
        assertThat(csv.headers().firstValue("Content-Type").orElse("")).startsWith("text/csv");
        assertThat(csv.body().lines()).hasSize(6);
        assertError(h.post(support, "/v1/bulk-batches/" + batch + "/close", "{}"), 403, "permission", "needs role ops");
        assertError(h.get(reader, "/v1/bulk-batches/999999"), 404, "not_found", "999999");
        assertError(h.get(reader, "/v1/bulk-batches/999999/items.csv"), 404, "not_found", "999999");
        assertThat(h.post(support, "/v1/bulk-moves/" + run + "/cancel", "{}").statusCode()).as("a finished run stays as it ended")
                .isEqualTo(200);

        assertError(h.post(reader, "/v1/bulk-moves/previews", "{\"ids\": [\"b-1\"], \"status\": [\"PAID\"], \"to\": \"PAID\"}"),
                400, "usage", "not both and not neither");
        assertError(h.post(reader, "/v1/bulk-moves/previews", "{\"to\": \"PAID\"}"), 400, "usage", "not both and not neither");
        assertError(h.post(reader, "/v1/bulk-moves/previews", "{\"ids\": \"b-1\", \"to\": \"PAID\"}"), 400, "usage",
                "ids must be an array of strings");
        assertError(h.get(reader, "/v1/bulk-moves/nope"), 404, "not_found", "no bulk move nope");
    }

    @Test
    void onProductionARunNeedsItsCountConfirmed() throws Exception {
        h = ApiHarness.fresh(new Environment("prod-eu", Environment.Kind.PRODUCTION, "#c62828"));
        String support = support();
        String id = ApiHarness.json(h.post(support, "/v1/bulk-moves/previews",
                "{\"idPrefix\": \"b-\", \"to\": \"PAID\"}")).path("id").asText();
        assertError(h.post(support, "/v1/bulk-moves", "{\"previewId\": \"" + id + "\", \"reason\": \"paid by invoice\"}"), 428,
                "not_confirmed", "send \"confirmCount\": 5");
        assertError(h.post(support, "/v1/bulk-moves", "{\"previewId\": \"" + id + "\", \"reason\": \"paid by invoice\", "
                + "\"confirmCount\": 6}"), 428, "not_confirmed", "says 6");
        assertThat(ApiHarness.json(h.get(support, "/v1/orders?status=PAID")).path("orders")).as("nothing moved").isEmpty();
        HttpResponse<String> started = h.post(support, "/v1/bulk-moves", "{\"previewId\": \"" + id + "\", \"reason\": "
                + "\"paid by invoice\", \"confirmCount\": 5}");
        assertThat(started.statusCode()).as(started.body()).isEqualTo(202);
        String run = ApiHarness.json(started).path("id").asText();
        await().atMost(Duration.ofSeconds(20)).untilAsserted(() -> assertThat(ApiHarness.json(h.get(support,
                "/v1/bulk-moves/" + run)).path("counts").path("applied").asInt()).isEqualTo(5));
    }
}
