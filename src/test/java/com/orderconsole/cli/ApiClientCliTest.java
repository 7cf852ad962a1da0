package com.orderconsole.cli;

import com.fasterxml.jackson.databind.JsonNode;
import com.orderconsole.TestServers;
import com.orderconsole.app.Engine;
import com.orderconsole.service.audit.AuditFilter;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;

import static com.orderconsole.cli.CliRunner.cli;
import static org.assertj.core.api.Assertions.assertThat;

/** {@code api-client add|list|revoke} (issue 32): the token is printed once, only its hash is stored, each change audited. */
class ApiClientCliTest {
    @BeforeEach
    void fresh() {
        TestServers.reset();
    }

    private static List<String> auditActions() throws Exception {
        List<String> out = new ArrayList<>();
        try (Connection c = DriverManager.getConnection(TestServers.mariaDb().jdbcUrl(), "root", "");
             Statement st = c.createStatement(); ResultSet rs = st.executeQuery("SELECT action, detail FROM audit_log ORDER BY id")) {
            while (rs.next()) {
                out.add(rs.getString(1) + ": " + rs.getString(2));
            }
        }
        return out;
    }

    @Test
    void addPrintsTheTokenOnceStoresItsHashListsAndRevokesEachAudited() throws Exception {
        CliRunner.Run added = cli("api-client", "add", "payments", "--role", "support", "--json");
        assertThat(added.code()).as(added.err()).isZero();
        JsonNode a = added.json();
        String token = a.path("token").asText();
        assertThat(token).startsWith("oc_").hasSize(46);
        assertThat(a.path("actor").asText()).isEqualTo("api:payments");
        assertThat(a.path("role").asText()).isEqualTo("support");
        try (Connection c = DriverManager.getConnection(TestServers.mariaDb().jdbcUrl(), "root", "");
             Statement st = c.createStatement(); ResultSet rs = st.executeQuery("SELECT * FROM api_client")) {
            assertThat(rs.next()).isTrue();
            for (int i = 1; i <= rs.getMetaData().getColumnCount(); i++) {
                assertThat(String.valueOf(rs.getObject(i))).as("column " + rs.getMetaData().getColumnName(i)).doesNotContain(token.substring(3));
            }
            assertThat(rs.getString("token_sha256")).hasSize(64);
        }
        CliRunner.Run twice = cli("api-client", "add", "payments", "--role", "ops");
        assertThat(twice.code()).isEqualTo(ExitCode.USAGE.code());
        assertThat(twice.err()).contains("exists already");
        CliRunner.Run admin = cli("api-client", "add", "root", "--role", "admin");
        assertThat(admin.code()).isEqualTo(ExitCode.USAGE.code());
        assertThat(admin.err()).contains("support or --role ops");
        CliRunner.Run badName = cli("api-client", "add", "Pay Ments", "--role", "ops");
        assertThat(badName.code()).isEqualTo(ExitCode.USAGE.code());
        assertThat(badName.err()).contains("is not allowed");

        CliRunner.Run list = cli("api-client", "list", "--json");
        assertThat(list.code()).isZero();
        assertThat(list.json().path("clients")).hasSize(1);
        assertThat(list.out()).doesNotContain(token).doesNotContain("sha256");

        CliRunner.Run revoked = cli("api-client", "revoke", "payments", "--json");
        assertThat(revoked.code()).as(revoked.err()).isZero();
        assertThat(revoked.json().path("wasInForce").asBoolean()).isTrue();
        assertThat(revoked.json().path("everyServeWithinBound").asBoolean()).as("Redis has it too").isTrue();
        assertThat(cli("api-client", "list", "--json").json().path("clients").get(0).path("revokedAt").isNull()).isFalse();
        CliRunner.Run unknown = cli("api-client", "revoke", "nobody");
        assertThat(unknown.code()).isEqualTo(ExitCode.USAGE.code());
        assertThat(auditActions()).containsExactly("API_CLIENT_ADD: api client payments added as support",
                "API_CLIENT_REVOKE: api client payments revoked");
        try (Engine e = Engine.start(TestServers.config())) {
            assertThat(e.services().apiClients().authenticate(token)).isEmpty();
        }
    }
}
