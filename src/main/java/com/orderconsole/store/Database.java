package com.orderconsole.store;

import com.zaxxer.hikari.HikariDataSource;
import org.apache.ibatis.session.Configuration;
import org.apache.ibatis.session.ExecutorType;
import org.apache.ibatis.session.SqlSession;
import org.apache.ibatis.session.TransactionIsolationLevel;
import org.apache.ibatis.session.defaults.DefaultSqlSession;
import org.apache.ibatis.transaction.Transaction;
import org.apache.ibatis.transaction.jdbc.JdbcTransaction;
import org.flywaydb.core.Flyway;
import org.flywaydb.core.api.exception.FlywayValidateException;
import org.flywaydb.core.api.output.MigrateResult;
import org.flywaydb.core.api.output.RepairResult;

import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.List;
import java.util.function.Function;

/**
 * The MySQL side: opening a pool ({@link ConnectionPools}) with the schema migrated or checked
 * ({@link SchemaMigrations}), and units of work in MyBatis sessions over the shared mappers
 * ({@link MapperConfigurations}), their failures in words ({@link DatabaseFailures}). Works with MySQL 8 and
 * MariaDB 10.6+. Pools of signed-in console accounts never change the schema, and a statement their roles do not
 * grant fails with a {@link DatabaseRefusedException} saying so.
 */
public final class Database implements AutoCloseable {
    /** A statement running longer than this many seconds is cancelled (MyBatis and the plain JDBC of {@link MultiRowSql}). */
    static final int STATEMENT_TIMEOUT_SECONDS = 30;
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
        this.mappers = MapperConfigurations.of(dialect);
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
        HikariDataSource ds = ConnectionPools.open(jdbcUrl, user, password, timeout);
        try {
            SchemaMigrations.migrateUnlessSeen(ds, jdbcUrl + " " + user);
        } catch (RuntimeException e) {
            ds.close();
            throw new DatabaseUnavailableException("cannot open the orders database at " + DatabaseFailures.describe(jdbcUrl) + ": " + DatabaseFailures.rootMessage(e), e);
        }
        return new Database(ds, DatabaseFailures.describe(jdbcUrl), user, false);
    }

    /**
     * Opens a pool for a signed-in console account, which may not change the schema: the schema must
     * already be migrated by a database administrator ({@link #migrate}).
     *
     * @return the database
     * @throws DatabaseUnavailableException when the server cannot be reached or migrations are pending
     */
    public static Database connectSignedIn(String jdbcUrl, String user, String password, Duration timeout) {
        HikariDataSource ds = ConnectionPools.open(jdbcUrl, user, password, timeout);
        String where = DatabaseFailures.describe(jdbcUrl);
        if (SchemaHistory.upToDate(ds)) {
            return new Database(ds, where, user, true);
        }
        List<String> pending;
        try {
            pending = SchemaMigrations.pending(ds);
        } catch (RuntimeException e) {
            ds.close();
            throw new DatabaseUnavailableException("cannot open the orders database at " + where + ": " + DatabaseFailures.rootMessage(e), e);
        }
        if (!pending.isEmpty()) {
            ds.close();
            throw new DatabaseUnavailableException("the orders database at " + where + " lacks " + pending.size()
                    + " schema migration" + (pending.size() == 1 ? "" : "s") + " (" + String.join(", ", pending)
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
        try (HikariDataSource ds = ConnectionPools.open(jdbcUrl, user, password, timeout)) {
            List<String> missing;
            Flyway flyway = SchemaMigrations.flyway(ds);
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
        try (HikariDataSource ds = ConnectionPools.open(jdbcUrl, user, password, timeout)) {
            RepairResult r = SchemaMigrations.flyway(ds).repair();
            return new Repaired(SchemaMigrations.names(r.migrationsRemoved), SchemaMigrations.names(r.migrationsAligned),
                    SchemaMigrations.names(r.migrationsDeleted));
        } catch (RuntimeException e) {
            throw new DatabaseUnavailableException("cannot repair the migration record of the orders database at "
                    + DatabaseFailures.describe(jdbcUrl) + ": " + DatabaseFailures.rootMessage(e), e);
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
     *     it is the administrator's session of local servers (a person's console never writes history in other people's
     *     names)
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
     * mappers of this server's dialect ({@link MapperConfigurations}).
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
            throw DatabaseFailures.translate(e, where, account);
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
            throw DatabaseFailures.translate(e, where, account);
        }
    }

    /** Runs a read in auto-commit mode. */
    public <T> T read(Function<Tables, T> work) {
        try (SqlSession s = open(ExecutorType.SIMPLE, null, true)) {
            return work.apply(new Tables(s, stamped));
        } catch (RuntimeException e) {
            throw DatabaseFailures.translate(e, where, account);
        }
    }

    /**
     * Runs a read at READ UNCOMMITTED: it sees rows of transactions still open (the change feed asks which ids are in
     * flight). Nothing is written; the pool resets the isolation when the connection returns.
     */
    public <T> T readUncommitted(Function<Tables, T> work) {
        try (SqlSession s = open(ExecutorType.SIMPLE, TransactionIsolationLevel.READ_UNCOMMITTED, false)) {
            return work.apply(new Tables(s, stamped));
        } catch (RuntimeException e) {
            throw DatabaseFailures.translate(e, where, account);
        }
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
