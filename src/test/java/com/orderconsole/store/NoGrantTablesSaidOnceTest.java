package com.orderconsole.store;

import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.core.read.ListAppender;
import com.orderconsole.TestServers;
import org.junit.jupiter.api.Test;
import org.slf4j.LoggerFactory;

import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.Statement;
import java.time.Duration;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * On a server without grant tables (the embedded default) a new database's migrations ask eight times to create the
 * console roles; the log says once that this server checks no accounts, not eight times (a tester counted the line ×8
 * at serve's start), and a second start says nothing new.
 */
class NoGrantTablesSaidOnceTest {
    @Test
    void aNewDatabaseOnAServerWithoutGrantTablesIsToldOnce() throws Exception {
        String schema = "no_grants_" + Long.toString(System.nanoTime(), 36);
        String root = TestServers.mariaDb().jdbcUrl();
        try (Connection c = DriverManager.getConnection(root, "root", ""); Statement st = c.createStatement()) {
            st.execute("CREATE DATABASE " + schema);
        }
        Logger logger = (Logger) LoggerFactory.getLogger(ConsoleRoles.class);
        ListAppender<ILoggingEvent> logged = new ListAppender<>();
        logged.start();
        logger.addAppender(logged);
        String url = root.replaceFirst("/[a-z_]+\\?", "/" + schema + "?");
        try {
            Database.migrate(url, "root", "", Duration.ofSeconds(10));
            Database.connect(url, "root", "", Duration.ofSeconds(10)).close();
            Database.migrate(url, "root", "", Duration.ofSeconds(10));
        } finally {
            logger.detachAppender(logged);
            try (Connection c = DriverManager.getConnection(root, "root", ""); Statement st = c.createStatement()) {
                st.execute("DROP DATABASE " + schema);
            }
        }
        assertThat(logged.list.stream().filter(e -> e.getFormattedMessage().contains("does not check accounts")).count())
                .as(logged.list.toString()).isEqualTo(1);
    }
}
