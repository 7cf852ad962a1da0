package com.orderconsole.store;

import com.orderconsole.TestServers;
import org.junit.jupiter.api.Test;

import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.Statement;
import java.time.Duration;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * A process that migrated a database reads Flyway's schema history, not every migration, when it connects there again
 * (each test's fresh engine spent about 110 statements on Flyway); a history changed since is migrated and validated as
 * before, so a tampered checksum is still refused.
 */
class MigrateSeenOnceTest {
    @Test
    void aSecondConnectReadsOnlyTheHistoryAndAChangedHistoryIsValidatedAgain() throws Exception {
        String schema = "seen_once_" + Long.toString(System.nanoTime(), 36);
        String root = TestServers.mariaDb().jdbcUrl();
        String url = root.replaceFirst("/[a-z_]+\\?", "/" + schema + "?");
        try (Connection c = DriverManager.getConnection(root, "root", ""); Statement st = c.createStatement()) {
            st.execute("CREATE DATABASE " + schema);
            long start = questions(st);
            Database.connect(url, "root", "", Duration.ofSeconds(10)).close();
            long first = questions(st) - start;
            Database.connect(url, "root", "", Duration.ofSeconds(10)).close();
            long again = questions(st) - start - first;
            Database.connect(url, "root", "", Duration.ofSeconds(10)).close();
            long third = questions(st) - start - first - again;
            assertThat(again).as("statements of a second connect (the first: %d)", first).isLessThan(25);
            assertThat(third).isEqualTo(again);

            st.execute("UPDATE " + schema + ".flyway_schema_history SET checksum = checksum + 1 WHERE version = '1'");
            assertThatThrownBy(() -> Database.connect(url, "root", "", Duration.ofSeconds(10)))
                    .isInstanceOf(DatabaseUnavailableException.class).hasMessageContaining("cannot open the orders database")
                    .hasMessageContaining("Validate failed");
            st.execute("UPDATE " + schema + ".flyway_schema_history SET checksum = checksum - 1 WHERE version = '1'");
            Database.connect(url, "root", "", Duration.ofSeconds(10)).close();
        } finally {
            try (Connection c = DriverManager.getConnection(root, "root", ""); Statement st = c.createStatement()) {
                st.execute("DROP DATABASE IF EXISTS " + schema);
            }
        }
    }

    /** Statements the server has run for every client so far (this test's own two included). */
    private static long questions(Statement st) throws Exception {
        try (ResultSet rs = st.executeQuery("SHOW GLOBAL STATUS LIKE 'Questions'")) {
            rs.next();
            return rs.getLong(2);
        }
    }
}
