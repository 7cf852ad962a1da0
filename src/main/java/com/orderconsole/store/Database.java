package com.orderconsole.store;

import com.orderconsole.store.migration.RemakeRoutines;
import com.zaxxer.hikari.HikariConfig;
import com.zaxxer.hikari.HikariDataSource;
import org.apache.ibatis.session.Configuration;
import org.apache.ibatis.session.ExecutorType;
import org.apache.ibatis.session.SqlSession;
import org.apache.ibatis.session.TransactionIsolationLevel;
import org.apache.ibatis.session.defaults.DefaultSqlSession;
import org.apache.ibatis.transaction.Transaction;
import org.apache.ibatis.transaction.jdbc.JdbcTransaction;
import org.flywaydb.core.Flyway;
import org.flywaydb.core.api.MigrationInfo;
import org.flywaydb.core.api.exception.FlywayValidateException;
import org.flywaydb.core.api.output.MigrateResult;
import org.flywaydb.core.api.output.RepairOutput;
import org.flywaydb.core.api.output.RepairResult;

import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Properties;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Function;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;

/**
 * The MySQL side: a small connection pool, schema migrations (Flyway: SQL in {@code db/migration}, Java in
 * {@code store/migration}) and MyBatis sessions. Works with MySQL 8 and MariaDB 10.6+. Pools of signed-in
 * console accounts never change the schema, and a statement their roles do not grant fails with a
 * {@link DatabaseRefusedException} saying so.
 */
public final class Database implements AutoCloseable {
    /** MySQL/MariaDB errors: command denied on a table or column, database denied, privilege missing, routine denied. */
    private static final Set<Integer> ACCESS_DENIED = Set.of(1142, 1143, 1044, 1227, 1370);
    private static final Pattern TABLE_DENIED = Pattern.compile("^(\\w+) command denied to user .* for table (\\S+)");
    /** A statement running longer than this many seconds is cancelled (MyBatis and the plain JDBC of {@link MultiRowSql}). */
    static final int STATEMENT_TIMEOUT_SECONDS = 30;
    /**
     * The mappers of each dialect, built once per process and shared by its pools: building them parses the 11
     * mappers' statements and looks for their XML on the class path (tens of milliseconds of CPU), which a console
     * switching profiles or a command opening a second pool need not pay again. They hold no data source.
     */
    private static final Map<SqlDialect, Configuration> MAPPERS = new ConcurrentHashMap<>();
    private final HikariDataSource dataSource;
    private final Configuration mappers;
    private final String where;
    private final String account;
    private final SqlDialect dialect;
    /** A signed-in person's session: what names an actor is written through the V39 procedures. */
    private final boolean stamped;
    /** This session may run the MySQL follower: it holds {@link ConsoleRoles#FOLLOWER}, or it is not a person's. */
    private final boolean mayFollow;

    private Database(HikariDataSource dataSource, String where, String account, boolean signedIn) {
        this.dataSource = dataSource;
        this.where = where;
        this.account = account;
        this.stamped = signedIn;
        try (Connection c = dataSource.getConnection()) {
            this.dialect = SqlDialect.of(c);
            if (signedIn) {
                try (Statement st = c.createStatement()) {
                    this.mayFollow = SqlDialect.rolesInForce(st).inForce().contains(ConsoleRoles.FOLLOWER);
                }
            } else {
                this.mayFollow = true;
            }
        } catch (SQLException e) {
            dataSource.close();
            throw new DatabaseUnavailableException("cannot open the orders database at " + where + ": " + DatabaseFailures.rootMessage(e), e);
        }
        this.mappers = MAPPERS.computeIfAbsent(dialect, Database::mappers);
    }

