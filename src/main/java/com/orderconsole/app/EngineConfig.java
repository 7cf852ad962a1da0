package com.orderconsole.app;

import com.orderconsole.app.Messages;
import com.orderconsole.domain.Role;
import com.orderconsole.app.Services;

import java.nio.file.Path;
import java.time.Duration;

/**
 * How to reach the servers, who signs in, and how to tune the engine.
 *
 * @param redisUri Redis URI, or null to start embedded Redis
 * @param jdbcUrl JDBC URL of the orders schema, or null to start embedded MariaDB
 * @param dbUser database account to sign in with (external servers)
 * @param dbPassword its password (from an environment variable, a prompt or the sign-in dialog; never logged)
 * @param role the role to work in, only ever lower than the account's; null for the highest it holds
 *     (admin on local servers)
 * @param localIdentity true when the servers named by the URIs are the OS user's own, like the embedded
 *     ones (test fixtures, benchmarks): nobody signs in and the OS user is the local admin. Never set
 *     from the command line.
 * @param dataDir where the embedded servers keep their data
 * @param commandTimeout how long one Redis or MySQL call may take before it fails
 * @param sweepInterval cancel sweeper period (1 s by default); null to run no sweeper in this process
 * @param followerIdle the MySQL follower drains at least this often; null to run no follower in this process
 * @param paymentTimeout default payment deadline of new orders
 * @param buckets bucket count for a data set not yet initialised ({@code --buckets}); null for 16 on one
 *     server, 64 on a Redis Cluster. Against an initialised data set it must be null or its count.
 * @param terminalRetention how long a FINISHED or CANCELLED order stays in Redis after it became terminal
 *     ({@code --terminal-retention}, default 7 days); MySQL keeps it forever and Redis rebuilds it on access
 */
