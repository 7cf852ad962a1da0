package com.orderconsole;

import com.orderconsole.app.Engine;
import com.orderconsole.app.EngineConfig;
import com.orderconsole.embedded.EmbeddedMariaDb;
import com.orderconsole.embedded.EmbeddedRedis;
import io.lettuce.core.RedisClient;
import io.lettuce.core.RedisException;
import io.lettuce.core.api.StatefulRedisConnection;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.Comparator;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.stream.Collectors;
import java.util.stream.Stream;

/**
 * Real Redis and MariaDB for the whole test JVM, started once on free loopback ports under
 * target/test-servers (wiped at the start of each run); each further test JVM of the fast set ({@code -Dtest.fork=N},
 * surefire's fork number) under target/test-servers-N, so that no two share a database.
 */
public final class TestServers {
    private static EmbeddedRedis redis;
    private static EmbeddedMariaDb mariaDb;

    private TestServers() {
    }

    /** Starts both servers on first use. */
    public static synchronized void start() {
        if (redis != null) {
            return;
        }
        String fork = System.getProperty("test.fork", "1");
        Path dir = Path.of("target", "1".equals(fork) ? "test-servers" : "test-servers-" + fork).toAbsolutePath();
        deleteTree(dir.resolve("redis"));
        deleteTree(dir.resolve("mariadb").resolve("data"));
        EmbeddedRedis startedRedis = new EmbeddedRedis(dir.resolve("redis"), 0).start();
        SelfSignedPem tls = mariaDbCertificate(dir.resolve("tls"));
        // Tests favour speed over crash durability of the test database; TLS on so one test can ask for it.
        EmbeddedMariaDb db = new EmbeddedMariaDb(dir.resolve("mariadb"), 0, true, "--innodb-flush-log-at-trx-commit=2",
                "--innodb-buffer-pool-size=256M", "--ssl-cert=" + tls.cert(), "--ssl-key=" + tls.key());
        // The fast set's test JVMs start at once, and MariaDB installs its system tables with temporary tables in /tmp
        // whatever the server's own tmpdir: two installs at the same moment collided there ("Unknown table
        // 'mysql.tmp_user_sys'", every test of the fork failing). They take turns.
        try (java.nio.channels.FileChannel lock = java.nio.channels.FileChannel.open(Path.of("target", "test-servers.lock").toAbsolutePath(),
                java.nio.file.StandardOpenOption.CREATE, java.nio.file.StandardOpenOption.WRITE);
             java.nio.channels.FileLock held = lock.lock()) {
            db.start();
        } catch (IOException e) {
            startedRedis.stop();
            throw new UncheckedIOException(e);
        } catch (RuntimeException e) {
            startedRedis.stop();
            throw e;
        }
        // Both or neither: a test after a failed start must fail on the start again, not on a half-set pair.
        redis = startedRedis;
        mariaDb = db;
        Runtime.getRuntime().addShutdownHook(new Thread(() -> {
            redis.stop();
            mariaDb.stop();
        }));
    }

    /**
     * The test MariaDB's certificate, kept across runs. Given none, MariaDB 11.4 makes one at every start: about 6 s of
     * CPU (7 s before it is ready, against 0.3 s with one given), paid by each test JVM at once.
     */
    private static SelfSignedPem mariaDbCertificate(Path dir) {
        SelfSignedPem kept = new SelfSignedPem(dir.resolve("mariadb.crt"), dir.resolve("mariadb.key"));
        if (Files.isRegularFile(kept.cert()) && Files.isRegularFile(kept.key())) {
            return kept;
        }
        return SelfSignedPem.make(dir, "mariadb", 3650);
    }

    public static EmbeddedRedis redis() {
        start();
        return redis;
    }

    public static EmbeddedMariaDb mariaDb() {
        start();
        return mariaDb;
    }

    /**
     * Engine config pointing at the test servers, with no background jobs (tests drive them). The servers
     * are this process's own, as the embedded ones: nobody signs in, the OS user is the local admin.
     */
    public static EngineConfig config() {
        start();
        return EngineConfig.embeddedDefault()
                .withServers(redis.uri(), mariaDb.jdbcUrl(), "root", "")
                .withLocalIdentity()
                .withBackgroundJobs(null, null)
                .withCommandTimeout(Duration.ofSeconds(2));
    }

    /** A started engine on the test servers with empty stores and default rules. */
    public static Engine freshEngine() {
        reset();
        return Engine.start(config());
    }

    /** The tables a test may fill, emptied before the next one. */
    private static final List<String> TABLES = List.of("orders", "order_history", "sync_cursor", "transition_rules",
            "dataset_identity", "dead_letter", "audit_log", "bulk_batch", "bulk_item", "bulk_plan", "api_client",
            "sso_person", "history_writer", "api_idempotency");
    /** One Lettuce client for the FLUSHALLs of this JVM (its threads are made once, not at every reset). */
    private static RedisClient flusher;
    private static StatefulRedisConnection<String, String> flushing;