    /**
     * The MyBatis mappers with their statements phrased for one server ({@code ${explain}}:
     * {@link SqlDialect#explainTabular()}), without a data source; the grammar test reads every statement from it.
     */
    static Configuration mappers(SqlDialect dialect) {
        Configuration cfg = new Configuration();
        cfg.getVariables().setProperty("explain", dialect.explainTabular());
        cfg.setMapUnderscoreToCamelCase(true);
        cfg.setDefaultStatementTimeout(STATEMENT_TIMEOUT_SECONDS);
        cfg.addMapper(OrderMapper.class);
        cfg.addMapper(HistoryMapper.class);
        cfg.addMapper(SyncCursorMapper.class);
        cfg.addMapper(RulesArchiveMapper.class);
        cfg.addMapper(DatasetMapper.class);
        cfg.addMapper(DeadLetterMapper.class);
        cfg.addMapper(AuditMapper.class);
        cfg.addMapper(BulkMapper.class);
        cfg.addMapper(AuditEventMapper.class);
        cfg.addMapper(AccountMapper.class);
        cfg.addMapper(ApiClientMapper.class);
        return cfg;
    }

    /**
     * Checks a JDBC URL's form without asking any server: the driver shipped is MySQL Connector/J, so only its
     * URLs can work (another database's URL failed later with the driver's "No suitable driver found").
     *
     * @param jdbcUrl e.g. {@code jdbc:mysql://host:3306/orders}
     * @throws IllegalArgumentException in words, naming the URL without its parameters
     */
    public static void requireJdbcUrl(String jdbcUrl) {
        if (jdbcUrl == null || !jdbcUrl.matches("jdbc:mysql(\\+srv)?(:[a-z]+)?://[^/?]+(/[^?]*)?(\\?.*)?")) {
            // Shown without its parameters and any user:password@, which may hold secrets.
            String shown = String.valueOf(jdbcUrl).replaceFirst("\\?.*$", "").replaceFirst("//[^/@]*@", "//");
            throw new IllegalArgumentException("'" + shown + "' is not a MySQL JDBC URL: expected "
                    + "jdbc:mysql://host:port/schema (MariaDB servers take the same URL)");
        }
    }

    /**
     * Opens a pool and migrates the schema (local servers, where the account is the administrator).
     *
     * @param jdbcUrl e.g. {@code jdbc:mysql://127.0.0.1:3306/orders?sslMode=REQUIRED}
     * @param user database user
     * @param password password (from an environment variable or prompt; never logged)
     * @param timeout how long to wait for a connection or a socket read
     * @return the database
     * @throws DatabaseUnavailableException when the server cannot be reached or the schema cannot be migrated
     */
    public static Database connect(String jdbcUrl, String user, String password, Duration timeout) {
        HikariDataSource ds = pool(jdbcUrl, user, password, timeout);
        try {
            migrateUnlessSeen(ds, jdbcUrl + " " + user);
        } catch (RuntimeException e) {
            ds.close();
            throw new DatabaseUnavailableException("cannot open the orders database at " + DatabaseFailures.describe(jdbcUrl) + ": " + DatabaseFailures.rootMessage(e), e);
        }
        return new Database(ds, DatabaseFailures.describe(jdbcUrl), user, false);
    }

    /**
     * Per server URL and account, the schema history as this process last saw it right after a migrate succeeded there.
     */
    private static final Map<String, List<String>> MIGRATED = new ConcurrentHashMap<>();

    /**
     * Flyway's migrate, unless this process saw one succeed on this server and account and the schema history has not
     * changed by a byte since: Flyway would then apply nothing and validate the same migrations against the same history,
     * after resolving and checksumming every migration on the class path and about 110 statements (15-20 ms of CPU and
     * 5 ms of round trips, paid by every engine a test starts). The after-migrate step still runs, as after every migrate.
     * A process's first connect, and any after another process or a person touched the history, migrate as before.
     */
    private static void migrateUnlessSeen(HikariDataSource ds, String key) {
        List<String> seen = MIGRATED.get(key);
        if (seen != null) {
            try (Connection c = ds.getConnection()) {
                if (seen.equals(history(c))) {
                    RemakeRoutines.remake(c);
                    return;
                }
            } catch (SQLException e) {
                // Not reachable: said as Flyway's attempt would have said it (the same root cause).
                throw new IllegalStateException(e);
            }
        }
        flyway(ds).migrate();
        try (Connection c = ds.getConnection()) {
            List<String> now = history(c);
            if (now != null) {
                MIGRATED.put(key, now);
            }
        } catch (SQLException e) {
            MIGRATED.remove(key);
        }
    }

