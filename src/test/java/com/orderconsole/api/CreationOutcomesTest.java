package com.orderconsole.api;

import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.core.read.ListAppender;
import com.fasterxml.jackson.databind.JsonNode;
import com.orderconsole.RawSql;
import com.orderconsole.TestServers;
import com.orderconsole.app.Engine;
import com.orderconsole.domain.Role;
import org.junit.jupiter.api.Test;
import org.slf4j.LoggerFactory;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.Statement;
import java.time.Duration;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * What a creation answers when it cannot be done: a condition worth waiting out is 503 with Retry-After and says nothing
 * was stored; a 500 is a defect, its answer carries the id of serve's log line.
 */
class CreationOutcomesTest {
    @Test
    void aCreationMySqlRollsBackEachTimeIs503WithRetryAfterAndStoresNothing() throws Exception {
        TestServers.reset();
        String url = TestServers.mariaDb().jdbcUrl();
        RawSql.update("SET GLOBAL innodb_lock_wait_timeout = 1"); // the pool's connections, opened next, wait 1 s for a lock
        try (Engine engine = Engine.start(TestServers.config());
             ApiServer api = ApiServer.start(engine.services(), new ApiServer.Settings("127.0.0.1", 0, Duration.ofSeconds(30),
                     Duration.ofSeconds(5), Duration.ofSeconds(2), com.orderconsole.domain.Environment.LOCAL));
             Connection holder = DriverManager.getConnection(url, "root", "")) {
            String token = engine.services().apiClients().add(engine.operator(), "checkout", Role.SUPPORT).token();
            HttpClient http = HttpClient.newHttpClient();
            HttpRequest create = HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + api.port() + "/v1/orders"))
                    .header("Authorization", "Bearer " + token).header("Content-Type", "application/json")
                    .timeout(Duration.ofSeconds(40)).POST(HttpRequest.BodyPublishers.ofString("{\"id\": \"busy-1\"}")).build();
            // Another transaction locks the place of the id (as a bulk load's locking read does) and keeps it locked: every
            // try of the creation waits its second and is rolled back.
            holder.setAutoCommit(false);
            try (Statement st = holder.createStatement()) {
                st.executeQuery("SELECT order_id FROM orders WHERE order_id = 'busy-1' FOR UPDATE").close();
            }
            HttpResponse<String> r = http.send(create, HttpResponse.BodyHandlers.ofString());
            assertThat(r.statusCode()).as(r.body()).isEqualTo(503);
            assertThat(r.headers().firstValue("Retry-After")).hasValue("1");
            JsonNode e = ApiHarness.JSON.readTree(r.body());
            assertThat(e.path("error").path("kind").asText()).isEqualTo("unavailable");
            assertThat(e.path("error").path("message").asText()).contains("nothing of it was stored", "send the same request again")
                    .doesNotContain("may or may not");
            assertThat(RawSql.count("SELECT COUNT(*) FROM orders WHERE order_id = 'busy-1'")).isZero();
            assertThat(RawSql.count("SELECT COUNT(*) FROM order_history WHERE order_id = 'busy-1'")).isZero();
            holder.rollback();
            // Sent again once the lock is gone: created.
            r = http.send(create, HttpResponse.BodyHandlers.ofString());
            assertThat(r.statusCode()).as(r.body()).isEqualTo(201);
        } finally {
            RawSql.update("SET GLOBAL innodb_lock_wait_timeout = 50");
        }
    }

    @Test
    void aDefectIs500WithTheIdOfItsLogLine() {
        Logger logger = (Logger) LoggerFactory.getLogger(HttpMapping.class);
        ListAppender<ILoggingEvent> logged = new ListAppender<>();
        logged.start();
        logger.addAppender(logged);
        try {
            ApiProblem p = HttpMapping.problem(new IllegalStateException("a defect"));
            assertThat(p.status()).isEqualTo(500);
            String id = (String) p.extra().get("errorId");
            assertThat(id).isNotBlank();
            assertThat(p.getMessage()).contains("a defect", id);
            assertThat(logged.list).anySatisfy(l -> assertThat(l.getFormattedMessage()).contains(id, "500"));
            // A condition to wait out is not a defect: no id, no error line.
            int lines = logged.list.size();
            ApiProblem busy = HttpMapping.problem(new com.orderconsole.store.DatabaseBusyException("rolled back; nothing of it was stored", null));
            assertThat(busy.status()).isEqualTo(503);
            assertThat(busy.headers()).containsKey("Retry-After");
            assertThat(busy.extra()).doesNotContainKey("errorId");
            assertThat(logged.list).hasSize(lines);
        } finally {
            logger.detachAppender(logged);
        }
    }
}
