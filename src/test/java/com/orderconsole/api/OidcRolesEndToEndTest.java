package com.orderconsole.api;

import com.fasterxml.jackson.databind.JsonNode;
import com.orderconsole.OidcStub;
import com.orderconsole.RawRedis;
import com.orderconsole.RawSql;
import com.orderconsole.redis.RedisKeys;
import com.orderconsole.service.identity.OidcVerifier;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import java.net.URLEncoder;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * People signed in with the identity provider, end to end through serve's API: a support person's access token cannot
 * override a transition, cannot repair a reconciliation's findings and cannot pause the cancel sweeper (403 in words,
 * nothing stored), while an ops person's token repairs and pauses and an admin's overrides; the pause's audit rows in
 * MySQL name the person who paused, as serve verified them.
 */
class OidcRolesEndToEndTest {
    private static final String MAP = "console-support=support,console-ops=ops,console-admin=admin";
    private static final String SAM = "sso:sam via " + OidcStub.CLIENT;
    private static final String OLIVIA = "sso:olivia via " + OidcStub.CLIENT;
    private static final String ADA = "sso:ada via " + OidcStub.CLIENT;
    private OidcStub idp;
    private ApiHarness h;
    private String sam;
    private String olivia;
    private String ada;

    @BeforeEach
    void start() throws Exception {
        idp = OidcStub.start();
        h = ApiHarness.freshWithOidc(new OidcVerifier(idp.settings(MAP)));
        sam = idp.token().username("sam").groups("console-support").mint();
        olivia = idp.token().username("olivia").groups("console-ops").mint();
        ada = idp.token().username("ada").groups("console-admin").mint();
        for (String id : new String[]{"e-1", "e-2"}) {
            HttpResponse<String> created = h.post(olivia, "/v1/orders", "{\"id\": \"" + id + "\"}");
            assertThat(created.statusCode()).as(created.body()).isEqualTo(201);
        }
        assertThat(h.engine.services().follower().awaitCaughtUp(Duration.ofSeconds(20))).isTrue();
        // A disagreement a reconciliation finds: e-2's Redis record gone behind the engine's back (ops repairs it).
        try (RawRedis raw = new RawRedis()) {
            raw.cmd().del(RedisKeys.order("e-2"));
        }
    }

    @AfterEach
    void stop() {
        h.close();
        idp.close();
    }

    private static void assertRefused(HttpResponse<String> r, String words) throws Exception {
        assertThat(r.statusCode()).as(r.body()).isEqualTo(403);
        JsonNode doc = ApiHarness.json(r);
        assertThat(doc.path("error").path("kind").asText()).as(r.body()).isEqualTo("permission");
        assertThat(doc.path("error").path("message").asText()).as(r.body()).contains(words);
    }

    private boolean paused() throws Exception {
        return ApiHarness.json(h.get(sam, "/v1/cancel-queue")).path("sweeper").path("paused").asBoolean();
    }

    private static long rows(String table, String actor, String condition) {
        return RawSql.count("SELECT COUNT(*) FROM " + table + " WHERE actor = '" + actor + "'" + condition);
    }

    private String finishedReconciliation() throws Exception {
        HttpResponse<String> started = h.post(olivia, "/v1/reconciliations", "{}");
        assertThat(started.statusCode()).as(started.body()).isEqualTo(202);
        String id = ApiHarness.json(started).path("id").asText();
        await().atMost(Duration.ofSeconds(30)).pollInterval(Duration.ofMillis(200)).untilAsserted(() ->
                assertThat(ApiHarness.json(h.get(sam, "/v1/reconciliations/" + id)).path("state").asText()).isEqualTo("done"));
        return id;
    }