    /** @return every row of Flyway's schema history, every column, in order; null when it cannot be read */
    private static List<String> history(Connection c) {
        try (Statement st = c.createStatement();
             ResultSet rs = st.executeQuery("SELECT * FROM flyway_schema_history ORDER BY installed_rank")) {
            int columns = rs.getMetaData().getColumnCount();
            List<String> rows = new ArrayList<>();
            while (rs.next()) {
                StringBuilder row = new StringBuilder();
                for (int i = 1; i <= columns; i++) {
                    row.append(rs.getString(i)).append('\u0000');
                }
                rows.add(row.toString());
            }
            return rows;
        } catch (SQLException e) {
            return null;
        }
    }

    /**
     * Opens a pool for a signed-in console account, which may not change the schema: the schema must
     * already be migrated by a database administrator ({@link #migrate}).
     *
     * @return the database
     * @throws DatabaseUnavailableException when the server cannot be reached or migrations are pending
     */
    public static Database connectSignedIn(String jdbcUrl, String user, String password, Duration timeout) {
        HikariDataSource ds = pool(jdbcUrl, user, password, timeout);
        String where = DatabaseFailures.describe(jdbcUrl);
        if (SchemaHistory.upToDate(ds)) {
            return new Database(ds, where, user, true);
        }
        MigrationInfo[] pending;
        try {
            pending = flyway(ds).info().pending();
        } catch (RuntimeException e) {
            ds.close();
            throw new DatabaseUnavailableException("cannot open the orders database at " + where + ": " + DatabaseFailures.rootMessage(e), e);
        }
        if (pending.length > 0) {
            ds.close();
            throw new DatabaseUnavailableException("the orders database at " + where + " lacks " + pending.length
                    + " schema migration" + (pending.length == 1 ? "" : "s") + " (" + Arrays.stream(pending)
                    .map(m -> "V" + m.getVersion() + " " + m.getDescription()).collect(Collectors.joining(", "))
                    + "); a database administrator applies them with 'order-console migrate'", null);
        }
        return new Database(ds, where, user, true);
    }

    /**
     * The outcome of {@link #migrate}.
     *
     * @param applied migrations applied now
     * @param version the schema version afterwards
     */
    public record Migrated(int applied, String version) {
    }

    /**
     * Applies the pending migrations, creating the tables and the console roles ({@link ConsoleRoles}), after
     * checking that the account holds what they need ({@link MigrationPrivileges}); when it does not, nothing is
     * changed and the message lists what is missing.
     *
     * @param user an administrator account: may create tables, triggers, routines and roles and grant on the schema
     * @throws DatabaseRefusedException when the account lacks a privilege the migrations need, in words
     * @throws DatabaseUnavailableException when the server cannot be reached or refuses a migration
     */
    public static Migrated migrate(String jdbcUrl, String user, String password, Duration timeout) {
        try (HikariDataSource ds = pool(jdbcUrl, user, password, timeout)) {
            List<String> missing;
            Flyway flyway = flyway(ds);
            try (Connection c = ds.getConnection()) {
                missing = MigrationPrivileges.missing(c);
            } catch (SQLException e) {
                throw new DatabaseUnavailableException("cannot migrate the orders database at " + DatabaseFailures.describe(jdbcUrl) + ": "
                        + DatabaseFailures.rootMessage(e), e);
            }
            if (!missing.isEmpty()) {
                throw new DatabaseRefusedException("account '" + user + "' may not migrate the orders database at "
                        + DatabaseFailures.describe(jdbcUrl) + "; nothing was changed. It lacks:" + System.lineSeparator() + "  "
                        + String.join(System.lineSeparator() + "  ", missing) + System.lineSeparator()
                        + "A database administrator grants them (docs/dba-guide.md, setting up a schema).", null);
            }
            MigrateResult r = flyway.migrate();
            return new Migrated(r.migrationsExecuted, r.targetSchemaVersion != null ? r.targetSchemaVersion : r.initialSchemaVersion);
        } catch (FlywayValidateException e) {
            throw new DatabaseUnavailableException("cannot migrate the orders database at " + DatabaseFailures.describe(jdbcUrl) + ": "
                    + DatabaseFailures.rootMessage(e) + (e.getMessage().contains("failed migration") ? " (undo what the failed migration "
                    + "did, if anything, then run 'order-console migrate --repair' and 'migrate' again)" : ""), e);
        } catch (DatabaseRefusedException | DatabaseUnavailableException e) {
            throw e;
        } catch (RuntimeException e) {
            throw new DatabaseUnavailableException("cannot migrate the orders database at " + DatabaseFailures.describe(jdbcUrl) + ": "
                    + DatabaseFailures.rootMessage(e), e);
        }
    }