public record EngineConfig(String redisUri, String jdbcUrl, String dbUser, String dbPassword, Role role,
                           boolean localIdentity, Path dataDir, Duration commandTimeout, Duration sweepInterval,
                           Duration followerIdle, Duration paymentTimeout, Integer buckets, Duration terminalRetention) {


    /** Most buckets a data set may have ({@code --buckets}); the key layout's limit. */
    public static final int MAX_BUCKETS = com.orderconsole.redis.RedisKeys.MAX_BUCKETS;

    /** @return the default per-user data directory: $XDG_DATA_HOME/order-console or ~/.local/share/order-console */
    public static Path defaultDataDir() {
        return defaultDataDir(System::getenv, ConfigDir.home());
    }

    /**
     * @param env environment lookup, e.g. {@code System::getenv}
     * @param home the user's home directory ({@link ConfigDir#home()})
     * @return {@code $XDG_DATA_HOME/order-console}, else {@code home/.local/share/order-console} (XDG Base Directory spec)
     */
    static Path defaultDataDir(java.util.function.Function<String, String> env, String home) {
        String xdg = env.apply("XDG_DATA_HOME");
        Path base = xdg != null && !xdg.isBlank() ? Path.of(xdg) : Path.of(home, ".local", "share");
        return base.resolve("order-console");
    }

    /** Embedded servers in the default data directory, background jobs on, 2 s command timeout. */
    public static EngineConfig embeddedDefault() {
        return new EngineConfig(null, null, "root", "", null, false, defaultDataDir(), Duration.ofSeconds(2),
                Duration.ofSeconds(1), Duration.ofMillis(200), Duration.ofMinutes(30), null, Services.DEFAULT_TERMINAL_RETENTION);
    }

    /** @return true when an operator must sign in with a database account: external servers that are not the OS user's own */
    public boolean signInRequired() {
        return jdbcUrl != null && !localIdentity;
    }

    /** @return where the database is, for people: "host:port/schema" (never an account or parameters), or "embedded" */
    public String databaseWhere() {
        if (jdbcUrl == null) {
            return "embedded";
        }
        String s = jdbcUrl.replaceFirst("^jdbc:[a-z]+://", "").replaceFirst("\\?.*$", "");
        return s.substring(s.lastIndexOf('@') + 1);
    }

    public EngineConfig withDataDir(Path dir) {
        return new EngineConfig(redisUri, jdbcUrl, dbUser, dbPassword, role, localIdentity, dir, commandTimeout,
                sweepInterval, followerIdle, paymentTimeout, buckets, terminalRetention);
    }

    /**
     * Checks a Redis URI's form without asking any server.
     *
     * @throws IllegalArgumentException in words naming what is wrong, any password masked
     */
    public static void requireRedisUri(String redisUri) {
        com.orderconsole.redis.RedisConnection.requireUri(redisUri);
    }

    /**
     * Checks a JDBC URL's form without asking any server.
     *
     * @throws IllegalArgumentException in words naming what is wrong, without its parameters or credentials
     */
    public static void requireJdbcUrl(String jdbcUrl) {
        com.orderconsole.store.Database.requireJdbcUrl(jdbcUrl);
    }

    /** Other servers and account; whether the identity is local stays as it was. */
    public EngineConfig withServers(String redis, String jdbc, String user, String password) {
        return new EngineConfig(redis, jdbc, user, password, role, localIdentity, dataDir, commandTimeout,
                sweepInterval, followerIdle, paymentTimeout, buckets, terminalRetention);
    }

    /** The account to sign in with. */
    public EngineConfig withAccount(String user, String password) {
        return new EngineConfig(redisUri, jdbcUrl, user, password, role, localIdentity, dataDir, commandTimeout,
                sweepInterval, followerIdle, paymentTimeout, buckets, terminalRetention);
    }

    /** @param lowered the role to work in (null: the highest the account holds) */
    public EngineConfig withRole(Role lowered) {
        return new EngineConfig(redisUri, jdbcUrl, dbUser, dbPassword, lowered, localIdentity, dataDir, commandTimeout,
                sweepInterval, followerIdle, paymentTimeout, buckets, terminalRetention);
    }

    /** The servers are the OS user's own: no sign-in, the OS user is the local admin (see {@link #localIdentity()}). */
    public EngineConfig withLocalIdentity() {
        return new EngineConfig(redisUri, jdbcUrl, dbUser, dbPassword, role, true, dataDir, commandTimeout,
                sweepInterval, followerIdle, paymentTimeout, buckets, terminalRetention);
    }

    public EngineConfig withBackgroundJobs(Duration sweep, Duration sync) {
        return new EngineConfig(redisUri, jdbcUrl, dbUser, dbPassword, role, localIdentity, dataDir, commandTimeout,
                sweep, sync, paymentTimeout, buckets, terminalRetention);
    }

    /** @param count bucket count for a data set not yet initialised (null: 16 on one server, 64 on a cluster) */
    public EngineConfig withBuckets(Integer count) {
        return new EngineConfig(redisUri, jdbcUrl, dbUser, dbPassword, role, localIdentity, dataDir, commandTimeout,
                sweepInterval, followerIdle, paymentTimeout, count, terminalRetention);
    }

    /** @param retention how long terminal orders stay in Redis after they became terminal (positive) */
    public EngineConfig withTerminalRetention(Duration retention) {
        if (retention == null || retention.isNegative() || retention.isZero()) {
            throw new IllegalArgumentException("the terminal retention must be a positive duration, e.g. 7d or 12h; got "
                    + retention);
        }
        return new EngineConfig(redisUri, jdbcUrl, dbUser, dbPassword, role, localIdentity, dataDir, commandTimeout,
                sweepInterval, followerIdle, paymentTimeout, buckets, retention);
    }

    public EngineConfig withCommandTimeout(Duration timeout) {
        return new EngineConfig(redisUri, jdbcUrl, dbUser, dbPassword, role, localIdentity, dataDir, timeout,
                sweepInterval, followerIdle, paymentTimeout, buckets, terminalRetention);
    }

    /**
     * External servers come as a pair: a Redis without its MySQL (or the reverse) would be paired with a
     * fresh embedded server, and the follower would apply real transitions into a throwaway database.
     *
     * @throws IllegalArgumentException when exactly one of the Redis URI and the JDBC URL is given
     */
    public void requireBothOrNeither() {
        if (redisUri == null && jdbcUrl != null) {
            throw new IllegalArgumentException(Messages.get("common.servers.mysqlOnly"));
        }
        if (redisUri != null && jdbcUrl == null) {
            throw new IllegalArgumentException(Messages.get("common.servers.redisOnly"));
        }
    }

    @Override
    public String toString() {
        // Never print the password.
        return "EngineConfig[redis=" + (redisUri == null ? "embedded" : redisUri.replaceAll("//[^@/]*@", "//***@"))
                + ", jdbc=" + (jdbcUrl == null ? "embedded" : jdbcUrl.replaceAll("(?i)password=[^&]*", "password=***"))
                + (signInRequired() ? ", account=" + dbUser : "") + (role == null ? "" : ", role=" + role.label())
                + ", dataDir=" + dataDir + "]";
    }
}
