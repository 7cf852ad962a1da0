package com.orderconsole.identity;

import com.orderconsole.TestServers;
import com.orderconsole.app.EngineConfig;
import com.orderconsole.domain.Role;
import com.orderconsole.embedded.EmbeddedMariaDb;
import com.orderconsole.store.ConsoleRoles;
import com.orderconsole.store.Database;
import com.orderconsole.store.SqlDialect;

import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * A second MariaDB for the whole test JVM, with accounts and privileges checked (the shared test MariaDB
 * runs without grant tables), migrated by root as a database administrator would, with one account per
 * console role and some that may not sign in. Redis is the shared test Redis.
 */
public final class AccessControlledDb {
    /** Password of every account: "pw-" + name. */
    static final Map<String, Role> ACCOUNTS = new LinkedHashMap<>();

    static {
        ACCOUNTS.put("rita", Role.READ_ONLY);
        ACCOUNTS.put("sam", Role.SUPPORT);
        ACCOUNTS.put("olga", Role.OPS);
        ACCOUNTS.put("ada", Role.ADMIN);
    }

    /** The account of 'serve': holds order_console_follower (ops, plus the writes in other people's names). */
    static final String FOLLOWER = "fred";
    /** Holds no console role. */
    static final String NO_ROLE = "nora";
    /** Holds order_console_ops, but not as its default role. */
    static final String NO_DEFAULT_ROLE = "dora";
    /** Holds order_console_support; its password is the value of the PATH variable (set in every environment). */
    static final String PATH_PASSWORD = "pat";

    private static EmbeddedMariaDb db;

    private AccessControlledDb() {
    }

    public static synchronized EmbeddedMariaDb server() {
        if (db == null) {
            Path dir = Path.of("target", "test-servers", "mariadb-access-control").toAbsolutePath();
            TestServers.deleteTree(dir.resolve("data"));
            db = new EmbeddedMariaDb(dir, 0, false, "--innodb-flush-log-at-trx-commit=2", "--innodb-buffer-pool-size=128M")
                    .withAccessControl().start();
            Runtime.getRuntime().addShutdownHook(new Thread(db::stop));
            Database.migrate(db.jdbcUrl(), "root", "", Duration.ofSeconds(10));
            root(st -> {
                for (Map.Entry<String, Role> a : ACCOUNTS.entrySet()) {
                    createAccount(st, a.getKey(), "pw-" + a.getKey(), a.getValue(), true);
                }
                createAccount(st, FOLLOWER, "pw-" + FOLLOWER, ConsoleRoles.FOLLOWER, true);
                createAccount(st, NO_ROLE, "pw-" + NO_ROLE, (String) null, false);
                createAccount(st, NO_DEFAULT_ROLE, "pw-" + NO_DEFAULT_ROLE, Role.OPS, false);
                createAccount(st, PATH_PASSWORD, System.getenv("PATH"), Role.SUPPORT, true);
            });
        }
        return db;
    }

    /** What an administrator runs for one operator (see docs/dba-guide.md: Accounts for people). */
    private static void createAccount(Statement st, String name, String password, Role role, boolean asDefault) throws SQLException {
        createAccount(st, name, password, role == null ? null : ConsoleRoles.name(role), asDefault);
    }

    private static void createAccount(Statement st, String name, String password, String role, boolean asDefault) throws SQLException {
        String account = "'" + name + "'@'%'";
        st.execute("CREATE USER " + account + " IDENTIFIED BY '" + password.replace("\\", "\\\\").replace("'", "''") + "'");
        if (role != null) {
            st.execute("GRANT " + role + " TO " + account);
            if (asDefault) {
                st.execute(SqlDialect.of(st.getConnection()).setDefaultRole(role, account));
            }
        }
    }

    /** @return engine settings for an account on this server and the shared test Redis, no background jobs */
    static EngineConfig config(String account, String password) {
        return EngineConfig.embeddedDefault()
                .withServers(TestServers.redis().uri(), server().jdbcUrl(), account, password)
                .withBackgroundJobs(null, null)
                .withCommandTimeout(Duration.ofSeconds(5));
    }

    /** @return settings for one of {@link #ACCOUNTS} with its password */
    static EngineConfig config(String account) {
        return config(account, "pw-" + account);
    }

    /** Empties Redis and the tables (as root; the product never deletes history). */
    static void reset() {
        TestServers.reset();
        root(st -> {
            try (ResultSet rs = st.executeQuery("SELECT TABLE_NAME FROM information_schema.TABLES WHERE TABLE_SCHEMA = '"
                    + EmbeddedMariaDb.SCHEMA + "' AND TABLE_NAME <> 'flyway_schema_history'")) {
                java.util.List<String> tables = new java.util.ArrayList<>();
                while (rs.next()) {
                    tables.add(rs.getString(1));
                }
                for (String t : tables) {
                    st.execute("TRUNCATE TABLE " + EmbeddedMariaDb.SCHEMA + "." + t);
                }
            }
        });
    }

    /** Runs statements as root. */
    public static void root(SqlWork work) {
        try (Connection c = DriverManager.getConnection(server().jdbcUrl(), "root", ""); Statement st = c.createStatement()) {
            work.run(st);
        } catch (SQLException e) {
            throw new IllegalStateException(e);
        }
    }

    /** @return a count read as root */
    static long count(String sql) {
        long[] n = new long[1];
        root(st -> {
            try (ResultSet rs = st.executeQuery(sql)) {
                rs.next();
                n[0] = rs.getLong(1);
            }
        });
        return n[0];
    }

    /** @return a plain JDBC connection as an account (close it) */
    static Connection connect(String account) throws SQLException {
        return DriverManager.getConnection(server().jdbcUrl(), account, "pw-" + account);
    }

    @FunctionalInterface
    public interface SqlWork {
        void run(Statement st) throws SQLException;
    }
}
