package com.orderconsole.api;

import com.orderconsole.RawRedis;
import com.orderconsole.Slow;
import com.orderconsole.TestServers;
import com.orderconsole.domain.Role;
import com.orderconsole.redis.RedisKeys;
import org.junit.jupiter.api.Test;

import java.net.http.HttpResponse;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.Statement;
import java.time.Duration;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A transition that waits on a MySQL lock (the follower's cursor row, held by another transaction, while the move
 * rebuilds a lost order from MySQL) answers 503 naming MySQL, never "Redis did not answer": Redis answers throughout.
 */
@Slow
class TransitionWaitingOnMySqlLockTest {
    @Test
    void aMoveHeldByAMySqlLockIsNotBlamedOnRedis() throws Exception {
        try (ApiHarness h = ApiHarness.fresh()) {
            String token = h.client("payments", Role.SUPPORT);
            assertThat(h.post(token, "/v1/orders", "{\"id\": \"lk-1\"}").statusCode()).isEqualTo(201);
            assertThat(h.engine.services().follower().awaitCaughtUp(Duration.ofSeconds(20))).isTrue();
            int bucket = RedisKeys.bucket("lk-1");
            try (Connection c = DriverManager.getConnection(TestServers.mariaDb().jdbcUrl(), "root", "");
                 Statement st = c.createStatement()) {
                c.setAutoCommit(false);
                st.executeQuery("SELECT last_id FROM sync_cursor WHERE bucket = " + bucket + " FOR UPDATE").close();
                try (RawRedis raw = new RawRedis()) {
                    raw.cmd().del(RedisKeys.order("lk-1")); // the move rebuilds it from MySQL, after the follower's batch
                }
                long t0 = System.nanoTime();
                HttpResponse<String> r = h.post(token, "/v1/orders/lk-1/transitions", "{\"to\": \"PAID\"}");
                long ms = (System.nanoTime() - t0) / 1_000_000;
                String words = ApiHarness.json(r).path("error").path("message").asText();
                System.out.println("[measured] move held by a MySQL lock: " + r.statusCode() + " after " + ms + " ms: " + words);
                assertThat(r.statusCode()).as(r.body()).isEqualTo(503);
                assertThat(words).contains("MySQL").doesNotContain("Redis did not answer");
                c.rollback();
            }
        }
    }
}