    /**
     * What {@link #repair} did.
     *
     * @param removed failed migrations whose entries were removed from Flyway's record ("V38 writer column")
     * @param aligned applied migrations whose recorded checksum, description or type was realigned with this release's
     * @param deleted entries of migrations this release does not have, marked deleted
     */
    public record Repaired(List<String> removed, List<String> aligned, List<String> deleted) {
    }

    /**
     * Flyway's repair of its record ({@code flyway_schema_history}): removes the entries of failed migrations (on
     * MySQL and MariaDB DDL commits as it goes, so a failed migration stays recorded and blocks every later
     * {@code migrate}), realigns checksums and descriptions with this release's migrations. Changes no table of
     * the product; what a failed migration did before it failed stays, and its next run must cope (the Java ones do).
     *
     * @throws DatabaseUnavailableException when the server cannot be reached or refuses
     */
    public static Repaired repair(String jdbcUrl, String user, String password, Duration timeout) {
        try (HikariDataSource ds = pool(jdbcUrl, user, password, timeout)) {
            RepairResult r = flyway(ds).repair();
            return new Repaired(names(r.migrationsRemoved), names(r.migrationsAligned), names(r.migrationsDeleted));
        } catch (RuntimeException e) {
            throw new DatabaseUnavailableException("cannot repair the migration record of the orders database at "
                    + DatabaseFailures.describe(jdbcUrl) + ": " + DatabaseFailures.rootMessage(e), e);
        }
    }

    private static List<String> names(List<RepairOutput> outputs) {
        return outputs == null ? List.of() : outputs.stream()
                .map(o -> (o.version == null || o.version.isEmpty() ? "R" : "V" + o.version) + " " + o.description).toList();
    }

    private static Flyway flyway(HikariDataSource ds) {
        return Flyway.configure().dataSource(ds)
                .locations("classpath:db/migration", "classpath:com/orderconsole/store/migration")
                // By name: after every migrate the procedures and triggers are made anew under the migrating account
                // (issue 33.7: they die with their definer).
                .callbacks("com.orderconsole.store.migration.RemakeRoutines").load();
    }

    /** Connections the pool holds at most (the follower applies up to 4 buckets at once, each on its own). */
    static final int POOL_SIZE = 8;

