package com.orderconsole.api;

import com.fasterxml.jackson.databind.JsonNode;
import com.orderconsole.TestServers;
import com.orderconsole.domain.Role;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import java.net.URI;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * {@code Idempotency-Key} on the POSTs: a repeat with the same key and request gets the first answer again, from MySQL,
 * on another serve after a restart too, and runs nothing; the same key with another body is 422 in words.
 */
class IdempotencyKeyTest {
    private ApiHarness h;

    @AfterEach
    void stop() {
        if (h != null) {
            h.close();
        }
    }

    private HttpResponse<String> post(String token, String path, String key, String body) throws Exception {
        HttpRequest.Builder b = HttpRequest.newBuilder(URI.create(h.base() + path)).header("Content-Type", "application/json")
                .POST(HttpRequest.BodyPublishers.ofString(body));
        if (key != null) {
            b.header("Idempotency-Key", key);
        }
        return h.send(token, b);
    }

    @Test
    void aRepeatWithTheSameKeyGetsTheFirstAnswerOnAnyServeAndAnotherBodyIs422() throws Exception {
        h = ApiHarness.fresh();
        String token = h.client("checkout", Role.SUPPORT);
        HttpResponse<String> first = post(token, "/v1/orders", "k-create-1", "{\"id\": \"ik-1\"}");
        assertThat(first.statusCode()).as(first.body()).isEqualTo(201);
        assertThat(first.headers().firstValue("Idempotent-Replayed")).isEmpty();

        HttpResponse<String> again = post(token, "/v1/orders", "k-create-1", "{\"id\": \"ik-1\"}");
        assertThat(again.statusCode()).isEqualTo(201); // the first answer, not 200 "it existed"
        assertThat(again.body()).isEqualTo(first.body());
        assertThat(again.headers().firstValue("Idempotent-Replayed")).hasValue("true");

        HttpResponse<String> other = post(token, "/v1/orders", "k-create-1", "{\"id\": \"ik-2\"}");
        assertThat(other.statusCode()).as(other.body()).isEqualTo(422);
        JsonNode e = ApiHarness.json(other);
        assertThat(e.path("error").path("kind").asText()).isEqualTo("key_reused");
        assertThat(e.path("error").path("message").asText()).contains("k-create-1", "another request", "nothing was done");
        assertThat(h.get(token, "/v1/orders/ik-2").statusCode()).as("nothing was created for it").isEqualTo(404);

        // A payment callback sent twice with its key: the second gets the first answer (applied), not "already PAID".
        HttpResponse<String> paid = post(token, "/v1/orders/ik-1/transitions", "k-pay-1", "{\"to\": \"PAID\"}");
        assertThat(paid.statusCode()).as(paid.body()).isEqualTo(200);
        HttpResponse<String> paidAgain = post(token, "/v1/orders/ik-1/transitions", "k-pay-1", "{\"to\": \"PAID\"}");
        assertThat(paidAgain.body()).isEqualTo(paid.body());
        assertThat(paidAgain.headers().firstValue("Idempotent-Replayed")).hasValue("true");
        HttpResponse<String> noKey = post(token, "/v1/orders/ik-1/transitions", null, "{\"to\": \"PAID\"}");
        assertThat(noKey.body()).as("without a key the move runs again").isNotEqualTo(paid.body());

        // A key is the client's: another client's same key is its own.
        String other2 = h.client("inventory", Role.SUPPORT);
        assertThat(post(other2, "/v1/orders", "k-create-1", "{\"id\": \"ik-3\"}").statusCode()).isEqualTo(201);

        // Keys not taken: in words, nothing done.
        HttpResponse<String> spaced = post(token, "/v1/orders", "has space", "{\"id\": \"ik-4\"}");
        assertThat(spaced.statusCode()).isEqualTo(400);
        assertThat(ApiHarness.json(spaced).path("error").path("message").asText()).contains("Idempotency-Key");

        // Another serve, after this one stopped: the kept answer is in MySQL.
        h.close();
        h = new ApiHarness(TestServers.config(), Duration.ofSeconds(2));
        HttpResponse<String> elsewhere = post(token, "/v1/orders", "k-create-1", "{\"id\": \"ik-1\"}");
        assertThat(elsewhere.statusCode()).isEqualTo(201);
        assertThat(elsewhere.body()).isEqualTo(first.body());
        assertThat(elsewhere.headers().firstValue("Idempotent-Replayed")).hasValue("true");
    }

    /**
     * Every POST takes the key, not only the order routes: an ops tool that pauses the cancel sweeper and, losing the
     * answer, sends the pause again with its key gets the first answer and records one pause in the audit, not two.
     */
    @Test
    void aConsoleOperationSentTwiceWithOneKeyRunsOnceAndIsAuditedOnce() throws Exception {
        h = ApiHarness.fresh();
        String ops = h.client("ops-desk", Role.OPS);
        String body = "{\"reason\": \"incident 12\"}";
        HttpResponse<String> first = post(ops, "/v1/cancel-queue/pause", "k-pause-1", body);
        assertThat(first.statusCode()).as(first.body()).isEqualTo(200);
        HttpResponse<String> again = post(ops, "/v1/cancel-queue/pause", "k-pause-1", body);
        assertThat(again.statusCode()).as(again.body()).isEqualTo(200);
        assertThat(again.body()).isEqualTo(first.body());
        assertThat(again.headers().firstValue("Idempotent-Replayed")).hasValue("true");
        assertThat(pauses()).as("the repeat ran nothing: one pause audited").isEqualTo(1);

        HttpResponse<String> other = post(ops, "/v1/cancel-queue/pause", "k-pause-1", "{\"reason\": \"incident 13\"}");
        assertThat(other.statusCode()).as(other.body()).isEqualTo(422);
        assertThat(ApiHarness.json(other).path("error").path("kind").asText()).isEqualTo("key_reused");
        assertThat(pauses()).as("another request with the key ran nothing").isEqualTo(1);

        assertThat(post(ops, "/v1/cancel-queue/pause", null, body).statusCode()).isEqualTo(200);
        assertThat(pauses()).as("without a key the pause runs again").isEqualTo(2);
    }

    /** A key is kept per caller as the history names it ({@code api:<name>}): the longest client name takes keys too. */
    @Test
    void theLongestClientNameTakesAKey() throws Exception {
        h = ApiHarness.fresh();
        String token = h.client("c" + "x".repeat(47), Role.SUPPORT); // 48 characters, the longest a client's name is
        HttpResponse<String> first = post(token, "/v1/orders", "k-long-1", "{\"id\": \"ik-long\"}");
        assertThat(first.statusCode()).as(first.body()).isEqualTo(201);
        HttpResponse<String> again = post(token, "/v1/orders", "k-long-1", "{\"id\": \"ik-long\"}");
        assertThat(again.headers().firstValue("Idempotent-Replayed")).as(again.body()).hasValue("true");
    }

    private long pauses() {
        return h.engine.services().audit().page(com.orderconsole.service.audit.AuditFilter.all(), null, 1000).rows().stream()
                .filter(e -> e.kind() == com.orderconsole.service.audit.AuditEvent.Kind.ACTION
                        && e.action().equals("SWEEPER_PAUSE")).count();
    }
}
