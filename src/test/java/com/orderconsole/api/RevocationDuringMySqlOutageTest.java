package com.orderconsole.api;

import com.orderconsole.Slow;
import com.orderconsole.StallingProxy;
import com.orderconsole.TestServers;
import com.orderconsole.app.Engine;
import com.orderconsole.domain.Role;
import com.orderconsole.embedded.EmbeddedMariaDb;
import com.orderconsole.service.client.ApiClients;
import org.junit.jupiter.api.Test;

import java.net.http.HttpResponse;
import java.time.Duration;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * A revocation holds on a serve that cannot read MySQL: the serve reads MySQL through a proxy that stops forwarding
 * (a hung MySQL), and an admin elsewhere revokes the client on MySQL directly, as when MySQL goes away right after the
 * revoke returns and before the serve read its list again. The token is refused within the documented bound, and the
 * revoke says every serve learns it.
 */
@Slow
class RevocationDuringMySqlOutageTest {

    @Test
    void aRevocationReachesAServeThatCannotReadMySql() throws Exception {
        TestServers.reset();
        EmbeddedMariaDb mariaDb = TestServers.mariaDb();
        try (StallingProxy proxy = new StallingProxy(mariaDb.port())) {
            String jdbc = mariaDb.jdbcUrl().replace(":" + mariaDb.port() + "/", ":" + proxy.port() + "/");
            try (ApiHarness serve = new ApiHarness(TestServers.config().withServers(TestServers.redis().uri(), jdbc, "root", ""),
                    Duration.ofSeconds(2))) {
                String token = serve.client("payments", Role.SUPPORT);
                assertThat(serve.post(token, "/v1/orders", "{\"id\": \"rv-1\"}").statusCode()).isEqualTo(201);

                proxy.stall(true); // this serve no longer reads MySQL; its copy of the clients says "payments" is in force
                long revokedAt;
                try (Engine admin = Engine.start(TestServers.config())) {
                    ApiClients.Revoked r = admin.services().apiClients().revoke(admin.operator(), "payments");
                    revokedAt = System.nanoTime();
                    assertThat(r.wasInForce()).isTrue();
                    assertThat(r.unpublished()).as("Redis took it: every serve learns it").isNull();
                }
                // Polled with a repeat of the status the order is in: harmless while the token is still in force.
                await().atMost(ApiClients.REVOCATION_BOUND).pollInterval(Duration.ofMillis(100)).untilAsserted(() -> {
                    HttpResponse<String> r = serve.post(token, "/v1/orders/rv-1/transitions", "{\"to\": \"WAIT_PAY\"}");
                    assertThat(r.statusCode()).as(r.body()).isEqualTo(401);
                });
                System.out.println("[measured] revocation refused by a serve that cannot read MySQL after "
                        + (System.nanoTime() - revokedAt) / 1_000_000 + " ms");
                // And it stays refused for the whole outage (the serve's MySQL copy still says otherwise).
                Thread.sleep(2_500);
                HttpResponse<String> later = serve.post(token, "/v1/orders/rv-1/transitions", "{\"to\": \"PAID\"}");
                assertThat(later.statusCode()).as(later.body()).isEqualTo(401);
                proxy.stall(false);
                try (com.orderconsole.RawRedis redis = new com.orderconsole.RawRedis()) {
                    assertThat(redis.cmd().hget(com.orderconsole.redis.RedisKeys.order("rv-1"), "status")).isEqualTo("1");
                }
            }
        }
    }

    /**
     * Neither server answering the serve for longer than the bound: the copy is not trusted, and the answer is 503 in words
     * (not 401, the token may well be in force; not 200, it may have been revoked meanwhile).
     */
    @Test
    void aCopyNoServerConfirmedWithinTheBoundIsNotTrusted() throws Exception {
        TestServers.reset();
        EmbeddedMariaDb mariaDb = TestServers.mariaDb();
        try (StallingProxy mysql = new StallingProxy(mariaDb.port());
             StallingProxy redisProxy = new StallingProxy(TestServers.redis().port())) {
            String jdbc = mariaDb.jdbcUrl().replace(":" + mariaDb.port() + "/", ":" + mysql.port() + "/");
            String redisUri = "redis://127.0.0.1:" + redisProxy.port();
            try (ApiHarness serve = new ApiHarness(TestServers.config().withServers(redisUri, jdbc, "root", ""),
                    Duration.ofSeconds(2))) {
                String token = serve.client("payments", Role.SUPPORT);
                mysql.stall(true);
                redisProxy.stall(true);
                await().atMost(Duration.ofSeconds(15)).pollInterval(Duration.ofMillis(500)).untilAsserted(() -> {
                    HttpResponse<String> r = serve.get(token, "/v1/orders/none");
                    assertThat(r.statusCode()).as(r.body()).isEqualTo(503);
                    assertThat(ApiHarness.json(r).path("error").path("message").asText())
                            .contains("API client list could not be checked").contains("neither MySQL nor Redis");
                });
                mysql.stall(false);
                redisProxy.stall(false);
                await().atMost(Duration.ofSeconds(15)).pollInterval(Duration.ofMillis(500)).untilAsserted(() ->
                        assertThat(serve.get(token, "/v1/orders/none").statusCode()).isEqualTo(404));
            }
        }
    }
}