    private static HikariDataSource pool(String jdbcUrl, String user, String password, Duration timeout) {
        // A refused connection or an unanswered connect fails here at once, in words.
        DatabaseFailures.probe(jdbcUrl, timeout);
        Properties props = new Properties();
        props.setProperty("user", user);
        props.setProperty("password", password == null ? "" : password);
        // The connect timeout also bounds the server's greeting and the sign-in (no login timeout: DriverConnections): a
        // server that accepted the connection gets the sign-in allowance, so a busy host's slow sign-in is waited for.
        props.setProperty("connectTimeout", Long.toString(DatabaseFailures.signInAllowance(timeout).toMillis()));
        props.setProperty("socketTimeout", Long.toString(Math.max(timeout.toMillis() * 15, 30_000)));
        props.setProperty("rewriteBatchedStatements", "true");
        props.setProperty("cachePrepStmts", "true");
        // The follower's multi-row statements (MultiRowSql, up to ~45,000 characters) are parsed once per
        // connection instead of on every batch (the default limit, 256 characters, left them out of the
        // cache: re-parsing them took a fifth of the follower's CPU). The cache keeps 25 statements per connection.
        props.setProperty("prepStmtCacheSqlLimit", "65536");
        HikariConfig hc = new HikariConfig();
        hc.setDataSource(new DriverConnections(jdbcUrl, props));
        hc.setMaximumPoolSize(POOL_SIZE);
        hc.setMinimumIdle(1);
        hc.setPoolName("orders-db");
        hc.setConnectionTimeout(Math.max(250, timeout.toMillis()));
        hc.setValidationTimeout(Math.max(250, Math.min(timeout.toMillis(), 5000)));
        // The sign-in is one attempt made at once, at the pool's start and not bounded by the pool's wait: a server that
        // fails it fails the start in words; the pool's wait then bounds every later wait for a connection.
        hc.setInitializationFailTimeout(1);
        try {
            return new HikariDataSource(hc);
        } catch (com.zaxxer.hikari.pool.HikariPool.PoolInitializationException e) {
            throw DatabaseFailures.signInFailure(DatabaseFailures.describe(jdbcUrl), e, timeout);
        }
    }

    /**
     * @return true for a signed-in person's session: the audit log, new orders and the order columns a person changes
     *     are written through the V39 procedures, which stamp the session's login as the actor
     */
    public boolean writesStamped() {
        return stamped;
    }

    /**
     * @return true when this session may run the MySQL follower: its account holds {@code order_console_follower}, or
     *     it is the administrator's session of local servers (issue 25: a person's console never writes history in
     *     other people's names)
     */
    public boolean mayFollow() {
        return mayFollow;
    }

    /**
     * Records in {@code console_account} that this session's login signed in (as the follower when {@code follower}).
     * Does nothing for sessions that are not a person's: there every name is the one owner's.
     */
    public void recordSignIn(boolean follower) {
        if (stamped) {
            inTransaction(t -> {
                t.recordSignIn(follower);
                return null;
            });
        }
    }

    /**
     * A MyBatis session on this pool's connections, as {@code SqlSessionFactory.openSession} opens one, over the shared
     * mappers of this server's dialect ({@link #MAPPERS}).
     *
     * @param isolation null for the pool's level
     */
    private SqlSession open(ExecutorType executor, TransactionIsolationLevel isolation, boolean autoCommit) {
        Transaction tx = new JdbcTransaction(dataSource, isolation, autoCommit);
        return new DefaultSqlSession(mappers, mappers.newExecutor(tx, executor), autoCommit);
    }

    /** Runs work in one transaction, committing on success and rolling back on any exception. */
    public <T> T inTransaction(Function<Tables, T> work) {
        try (SqlSession s = open(ExecutorType.SIMPLE, null, false)) {
            Tables t = new Tables(s, stamped);
            T r = work.apply(t);
            t.historyWritten();
            s.commit();
            return r;
        } catch (RuntimeException e) {
            throw wrap(e);
        }
    }

    /**
     * Runs work with a batch executor in one transaction (for bulk inserts): statements are sent at
     * commit, so a write's return value is not known inside the work.
     */
    public <T> T inBatch(Function<Tables, T> work) {
        try (SqlSession s = open(ExecutorType.BATCH, null, false)) {
            Tables t = new Tables(s, stamped);
            T r = work.apply(t);
            s.flushStatements();
            t.historyWritten();
            s.commit();
            return r;
        } catch (RuntimeException e) {
            throw wrap(e);
        }
    }

    /** Runs a read in auto-commit mode. */
    public <T> T read(Function<Tables, T> work) {
        try (SqlSession s = open(ExecutorType.SIMPLE, null, true)) {
            return work.apply(new Tables(s, stamped));
        } catch (RuntimeException e) {
            throw wrap(e);
        }
    }

    /**
     * Runs a read at READ UNCOMMITTED: it sees rows of transactions still open (the change feed asks which ids are in
     * flight, issue 32). Nothing is written; the pool resets the isolation when the connection returns.
     */
    public <T> T readUncommitted(Function<Tables, T> work) {
        try (SqlSession s = open(ExecutorType.SIMPLE, TransactionIsolationLevel.READ_UNCOMMITTED, false)) {
            return work.apply(new Tables(s, stamped));
        } catch (RuntimeException e) {
            throw wrap(e);
        }
    }

