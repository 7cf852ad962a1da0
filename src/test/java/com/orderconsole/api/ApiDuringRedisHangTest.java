package com.orderconsole.api;

import com.orderconsole.Slow;
import com.orderconsole.StallingProxy;
import com.orderconsole.TestServers;
import com.orderconsole.domain.Role;
import org.junit.jupiter.api.Test;

import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The API while Redis hangs and MySQL answers (a proxy that stops forwarding, as a SIGSTOPped Redis): the fresh-user
 * tester's creations were answered "MySQL did not answer within 5.0 s" although MySQL was healthy; they had waited on a
 * pool busy with creations stuck on Redis. A 503 names the server that failed, as the latest health check found it, and
 * never blames one that answers.
 */
@Slow
class ApiDuringRedisHangTest {
    @Test
    void creationsWhileRedisHangsAre503NamingRedisNotMySql() throws Exception {
        TestServers.reset();
        try (StallingProxy proxy = new StallingProxy(TestServers.redis().port())) {
            String redis = "redis://127.0.0.1:" + proxy.port();
            try (ApiHarness h = new ApiHarness(TestServers.config().withServers(redis, TestServers.mariaDb().jdbcUrl(), "root", ""),
                    Duration.ofSeconds(2))) {
                String token = h.client("payments", Role.SUPPORT);
                assertThat(h.post(token, "/v1/orders", "{\"id\": \"r-0\"}").statusCode()).isEqualTo(201);

                proxy.stall(true);
                // More creations at once than the API's MySQL-bound pool has threads: most wait behind ones stuck on Redis.
                List<CompletableFuture<HttpResponse<String>>> sent = new ArrayList<>();
                for (int i = 1; i <= 24; i++) {
                    String body = "{\"id\": \"r-" + i + "\"}";
                    sent.add(CompletableFuture.supplyAsync(() -> {
                        try {
                            return h.post(token, "/v1/orders", body);
                        } catch (Exception e) {
                            throw new IllegalStateException(e);
                        }
                    }));
                }
                int unavailable = 0;
                for (CompletableFuture<HttpResponse<String>> f : sent) {
                    HttpResponse<String> r = f.get();
                    if (r.statusCode() == 503) {
                        unavailable++;
                        String words = ApiHarness.json(r).path("error").path("message").asText();
                        assertThat(words).as(r.body()).contains("Redis").doesNotContain("MySQL did not answer")
                                .doesNotContain("Exception", "Lettuce");
                    }
                }
                assertThat(unavailable).isPositive();
                proxy.stall(false);
            }
        }
    }
}