    @Test
    void aSupportPersonCannotOverrideRepairOrPauseAndOpsAndAdminPeopleCan() throws Exception {
        String forced = "{\"to\": \"FINISHED\", \"override\": true, \"expectedVersion\": 1, \"reason\": \"goods handed over at the desk\"}";
        assertRefused(h.post(sam, "/v1/orders/e-1/transitions", forced), "may not override the transition rules: needs role admin");
        assertRefused(h.post(olivia, "/v1/orders/e-1/transitions", forced), "needs role admin");

        String run = finishedReconciliation();
        String repair = "{\"category\": \"MISSING_IN_REDIS\", \"reason\": \"record lost in the restore\"}";
        assertRefused(h.post(sam, "/v1/reconciliations/" + run + "/repairs", repair), "needs role ops");

        assertRefused(h.post(sam, "/v1/cancel-queue/pause", "{\"reason\": \"incident 12\"}"), "may not pause the cancel sweeper");

        // Nothing stored for any refusal: the order, Redis, the sweeper, and no row in the support person's name.
        JsonNode e1 = ApiHarness.json(h.get(sam, "/v1/orders/e-1"));
        assertThat(e1.path("status").asText()).isEqualTo("WAIT_PAY");
        assertThat(e1.path("version").asLong()).isEqualTo(1);
        assertThat(ApiHarness.json(h.get(sam, "/v1/orders/e-2")).path("redis").isNull()).as("nothing repaired").isTrue();
        assertThat(paused()).as("the sweeper runs").isFalse();
        assertThat(h.engine.services().follower().awaitCaughtUp(Duration.ofSeconds(20))).isTrue();
        assertThat(rows("audit_log", SAM, "")).as("no audit row in the support person's name").isZero();
        assertThat(rows("order_history", SAM, "")).as("no history row in the support person's name").isZero();
        assertThat(RawSql.count("SELECT COUNT(*) FROM audit_log WHERE action IN ('OVERRIDE', 'SWEEPER_PAUSE', 'SWEEPER_RESUME')"))
                .as("no override or pause by anyone yet").isZero();

        // The ops person pauses and resumes the sweeper, and repairs; the admin person overrides.
        HttpResponse<String> pause = h.post(olivia, "/v1/cancel-queue/pause", "{\"reason\": \"incident 12\"}");
        assertThat(pause.statusCode()).as(pause.body()).isEqualTo(200);
        assertThat(paused()).isTrue();
        HttpResponse<String> resume = h.post(olivia, "/v1/cancel-queue/resume", "{\"reason\": \"incident 12 closed\"}");
        assertThat(resume.statusCode()).as(resume.body()).isEqualTo(200);
        assertThat(paused()).isFalse();

        HttpResponse<String> repaired = h.post(olivia, "/v1/reconciliations/" + run + "/repairs", repair);
        assertThat(repaired.statusCode()).as(repaired.body()).isEqualTo(200);
        assertThat(ApiHarness.json(repaired).path("repaired").asLong()).isEqualTo(1);
        assertThat(ApiHarness.json(h.get(sam, "/v1/orders/e-2")).path("redis").path("status").asText()).isEqualTo("WAIT_PAY");

        HttpResponse<String> overridden = h.post(ada, "/v1/orders/e-1/transitions", forced);
        assertThat(overridden.statusCode()).as(overridden.body()).isEqualTo(200);
        assertThat(ApiHarness.json(overridden).path("to").asText()).isEqualTo("FINISHED");
        assertThat(h.engine.services().follower().awaitCaughtUp(Duration.ofSeconds(20))).isTrue();

        // MySQL's audit rows name the person who paused, with the reason given; the API's audit query reads them back.
        assertThat(rows("audit_log", OLIVIA, " AND action = 'SWEEPER_PAUSE' AND reason = 'incident 12' AND source = 'api'"))
                .isEqualTo(1);
        assertThat(rows("audit_log", OLIVIA, " AND action = 'SWEEPER_RESUME'")).isEqualTo(1);
        JsonNode audit = ApiHarness.json(h.get(sam, "/v1/audit?actor=" + URLEncoder.encode(OLIVIA, StandardCharsets.UTF_8)));
        assertThat(audit.path("events").findValuesAsText("action")).contains("SWEEPER_PAUSE", "SWEEPER_RESUME");
        assertThat(rows("audit_log", ADA, " AND action = 'OVERRIDE' AND order_id = 'e-1'")).isEqualTo(1);
        assertThat(rows("order_history", ADA, " AND order_id = 'e-1' AND to_status = 5 AND result_code = 1")).isEqualTo(1);
        assertThat(rows("audit_log", SAM, "")).as("still nothing in the support person's name").isZero();
    }
}
