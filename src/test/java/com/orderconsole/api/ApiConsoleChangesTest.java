package com.orderconsole.api;

import com.fasterxml.jackson.databind.JsonNode;
import com.orderconsole.domain.Environment;
import com.orderconsole.domain.Role;
import com.orderconsole.service.audit.AuditEvent;
import com.orderconsole.service.audit.AuditFilter;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The console's changes over the API, against real servers, with today's role rules (the service layer's) and the
 * production guard enforced by serve: overrides, and the cancel queue's pause, resume, remove and cancel.
 */
class ApiConsoleChangesTest {
    private static final Environment PRODUCTION = new Environment("prod-eu", Environment.Kind.PRODUCTION, "#c62828");
    private ApiHarness h;

    @AfterEach
    void stop() {
        if (h != null) {
            h.close();
        }
    }

    private static void assertError(HttpResponse<String> r, int status, String kind, String words) throws Exception {
        assertThat(r.statusCode()).as(r.body()).isEqualTo(status);
        JsonNode doc = ApiHarness.json(r);
        assertThat(doc.path("error").path("kind").asText()).as(r.body()).isEqualTo(kind);
        assertThat(doc.path("error").path("message").asText()).as(r.body()).contains(words);
    }

    private void create(String token, String id) throws Exception {
        assertThat(h.post(token, "/v1/orders", "{\"id\": \"" + id + "\"}").statusCode()).isEqualTo(201);
    }

    private JsonNode order(String token, String id) throws Exception {
        return ApiHarness.json(h.get(token, "/v1/orders/" + id));
    }

    private List<String> auditActions() {
        return h.engine.services().audit().page(AuditFilter.all(), null, 1000).rows().stream()
                .filter(e -> e.kind() == AuditEvent.Kind.ACTION).map(e -> e.action() + "/" + e.actor()).toList();
    }

    @Test
    void anOverrideIsAnAdminsWithAReasonAndARefusalStoresNothing() throws Exception {
        h = ApiHarness.fresh();
        String support = h.client("shop", Role.SUPPORT);
        String ops = h.client("ops-desk", Role.OPS);
        String admin = ApiHarness.person("alice", Role.ADMIN);
        create(support, "ov-1");
        String forced = "{\"to\": \"FINISHED\", \"override\": true, \"expectedVersion\": 1, \"reason\": \"goods handed over at the desk\"}";
        assertError(h.post(support, "/v1/orders/ov-1/transitions", forced), 403, "permission", "needs role admin");
        assertError(h.post(ops, "/v1/orders/ov-1/transitions", forced), 403, "permission", "needs role admin");
        assertError(h.post(admin, "/v1/orders/ov-1/transitions", "{\"to\": \"FINISHED\", \"override\": true, \"expectedVersion\": 1}"), 400, "usage",
                "an override needs a reason");
        assertError(h.post(admin, "/v1/orders/ov-1/transitions", "{\"to\": \"WAIT_PAY\", \"override\": true, \"expectedVersion\": 1, \"reason\": \"x\"}"),
                400, "usage", "cannot move an order back to WAIT_PAY");
        assertThat(order(support, "ov-1").path("version").asLong()).as("nothing applied").isEqualTo(1);
        assertThat(auditActions()).as("no override recorded").noneMatch(a -> a.startsWith("OVERRIDE"));

        HttpResponse<String> done = h.post(admin, "/v1/orders/ov-1/transitions", forced);
        assertThat(done.statusCode()).as(done.body()).isEqualTo(200);
        assertThat(ApiHarness.json(done).path("to").asText()).isEqualTo("FINISHED");
        assertThat(h.engine.services().follower().awaitCaughtUp(Duration.ofSeconds(20))).isTrue();
        JsonNode story = ApiHarness.json(h.get(support, "/v1/orders/ov-1/story"));
        JsonNode last = story.path("steps").get(story.path("steps").size() - 1);
        assertThat(last.path("override").asBoolean()).isTrue();
        assertThat(last.path("actor").asText()).isEqualTo("alice");
        assertThat(last.path("reason").asText()).isEqualTo("goods handed over at the desk");
        assertThat(auditActions()).contains("OVERRIDE/alice");
    }

    @Test
    void theCancelQueueIsReadByAnyoneAndChangedByOpsOnly() throws Exception {
        h = ApiHarness.fresh();
        String support = h.client("shop", Role.SUPPORT);
        String ops = h.client("ops-desk", Role.OPS);
        for (String id : List.of("q-1", "q-2", "q-3")) {
            create(support, id);
        }
        JsonNode summary = ApiHarness.json(h.get(support, "/v1/cancel-queue"));
        assertThat(summary.path("depth").asLong()).isEqualTo(3);
        assertThat(summary.path("sweeper").path("paused").asBoolean()).isFalse();
        JsonNode first = ApiHarness.json(h.get(support, "/v1/cancel-queue/entries?limit=2"));
        assertThat(first.path("entries")).hasSize(2);
        JsonNode rest = ApiHarness.json(h.get(support, "/v1/cancel-queue/entries?limit=2&after="
                + java.net.URLEncoder.encode(first.path("next").asText(), java.nio.charset.StandardCharsets.UTF_8)));
        assertThat(rest.path("entries")).hasSize(1);
        assertThat(rest.path("entries").get(0).path("status").asText()).isEqualTo("WAIT_PAY");

        assertError(h.post(support, "/v1/cancel-queue/pause", "{\"reason\": \"incident 12\"}"), 403, "permission",
                "may not pause the cancel sweeper");
        assertError(h.post(support, "/v1/cancel-queue/entries/q-1/remove", "{}"), 403, "permission", "needs role ops");
        assertError(h.post(support, "/v1/cancel-queue/entries/q-1/cancel", "{}"), 403, "permission", "needs role ops");
        assertThat(ApiHarness.json(h.get(support, "/v1/cancel-queue")).path("sweeper").path("paused").asBoolean()).isFalse();
        assertThat(ApiHarness.json(h.get(support, "/v1/cancel-queue")).path("depth").asLong()).as("nothing removed").isEqualTo(3);

        HttpResponse<String> paused = h.post(ops, "/v1/cancel-queue/pause", "{\"reason\": \"incident 12\"}");
        assertThat(paused.statusCode()).as(paused.body()).isEqualTo(200);
        assertThat(ApiHarness.json(paused).path("paused").asBoolean()).isTrue();
        assertThat(ApiHarness.json(h.get(support, "/v1/cancel-queue")).path("sweeper").path("paused").asBoolean()).isTrue();
        HttpResponse<String> resumed = h.post(ops, "/v1/cancel-queue/resume", "{}");
        assertThat(ApiHarness.json(resumed).path("paused").asBoolean()).as(resumed.body()).isFalse();
        assertThat(auditActions()).contains("SWEEPER_PAUSE/api:ops-desk", "SWEEPER_RESUME/api:ops-desk");

        String before = ApiHarness.json(h.get(support, "/v1/orders/q-1")).path("paymentDeadline").asText();
        assertError(h.post(support, "/v1/cancel-queue/entries/q-1/extend", "{\"by\": \"1h\"}"), 403, "permission", "needs role ops");
        assertError(h.post(ops, "/v1/cancel-queue/entries/q-1/extend", "{\"by\": \"soon\"}"), 400, "usage", "is not a duration");
        JsonNode extended = ApiHarness.json(h.post(ops, "/v1/cancel-queue/entries/q-1/extend", "{\"by\": \"1h\", \"reason\": \"bank delay\"}"));
        assertThat(java.time.Duration.between(java.time.Instant.parse(before), java.time.Instant.parse(extended.path("deadline").asText())))
                .as(extended.toString()).isEqualTo(java.time.Duration.ofHours(1));
        assertThat(auditActions()).contains("QUEUE_EXTEND/api:ops-desk");

        HttpResponse<String> removed = h.post(ops, "/v1/cancel-queue/entries/q-1/remove", "{\"reason\": \"paid by invoice\"}");
        assertThat(removed.statusCode()).as(removed.body()).isEqualTo(200);
        assertError(h.post(ops, "/v1/cancel-queue/entries/q-1/remove", "{}"), 404, "not_found", "has no cancel-queue entry");
        HttpResponse<String> cancelled = h.post(ops, "/v1/cancel-queue/entries/q-2/cancel", "{\"reason\": \"customer asked\"}");
        assertThat(cancelled.statusCode()).as(cancelled.body()).isEqualTo(200);
        assertThat(ApiHarness.json(cancelled).path("to").asText()).isEqualTo("CANCELLED");
        assertThat(order(support, "q-2").path("status").asText()).isEqualTo("CANCELLED");
        assertThat(order(support, "q-1").path("status").asText()).as("removing the entry leaves the order").isEqualTo("WAIT_PAY");
        assertThat(h.post(support, "/v1/orders/q-3/transitions", "{\"to\": \"PAID\"}").statusCode()).isEqualTo(200);
        assertError(h.post(ops, "/v1/cancel-queue/entries/q-3/cancel", "{}"), 409, "rejected", "");
        assertError(h.post(ops, "/v1/cancel-queue/entries/q%0A3/cancel", "{}"), 400, "usage", "is invalid");
        assertError(h.post(ops, "/v1/cancel-queue/pause", "{\"reason\": 5}"), 400, "usage", "reason must be a string");
    }

    @Test
    void onProductionServeRefusesAGuardedChangeWithoutItsReasonAndConfirmedCount() throws Exception {
        h = ApiHarness.fresh(PRODUCTION);
        String support = h.client("shop", Role.SUPPORT);
        String ops = h.client("ops-desk", Role.OPS);
        String admin = ApiHarness.person("alice", Role.ADMIN);
        create(support, "p-1");
        create(support, "p-2");
        assertError(h.post(ops, "/v1/cancel-queue/pause", "{}"), 400, "usage", "[prod-eu] production: pausing every cancel "
                + "sweeper stops or removes work and needs a \"reason\"");
        assertError(h.post(ops, "/v1/cancel-queue/pause", "{\"reason\": \"incident 12\"}"), 428, "not_confirmed",
                "send \"confirmCount\": 1");
        HttpResponse<String> wrong = h.post(ops, "/v1/cancel-queue/pause", "{\"reason\": \"incident 12\", \"confirmCount\": 2}");
        assertError(wrong, 428, "not_confirmed", "\"confirmCount\" says 2");
        assertThat(ApiHarness.json(wrong).path("exit").asInt()).isEqualTo(5);
        assertError(h.post(ops, "/v1/cancel-queue/entries/p-1/remove", "{\"reason\": \"paid by invoice\"}"), 428, "not_confirmed",
                "confirmCount");
        assertError(h.post(admin, "/v1/orders/p-1/transitions", "{\"to\": \"FINISHED\", \"override\": true, \"expectedVersion\": 1, \"reason\": \"desk\"}"),
                428, "not_confirmed", "override order p-1 to FINISHED needs its count confirmed");
        JsonNode queue = ApiHarness.json(h.get(support, "/v1/cancel-queue"));
        assertThat(queue.path("sweeper").path("paused").asBoolean()).as("nothing was changed").isFalse();
        assertThat(queue.path("depth").asLong()).isEqualTo(2);
        assertThat(ApiHarness.json(h.get(support, "/v1/orders/p-1")).path("version").asLong()).isEqualTo(1);
        assertThat(auditActions()).as("no action but the clients' registration").allMatch(a -> a.startsWith("API_CLIENT_ADD/"));

        // A move along the rules is one order: not guarded.
        assertThat(h.post(support, "/v1/orders/p-2/transitions", "{\"to\": \"PAID\"}").statusCode()).isEqualTo(200);
        assertThat(h.post(ops, "/v1/cancel-queue/pause", "{\"reason\": \"incident 12\", \"confirmCount\": 1}").statusCode())
                .isEqualTo(200);
        HttpResponse<String> forced = h.post(admin, "/v1/orders/p-1/transitions",
                "{\"to\": \"FINISHED\", \"override\": true, \"expectedVersion\": 1, \"reason\": \"desk\", \"confirmCount\": 1}");
        assertThat(forced.statusCode()).as(forced.body()).isEqualTo(200);
        assertThat(auditActions()).contains("SWEEPER_PAUSE/api:ops-desk", "OVERRIDE/alice");
    }
}