    private RuntimeException wrap(RuntimeException e) {
        if (e instanceof DatabaseUnavailableException) {
            return e;
        }
        Throwable t = e;
        while (t != null) {
            if (t instanceof java.sql.SQLTransientConnectionException || t instanceof java.sql.SQLNonTransientConnectionException
                    || t instanceof com.mysql.cj.exceptions.CJCommunicationsException
                    || t instanceof com.mysql.cj.jdbc.exceptions.CommunicationsException) {
                return new DatabaseUnavailableException("MySQL at " + where + " is unreachable: " + DatabaseFailures.rootMessage(e), e);
            }
            if (t instanceof SQLException sql && ACCESS_DENIED.contains(sql.getErrorCode())) {
                return new DatabaseRefusedException(refusal(sql.getMessage()), e);
            }
            if (t instanceof SQLException sql && sql.getErrorCode() == DatabaseFailures.ER_NO_SUCH_USER) {
                // A trigger or procedure whose definer was dropped: the way out, not the server's words (any statement,
                // the follower's raw ones among them).
                return new DatabaseFailedException("MySQL at " + where + " failed a statement: " + DatabaseFailures.DEFINER_GONE, e);
            }
            t = t.getCause();
        }
        if (e instanceof org.apache.ibatis.exceptions.PersistenceException) {
            // MyBatis' report carries its own markup, the statement and Java class names: the server's words instead.
            return new DatabaseFailedException("MySQL at " + where + " failed a statement: " + DatabaseFailures.rootMessage(e), e);
        }
        return e;
    }

    /** @return the server's access-denied message in words: what was refused to which account, and why */
    private String refusal(String serverMessage) {
        Matcher m = TABLE_DENIED.matcher(serverMessage == null ? "" : serverMessage);
        String what = m.find() ? m.group(1).toUpperCase(Locale.ROOT) + " on table " + m.group(2).replaceAll("[`']", "")
                .replaceFirst("^.*\\.", "") : "this operation";
        return "the database refused " + what + " to account '" + account + "': none of its roles grants it";
    }

    /**
     * @return true when a unit of work failed because InnoDB chose it as a deadlock victim or its lock
     *     wait timed out: the whole transaction was rolled back, so running it again is safe
     */
    public static boolean lostDeadlock(Throwable e) {
        for (Throwable t = e; t != null; t = t.getCause()) {
            if (t instanceof java.sql.SQLTransactionRollbackException) {
                return true;
            }
            if (t instanceof SQLException q && (q.getErrorCode() == 1213 || q.getErrorCode() == 1205)) {
                return true;
            }
        }
        return false;
    }

    /** @return true when a connection can be had and answers within the timeout */
    public boolean ping() {
        try (Connection c = dataSource.getConnection()) {
            return c.isValid(2);
        } catch (SQLException | RuntimeException e) {
            return false;
        }
    }

    /** @return "host:port/db" of the server, without user or password */
    public String where() {
        return where;
    }

    /** @return which server this is, for the statements phrased differently on each */
    public SqlDialect dialect() {
        return dialect;
    }

    /**
     * Publishes the connection pool's state into the registry through HikariCP's own Micrometer tracker
     * ({@code hikaricp_connections_active}, {@code _idle}, {@code _pending}, {@code _acquire_seconds}, ... tagged
     * {@code pool="orders-db"}). Once per database; a second call is ignored (Hikari takes one registry).
     *
     * @param registry the process's meter registry
     */
    public synchronized void recordPoolMetrics(io.micrometer.core.instrument.MeterRegistry registry) {
        if (dataSource.getMetricRegistry() == null) {
            dataSource.setMetricRegistry(registry);
        }
    }

    /** Raw pool, for benchmarks that compare against plain SQL. */
    public javax.sql.DataSource dataSource() {
        return dataSource;
    }

    @Override
    public void close() {
        dataSource.close();
    }
}
