package com.orderconsole.store;

import org.junit.jupiter.api.Test;

import java.sql.SQLNonTransientConnectionException;
import java.util.Map;
import java.util.Set;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** Sign-in reads every URL form Connector/J takes, and MySQL's way of listing roles in force. */
class DatabaseAccountsUrlTest {
    @Test
    void highAvailabilityUrlsKeepTheirHostsAndParametersWithoutTheSchema() {
        assertThat(DatabaseAccounts.serverUrl("jdbc:mysql://db:3306/orders?sslMode=REQUIRED"))
                .isEqualTo("jdbc:mysql://db:3306/?sslMode=REQUIRED");
        assertThat(DatabaseAccounts.serverUrl("jdbc:mysql+srv://_mysql._tcp.db.internal/orders?sslMode=VERIFY_IDENTITY"))
                .isEqualTo("jdbc:mysql+srv://_mysql._tcp.db.internal/?sslMode=VERIFY_IDENTITY");
        assertThat(DatabaseAccounts.serverUrl("jdbc:mysql:replication://src:3306,replica1:3306,replica2:3306/orders"))
                .isEqualTo("jdbc:mysql:replication://src:3306,replica1:3306,replica2:3306/");
        assertThat(DatabaseAccounts.serverUrl("jdbc:mysql:loadbalance://a:3306,b:3306/orders?loadBalanceStrategy=random"))
                .isEqualTo("jdbc:mysql:loadbalance://a:3306,b:3306/?loadBalanceStrategy=random");
        assertThat(DatabaseAccounts.serverUrl("jdbc:mysql+srv:loadbalance://_mysql._tcp.db.internal/orders"))
                .isEqualTo("jdbc:mysql+srv:loadbalance://_mysql._tcp.db.internal/");
        assertThatThrownBy(() -> DatabaseAccounts.serverUrl("jdbc:postgresql://db/orders"))
                .hasMessageContaining("not a MySQL JDBC URL");
    }

    @Test
    void whereTheDatabaseIsNamesEveryHostWithoutAccountOrParameters() {
        assertThat(DatabaseFailures.describe("jdbc:mysql:replication://u:p@src:3306,replica:3306/orders?password=x"))
                .isEqualTo("src:3306,replica:3306/orders");
        assertThat(DatabaseFailures.describe("jdbc:mysql+srv://_mysql._tcp.db.internal/orders")).isEqualTo("_mysql._tcp.db.internal/orders");
    }

    @Test
    void aConsoleRoleGrantedToTheEnabledRoleIsInForce() {
        // MySQL's ENABLED_ROLES for an account whose default role is team_lead, granted order_console_ops:
        // only team_lead. APPLICABLE_ROLES has one row per grant reachable from the account.
        Map<String, Set<String>> grantedTo = Map.of(
                "lena", Set.of("team_lead"),
                "team_lead", Set.of("order_console_ops"),
                "order_console_ops", Set.of("order_console_support"),
                "order_console_support", Set.of("order_console_read_only"));
        assertThat(SqlDialect.closure(Set.of("team_lead"), grantedTo))
                .containsExactlyInAnyOrder("team_lead", "order_console_ops", "order_console_support", "order_console_read_only");
        assertThat(SqlDialect.closure(Set.of(), grantedTo)).isEmpty();
    }

    @Test
    void mySqlsPublicKeyRefusalIsSaidInWordsWithWhatToAdd() {
        // Connector/J's own exception when caching_sha2_password meets a connection without TLS.
        SQLNonTransientConnectionException e = new SQLNonTransientConnectionException("Public Key Retrieval is not allowed", "08001");
        assertThat(DatabaseFailures.rootMessage(new RuntimeException("pool failed", e)))
                .startsWith("the server needs the password sent over TLS or encrypted with its RSA public key")
                .contains("sslMode=REQUIRED", "allowPublicKeyRetrieval=true", "serverRSAPublicKeyFile");
    }
}