    /**
     * Empties both stores (FLUSHALL, TRUNCATE and DELETE, test-only: the product never deletes history), leaving what
     * TRUNCATE of every table left: no row, every AUTO_INCREMENT at 1. TRUNCATE recreates an InnoDB table (about 4 ms
     * each on this machine, against well under 1 ms for DELETE of a few rows), so a table that holds nothing and whose
     * counter is at 1 is left alone, a table without an AUTO_INCREMENT column is emptied by DELETE (no trigger or
     * foreign key acts on a delete) unless it holds many rows, and TRUNCATE is kept for those and for the tables whose
     * counter moved (history ids, which tests read).
     */
    public static void reset() {
        start();
        synchronized (TestServers.class) {
            // A test that stopped MariaDB and could not start it again must not fail every test after it.
            mariaDb.start();
            flushAll();
        }
        try {
            emptyTables();
        } catch (SQLException e) {
            // The kept connection broke (a test stopped or restarted MariaDB): once more on a new one.
            closeEmptying();
            try {
                emptyTables();
            } catch (SQLException again) {
                throw new IllegalStateException(again);
            }
        }
    }

    /** One connection for the emptying of this JVM's tables: a new one per test cost a connect and its handshake. */
    private static Connection emptying;

    private static synchronized void emptyTables() throws SQLException {
        if (emptying == null) {
            emptying = DriverManager.getConnection(mariaDb.jdbcUrl(), "root", "");
        }
        try (Statement st = emptying.createStatement()) {
            Map<String, Long> counters = counters(st);
            Map<String, Integer> rows = rows(st, counters.keySet());
            for (String t : counters.keySet()) {
                int n = rows.get(t);
                if (counters.get(t) > 1 || (counters.get(t) != 0 && n > 0) || n > MANY_ROWS) {
                    st.execute("TRUNCATE TABLE " + t);
                } else if (n > 0) {
                    st.execute("DELETE FROM " + t);
                }
            }
        }
    }

    private static synchronized void closeEmptying() {
        if (emptying != null) {
            try {
                emptying.close();
            } catch (SQLException e) {
                // broken already: nothing to release
            }
            emptying = null;
        }
    }

    /** FLUSHALL on the JVM's one connection; a new client when that connection broke (a test stopped Redis). */
    private static void flushAll() {
        try {
            if (flushing == null || !flushing.isOpen()) {
                throw new RedisException("not connected yet");
            }
            flushing.sync().flushall();
        } catch (RedisException e) {
            if (flusher != null) {
                flusher.shutdown();
            }
            flusher = RedisClient.create(redis.uri());
            flushing = flusher.connect();
            flushing.sync().flushall();
        }
    }

    /** Of {@link #TABLES}, those that exist, with their next AUTO_INCREMENT value (0: the table has no such column). */
    private static Map<String, Long> counters(Statement st) throws SQLException {
        Map<String, Long> all = new HashMap<>();
        try (ResultSet rs = st.executeQuery("SELECT table_name, auto_increment FROM information_schema.tables "
                + "WHERE table_schema = DATABASE()")) {
            while (rs.next()) {
                all.put(rs.getString(1).toLowerCase(Locale.ROOT), rs.getLong(2));
            }
        }
        Map<String, Long> counters = new LinkedHashMap<>();
        TABLES.stream().filter(all::containsKey).forEach(t -> counters.put(t, all.get(t)));
        return counters;
    }

    /** Above this many rows TRUNCATE is the cheaper way to empty a table (an imported sample's orders). */
    private static final int MANY_ROWS = 1000;

    /** How many rows each table holds, counted up to {@link #MANY_ROWS} + 1. */
    private static Map<String, Integer> rows(Statement st, Set<String> tables) throws SQLException {
        Map<String, Integer> rows = new HashMap<>();
        if (tables.isEmpty()) {
            return rows;
        }
        try (ResultSet rs = st.executeQuery(tables.stream()
                .map(t -> "SELECT '" + t + "', (SELECT COUNT(*) FROM (SELECT 1 FROM " + t + " LIMIT " + (MANY_ROWS + 1) + ") x)")
                .collect(Collectors.joining(" UNION ALL ")))) {
            while (rs.next()) {
                rows.put(rs.getString(1), rs.getInt(2));
            }
        }
        return rows;
    }

    public static void deleteTree(Path p) {
        if (!Files.exists(p)) {
            return;
        }
        try (Stream<Path> s = Files.walk(p)) {
            s.sorted(Comparator.reverseOrder()).forEach(x -> x.toFile().delete());
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
