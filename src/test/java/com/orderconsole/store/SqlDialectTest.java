package com.orderconsole.store;

import com.orderconsole.TestServers;
import org.junit.jupiter.api.Test;

import java.sql.Connection;
import java.sql.DriverManager;

import static org.assertj.core.api.Assertions.assertThat;

/** The dialect comes from the server's own version string, and old releases are told apart from supported ones. */
class SqlDialectTest {
    @Test
    void versionStringsOfEachServerNameTheirDialect() {
        assertThat(SqlDialect.of("10.11.6-MariaDB-0+deb12u1")).isEqualTo(SqlDialect.MARIADB);
        assertThat(SqlDialect.of("5.5.5-10.6.18-MariaDB-log")).isEqualTo(SqlDialect.MARIADB);
        assertThat(SqlDialect.of("11.4.5-MariaDB")).isEqualTo(SqlDialect.MARIADB);
        assertThat(SqlDialect.of("8.4.3")).isEqualTo(SqlDialect.MYSQL);
        assertThat(SqlDialect.of("8.0.36-0ubuntu0.22.04.1")).isEqualTo(SqlDialect.MYSQL);
    }

    @Test
    void theMinimumReleasesAreMySql8022AndMariaDb106() {
        assertThat(SqlDialect.MYSQL.supports("8.0.21")).isFalse();
        assertThat(SqlDialect.MYSQL.supports("5.7.44-log")).isFalse();
        assertThat(SqlDialect.MYSQL.supports("8.0.22")).isTrue();
        assertThat(SqlDialect.MYSQL.supports("8.4.3")).isTrue();
        assertThat(SqlDialect.MARIADB.supports("10.5.25-MariaDB")).isFalse();
        assertThat(SqlDialect.MARIADB.supports("5.5.5-10.6.18-MariaDB-log")).isTrue();
        assertThat(SqlDialect.MARIADB.supports("11.4.5-MariaDB")).isTrue();
    }

    @Test
    void theTestMariaDbIsToldApartFromItsVersion() throws Exception {
        try (Connection c = DriverManager.getConnection(TestServers.mariaDb().jdbcUrl(), "root", "")) {
            assertThat(SqlDialect.of(c)).isEqualTo(SqlDialect.MARIADB);
            assertThat(SqlDialect.MARIADB.supports(SqlDialect.version(c))).isTrue();
        }
    }

    @Test
    void eachServerGetsItsOwnDefaultRolePhrasing() {
        assertThat(SqlDialect.MARIADB.setDefaultRole("order_console_ops", "'dora'@'%'"))
                .isEqualTo("SET DEFAULT ROLE order_console_ops FOR 'dora'@'%'");
        assertThat(SqlDialect.MYSQL.setDefaultRole("order_console_ops", "'dora'@'%'"))
                .isEqualTo("SET DEFAULT ROLE order_console_ops TO 'dora'@'%'");
    }
}
