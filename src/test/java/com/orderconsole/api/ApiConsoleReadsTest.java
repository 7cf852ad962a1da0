package com.orderconsole.api;

import com.fasterxml.jackson.databind.JsonNode;
import com.orderconsole.domain.Role;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The console's read pages over the API, against real servers: the orders page (filters, keyset pages), an order's story,
 * the state graph's counts and the audit query. Reads are every role's, as at the console.
 */
class ApiConsoleReadsTest {
    private ApiHarness h;
    private String support;
    private String reader;

    @BeforeEach
    void start() throws Exception {
        h = ApiHarness.fresh();
        support = h.client("shop", Role.SUPPORT);
        reader = ApiHarness.person("rita", Role.READ_ONLY);
        for (int i = 1; i <= 7; i++) {
            assertThat(h.post(support, "/v1/orders", "{\"id\": \"L-" + i + "\"}").statusCode()).isEqualTo(201);
        }
        assertThat(h.post(support, "/v1/orders", "{\"id\": \"M-1\"}").statusCode()).isEqualTo(201);
        for (String id : List.of("L-2", "L-4", "L-6")) {
            assertThat(h.post(support, "/v1/orders/" + id + "/transitions", "{\"to\": \"PAID\", \"reason\": \"callback\"}")
                    .statusCode()).isEqualTo(200);
        }
        assertThat(h.engine.services().follower().awaitCaughtUp(Duration.ofSeconds(20))).isTrue();
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

    private List<String> ids(JsonNode page, String list, String field) {
        List<String> out = new ArrayList<>();
        page.path(list).forEach(o -> out.add(o.path(field).asText()));
        return out;
    }

    @Test
    void theOrdersPageFiltersAndWalksKeysetPagesWithoutGapsOrRepeats() throws Exception {
        JsonNode paid = ApiHarness.json(h.get(reader, "/v1/orders?status=PAID"));
        assertThat(ids(paid, "orders", "id")).containsExactly("L-2", "L-4", "L-6");
        assertThat(paid.path("orders").get(0).path("status").asText()).isEqualTo("PAID");
        assertThat(paid.path("orders").get(0).path("mysql").path("version").asLong()).isEqualTo(2);
        assertThat(paid.path("orders").get(0).path("disagrees").asBoolean()).isFalse();
        assertThat(paid.path("next").isNull()).isTrue();

        List<String> walked = new ArrayList<>();
        String after = null;
        int pages = 0;
        do {
            JsonNode page = ApiHarness.json(h.get(reader, "/v1/orders?idPrefix=L-&limit=3" + (after == null ? "" : "&after="
                    + java.net.URLEncoder.encode(after, java.nio.charset.StandardCharsets.UTF_8))));
            assertThat(page.path("orders").size()).isLessThanOrEqualTo(3);
            walked.addAll(ids(page, "orders", "id"));
            after = page.path("next").isNull() ? null : page.path("next").asText();
            pages++;
        } while (after != null && pages < 10);
        assertThat(walked).containsExactly("L-1", "L-2", "L-3", "L-4", "L-5", "L-6", "L-7");

        assertThat(ids(ApiHarness.json(h.get(reader, "/v1/orders?status=WAIT_PAY,1&idPrefix=M")), "orders", "id"))
                .containsExactly("M-1");
        assertThat(ids(ApiHarness.json(h.get(reader, "/v1/orders?status=PAID&sort=age&createdFrom=2000-01-01")), "orders", "id"))
                .containsExactlyInAnyOrder("L-2", "L-4", "L-6");
        assertThat(ApiHarness.json(h.get(reader, "/v1/orders?createdTo=2000-01-01")).path("orders")).isEmpty();
        assertThat(ApiHarness.json(h.get(reader, "/v1/orders?disagreeing=true")).path("orders")).isEmpty();

        assertError(h.get(reader, "/v1/orders?status=PAYED"), 400, "usage", "status");
        assertError(h.get(reader, "/v1/orders?limit=0"), 400, "usage", "limit must be a whole number from 1 to 1000");
        assertError(h.get(reader, "/v1/orders?after=nonsense"), 400, "usage", "not a cursor this API gave");
        assertError(h.get(reader, "/v1/orders?sort=price"), 400, "usage", "sort must be one of id, age");
        assertError(h.get(reader, "/v1/orders?createdFrom=yesterday"), 400, "usage", "createdFrom must be an instant");
        assertError(h.get(reader, "/v1/orders?stuck=yes"), 400, "usage", "stuck must be true or false");
        assertError(h.get(reader, "/v1/orders?state=PAID"), 400, "usage", "unknown query parameter state");
    }

    @Test
    void anOrdersStoryListsEveryStepWithWhoAndWhy() throws Exception {
        assertThat(h.post(support, "/v1/orders/L-2/transitions", "{\"to\": \"PAID\"}").statusCode()).isEqualTo(200); // a repeat
        assertThat(h.engine.services().follower().awaitCaughtUp(Duration.ofSeconds(20))).isTrue();
        JsonNode story = ApiHarness.json(h.get(reader, "/v1/orders/L-2/story"));
        assertThat(story.path("order").path("id").asText()).isEqualTo("L-2");
        assertThat(story.path("order").path("status").asText()).isEqualTo("PAID");
        JsonNode steps = story.path("steps");
        assertThat(steps).hasSize(3);
        assertThat(steps.get(0).path("to").asText()).isEqualTo("WAIT_PAY");
        assertThat(steps.get(1).path("statusBefore").asText()).isEqualTo("WAIT_PAY");
        assertThat(steps.get(1).path("reason").asText()).isEqualTo("callback");
        assertThat(steps.get(1).path("actor").asText()).isEqualTo("api:shop");
        assertThat(steps.get(2).path("result").asText()).isEqualTo("ALREADY_IN_STATUS");
        assertThat(story.path("syncPending").asBoolean()).isFalse();
        assertError(h.get(reader, "/v1/orders/nobody-9/story"), 404, "not_found", "nobody-9");
    }

    @Test
    void statsGiveTheStateGraphsCounts() throws Exception {
        JsonNode stats = ApiHarness.json(h.get(reader, "/v1/stats"));
        assertThat(stats.path("statuses").path("WAIT_PAY").path("orders").asLong()).isEqualTo(5);
        assertThat(stats.path("statuses").path("PAID").path("orders").asLong()).isEqualTo(3);
        assertThat(stats.path("statuses").path("PAID").path("code").asInt()).isEqualTo(2);
        JsonNode edge = null;
        for (JsonNode e : stats.path("edges")) {
            if (e.path("from").asText().equals("WAIT_PAY") && e.path("to").asText().equals("PAID")) {
                edge = e;
            }
        }
        assertThat(edge).as(stats.toString()).isNotNull();
        assertThat(edge.path("applied").asLong()).isEqualTo(3);
        assertThat(edge.path("appliedLastHour").asLong()).isEqualTo(3);
        assertThat(stats.path("results").path("APPLIED").path("count").asLong()).isEqualTo(3);
        long paidPerMinute = 0;
        for (JsonNode m : stats.path("minutes")) {
            paidPerMinute += m.path("results").path("APPLIED").asLong();
        }
        assertThat(paidPerMinute).as("the last hour's applied moves, creations included: " + stats.path("minutes")).isGreaterThanOrEqualTo(3);
    }

    @Test
    void statsAreCountedOnceASecondForEveryCallerAndSayWhen() throws Exception {
        JsonNode first = ApiHarness.json(h.get(reader, "/v1/stats"));
        JsonNode other = ApiHarness.json(h.get(ApiHarness.person("sam", Role.SUPPORT), "/v1/stats"));
        assertThat(first.path("countedAt").asText()).isNotEmpty();
        assertThat(other.path("countedAt").asText()).as("another person within the second gets the same count")
                .isEqualTo(first.path("countedAt").asText());
        assertThat(h.post(support, "/v1/orders", "{\"id\": \"N-1\"}").statusCode()).isEqualTo(201);
        Thread.sleep(StatsRoutes.SHARED.toMillis() + 100);
        JsonNode later = ApiHarness.json(h.get(reader, "/v1/stats"));
        assertThat(java.time.Instant.parse(later.path("countedAt").asText()))
                .isAfter(java.time.Instant.parse(first.path("countedAt").asText()));
        assertThat(later.path("statuses").path("WAIT_PAY").path("orders").asLong())
                .isEqualTo(first.path("statuses").path("WAIT_PAY").path("orders").asLong() + 1);
        JsonNode withMysql = ApiHarness.json(h.get(reader, "/v1/stats?mysqlCounts=true"));
        assertThat(withMysql.path("countedAt").asText()).as("mysqlCounts is counted afresh").isNotEqualTo(later.path("countedAt").asText());
    }

    @Test
    void theAuditQueryFiltersByActorKindAndOrderAndPages() throws Exception {
        String admin = ApiHarness.person("alice", Role.ADMIN);
        HttpResponse<String> forced = h.post(admin, "/v1/orders/L-1/transitions",
                "{\"to\": \"FINISHED\", \"override\": true, \"expectedVersion\": 1, \"reason\": \"ticket 7: goods handed over at the desk\"}");
        assertThat(forced.statusCode()).as(forced.body()).isEqualTo(200);
        assertThat(h.engine.services().follower().awaitCaughtUp(Duration.ofSeconds(20))).isTrue();

        JsonNode overrides = ApiHarness.json(h.get(reader, "/v1/audit?kind=override"));
        assertThat(overrides.path("events")).hasSize(1);
        assertThat(overrides.path("events").get(0).path("actor").asText()).isEqualTo("alice");
        assertThat(overrides.path("events").get(0).path("orderId").asText()).isEqualTo("L-1");
        assertThat(overrides.path("events").get(0).path("to").asText()).isEqualTo("FINISHED");
        JsonNode byShop = ApiHarness.json(h.get(reader, "/v1/audit?actor=api:shop&idPrefix=L-4"));
        assertThat(ids(byShop, "events", "orderId")).containsOnly("L-4").hasSize(2);

        List<String> seen = new ArrayList<>();
        String after = null;
        for (int page = 0; page < 20; page++) {
            JsonNode p = ApiHarness.json(h.get(reader, "/v1/audit?actor=api:shop&limit=4" + (after == null ? "" : "&after="
                    + java.net.URLEncoder.encode(after, java.nio.charset.StandardCharsets.UTF_8))));
            p.path("events").forEach(e -> seen.add(e.path("kind").asText() + "/" + e.path("id").asLong()));
            after = p.path("next").isNull() ? null : p.path("next").asText();
            if (after == null) {
                break;
            }
        }
        assertThat(seen).as("the client's 8 creations and 3 payments, none twice").hasSize(11).doesNotHaveDuplicates();

        HttpResponse<String> csv = h.get(reader, "/v1/audit/export?actor=api:shop");
        assertThat(csv.statusCode()).as(csv.body()).isEqualTo(200);
        assertThat(csv.headers().firstValue("Content-Type").orElse("")).startsWith("text/csv");
        List<String> lines = csv.body().lines().toList();
        assertThat(lines.get(0)).startsWith("at_utc,kind,actor,source,order_id");
        assertThat(lines).hasSize(12).allMatch(l -> l.startsWith("at_utc") || l.contains("api:shop"));
        JsonNode json = ApiHarness.json(h.get(reader, "/v1/audit/export?actor=api:shop&format=json"));
        assertThat(json.isArray()).isTrue();
        assertThat(json).hasSize(11);
        assertError(h.get(reader, "/v1/audit/export?format=xml"), 400, "usage", "format must be one of csv, json");

        assertError(h.get(reader, "/v1/audit?kind=sideways"), 400, "usage", "kind must be one of any, legal, override");
        assertError(h.get(reader, "/v1/audit?code=9"), 400, "usage", "code must be a result code");
        assertError(h.get(reader, "/v1/audit?from=2026-02-30"), 400, "usage", "from must be an instant");
        assertError(h.get(reader, "/v1/audit?after=garbage"), 400, "usage", "not a cursor this API gave");
    }
}
