package com.orderconsole.store;

import com.orderconsole.TestServers;
import org.flywaydb.core.Flyway;
import org.junit.jupiter.api.Test;

import java.net.URISyntaxException;
import java.net.URL;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.Statement;
import java.time.Duration;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * A signed-in session (a person's command or console, which may not migrate) checks that no migration is pending by
 * reading Flyway's schema history, not by having Flyway resolve every migration: fewer statements than Flyway's own
 * check, and the same refusal, naming the missing migration, when one is pending.
 */
class SignedInSchemaCheckTest {
    private static final String[] LOCATIONS = {"classpath:db/migration", "classpath:com/orderconsole/store/migration"};

    @Test
    void anUpToDateSchemaIsCheckedFromItsHistoryAndAPendingMigrationIsStillRefusedByName() throws Exception {
        String schema = "signed_in_" + Long.toString(System.nanoTime(), 36);
        String root = TestServers.mariaDb().jdbcUrl();
        String url = root.replaceFirst("/[a-z_]+\\?", "/" + schema + "?");
        try (Connection c = DriverManager.getConnection(root, "root", ""); Statement st = c.createStatement()) {
            st.execute("CREATE DATABASE " + schema);
            Flyway behind = Flyway.configure().dataSource(url, "root", "").locations(LOCATIONS)
                    .target(String.valueOf(SchemaHistory.SCHEMA_VERSION - 1)).load();
            behind.migrate();
            assertThatThrownBy(() -> Database.connectSignedIn(url, "root", "", Duration.ofSeconds(10)))
                    .isInstanceOf(DatabaseUnavailableException.class)
                    .hasMessageContaining("lacks 1 schema migration (V" + SchemaHistory.SCHEMA_VERSION + " ")
                    .hasMessageContaining("'order-console migrate'");

            Database.connect(url, "root", "", Duration.ofSeconds(10)).close();
            long start = questions(st);
            Flyway.configure().dataSource(url, "root", "").locations(LOCATIONS).load().info().pending();
            long flywaysCheck = questions(st) - start - 1;
            start = questions(st);
            Database.connectSignedIn(url, "root", "", Duration.ofSeconds(10)).close();
            long signedIn = questions(st) - start - 1;
            assertThat(signedIn).as("statements of a signed-in connect (Flyway's check alone: %d)", flywaysCheck)
                    .isLessThan(flywaysCheck);

            st.execute("INSERT INTO " + schema + ".flyway_schema_history (installed_rank, version, description, type, script,"
                    + " checksum, installed_by, execution_time, success) VALUES (1000, '" + (SchemaHistory.SCHEMA_VERSION + 1)
                    + "', 'failed one', 'SQL', 'V0__x.sql', 0, 'root', 0, 0)");
            com.zaxxer.hikari.HikariConfig hc = new com.zaxxer.hikari.HikariConfig();
            hc.setJdbcUrl(url);
            hc.setUsername("root");
            hc.setPassword("");
            try (com.zaxxer.hikari.HikariDataSource ds = new com.zaxxer.hikari.HikariDataSource(hc)) {
                assertThat(SchemaHistory.upToDate(ds)).as("a history with a failed migration is Flyway's to judge").isFalse();
            }
        } finally {
            try (Connection c = DriverManager.getConnection(root, "root", ""); Statement st = c.createStatement()) {
                st.execute("DROP DATABASE IF EXISTS " + schema);
            }
        }
    }

    @Test
    void theSchemaVersionIsTheNewestMigrationOnTheClassPath() throws Exception {
        Pattern version = Pattern.compile("^V(\\d+)__.*\\.(sql|class)$");
        int newest = 0;
        for (String dir : new String[] {"db/migration", "com/orderconsole/store/migration"}) {
            URL where = getClass().getClassLoader().getResource(dir);
            assertThat(where).as(dir).isNotNull();
            try (Stream<Path> files = Files.list(path(where))) {
                for (Path f : files.toList()) {
                    Matcher m = version.matcher(f.getFileName().toString());
                    if (m.matches()) {
                        newest = Math.max(newest, Integer.parseInt(m.group(1)));
                    }
                }
            }
        }
        assertThat(SchemaHistory.SCHEMA_VERSION).as("SchemaHistory.SCHEMA_VERSION").isEqualTo(newest);
    }

    private static Path path(URL url) throws URISyntaxException {
        return Path.of(url.toURI());
    }

    /** Statements the server has run for every client so far (this query included). */
    private static long questions(Statement st) throws Exception {
        try (ResultSet rs = st.executeQuery("SHOW GLOBAL STATUS LIKE 'Questions'")) {
            rs.next();
            return rs.getLong(2);
        }
    }
}
