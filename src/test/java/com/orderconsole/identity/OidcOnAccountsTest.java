package com.orderconsole.identity;

import com.orderconsole.OidcStub;
import com.orderconsole.Slow;
import com.orderconsole.api.ApiServer;
import com.orderconsole.app.Engine;
import com.orderconsole.domain.Operator;
import com.orderconsole.domain.Role;
import com.orderconsole.service.audit.AuditEvent;
import com.orderconsole.service.audit.AuditFilter;
import com.orderconsole.service.identity.OidcVerifier;
import org.junit.jupiter.api.Test;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * People signed in with the identity provider, on a server that checks accounts: serve (the follower's account) records
 * each person it verified (V49), writes their creations and audit rows in their name through procedures no person's
 * account may call, and the follower applies their moves as a known actor's; an outbox entry naming a person serve never
 * recorded is set aside; the audit view does not flag the person's rows.
 */
@Slow
class OidcOnAccountsTest {
    private static final String MAP = "console-support=support,console-ops=ops,console-admin=admin";
    private static final String OLIVIA = "sso:olivia via " + OidcStub.CLIENT;
    private final HttpClient http = HttpClient.newHttpClient();

    private HttpResponse<String> post(int port, String token, String path, String body) throws Exception {
        return http.send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + path)).header("Authorization", "Bearer " + token)
                .header("Content-Type", "application/json").POST(HttpRequest.BodyPublishers.ofString(body)).build(),
                HttpResponse.BodyHandlers.ofString());
    }

    @Test
    void servesAccountWritesThePersonsRowsInTheirNameAndTheFollowerAcceptsThem() throws Exception {
        AccessControlledDb.reset();
        try (Engine ada = Engine.start(AccessControlledDb.config("ada"))) {
            assertThat(ada.operator().role()).isEqualTo(Role.ADMIN); // seeds the rules
        }
        try (OidcStub idp = OidcStub.start();
             Engine fred = Engine.start(AccessControlledDb.config(AccessControlledDb.FOLLOWER).withBackgroundJobs(null, Duration.ofMillis(50)));
             ApiServer api = ApiServer.start(fred.services(), ApiServer.Settings.of("127.0.0.1", 0), new OidcVerifier(idp.settings(MAP)))) {
            String olivia = idp.token().username("olivia").groups("console-ops").mint();
            HttpResponse<String> created = post(api.port(), olivia, "/v1/orders", "{\"id\": \"p-1\", \"customerId\": \"c-1\"}");
            assertThat(created.statusCode()).as(created.body()).isEqualTo(201);
            HttpResponse<String> paid = post(api.port(), olivia, "/v1/orders/p-1/transitions", "{\"to\": \"PAID\"}");
            assertThat(paid.statusCode()).as(paid.body()).isEqualTo(200);
            assertThat(fred.services().follower().awaitCaughtUp(Duration.ofSeconds(20))).isTrue();
            assertThat(fred.services().deadLetters().open(10)).isEmpty();

            // An admin's override through serve: its OVERRIDE record names the person, so the follower applies the move.
            assertThat(post(api.port(), olivia, "/v1/orders", "{\"id\": \"p-2\"}").statusCode()).isEqualTo(201);
            String ada = idp.token().username("ada").groups("console-admin").mint();
            HttpResponse<String> overridden = post(api.port(), ada, "/v1/orders/p-2/transitions", "{\"to\": \"FINISHED\", "
                    + "\"override\": true, \"reason\": \"customer called\", \"expectedVersion\": 1}");
            assertThat(overridden.statusCode()).as(overridden.body()).isEqualTo(200);
            assertThat(fred.services().follower().awaitCaughtUp(Duration.ofSeconds(20))).isTrue();
            assertThat(fred.services().deadLetters().open(10)).isEmpty();

            // An ops action of the person's: its audit row names them, written by serve's account.
            Operator person = new OidcVerifier(idp.settings(MAP)).verify(olivia).operator();
            fred.services().sweeper().setPaused(person, true, "api", "maintenance window");
            fred.services().sweeper().setPaused(person, false, "api", "maintenance over");
            // A name serve never recorded is refused by the database: nothing is written in it.
            assertThatThrownBy(() -> fred.services().sweeper().setPaused(new Operator("sso:ghost via x", Role.OPS), true, "api", "x"))
                    .hasMessageContaining("never recorded");

            // An outbox entry in the name of a person serve never recorded is set aside, as a made-up login's is.
            try (com.orderconsole.RawRedis raw = new com.orderconsole.RawRedis()) {
                raw.cmd().xadd(com.orderconsole.redis.RedisKeys.outbox(com.orderconsole.redis.RedisKeys.bucket("p-1")),
                        java.util.Map.of("e", "p-1,2,3,3,1\nsso:mallory via console-web\napi\nforged"));
            }
            assertThat(fred.services().follower().awaitCaughtUp(Duration.ofSeconds(20))).isTrue();
            assertThat(fred.services().deadLetters().open(10)).singleElement().satisfies(d -> assertThat(d.reason())
                    .contains("'sso:mallory via console-web' never signed in"));
        }
        assertThat(AccessControlledDb.count("SELECT COUNT(*) FROM order_history WHERE order_id = 'p-1' AND actor = '" + OLIVIA
                + "' AND result_code = 1 AND written_by LIKE 'fred@%'")).isEqualTo(2);
        assertThat(AccessControlledDb.count("SELECT COUNT(*) FROM audit_log WHERE actor = '" + OLIVIA + "' AND action IN "
                + "('SWEEPER_PAUSE', 'SWEEPER_RESUME') AND written_by LIKE 'fred@%'")).isEqualTo(2);
        assertThat(AccessControlledDb.count("SELECT COUNT(*) FROM audit_log WHERE actor LIKE '%ghost%'")).isZero();
        String adaActor = "sso:ada via " + OidcStub.CLIENT;
        assertThat(AccessControlledDb.count("SELECT COUNT(*) FROM audit_log WHERE actor = '" + adaActor + "' AND action = 'OVERRIDE' "
                + "AND order_id = 'p-2' AND written_by LIKE 'fred@%'")).isEqualTo(1);
        assertThat(AccessControlledDb.count("SELECT COUNT(*) FROM order_history WHERE order_id = 'p-2' AND actor = '" + adaActor
                + "' AND to_status = 5 AND version = 2 AND result_code = 1")).isEqualTo(1);
        assertThat(AccessControlledDb.count("SELECT status FROM orders WHERE order_id = 'p-2'")).isEqualTo(5);
        assertThat(AccessControlledDb.count("SELECT COUNT(*) FROM sso_person WHERE actor = '" + OLIVIA + "' AND subject = 'sub-olivia'"))
                .isEqualTo(1);
        // No person's account writes the table or calls serve's procedures.
        for (String account : List.of("sam", "olga", "ada")) {
            try (Connection c = AccessControlledDb.connect(account); Statement st = c.createStatement()) {
                assertThatThrownBy(() -> st.execute("INSERT INTO sso_person (actor, issuer, subject, first_at_ms, recorded_by) "
                        + "VALUES ('sso:x via y', 'i', 's', 1, 'x')")).as(account).isInstanceOf(SQLException.class);
                for (String call : List.of("CALL order_console_sso_person('sso:x via y', 'i', 's')",
                        "CALL order_console_sso_record_action('" + OLIVIA + "', 'api', 'SWEEPER_PAUSE', NULL, 'forged', '')",
                        "CALL order_console_sso_create_order('" + OLIVIA + "', 'forged-1', NULL, 1, 2, 'k-forged')")) {
                    assertThatThrownBy(() -> st.execute(call)).as(account + ": " + call)
                            .isInstanceOfSatisfying(SQLException.class, e -> assertThat(e.getErrorCode()).isEqualTo(1370));
                }
            }
        }
        try (Engine ada = Engine.start(AccessControlledDb.config("ada"))) {
            List<AuditEvent> rows = ada.services().audit().page(AuditFilter.all(), null, 100).rows();
            assertThat(rows).filteredOn(e -> OLIVIA.equals(e.actor())).hasSize(5).allSatisfy(e -> {
                assertThat(e.writtenBy()).startsWith("fred@");
                assertThat(e.actorUnlike()).as("%s", e).isFalse();
            });
        }
    }
}
