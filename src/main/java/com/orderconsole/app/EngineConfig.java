package com.orderconsole.app;

import java.nio.file.Path;
import java.time.Duration;

/**
 * How to reach the servers and tune the engine.
 *
 * @param redisUri Redis URI, or null to start embedded Redis
 * @param jdbcUrl JDBC URL of the orders schema, or null to start embedded MariaDB
 * @param dbUser database user (external mode)
 * @param dbPassword database password (external mode; read from an environment variable, never logged)
 * @param dataDir where the embedded servers keep their data
 * @param commandTimeout how long one Redis or MySQL call may take before it fails
 * @param sweepInterval cancel sweeper period (1 s by default); null to run no sweeper in this process
 * @param syncIdle the MySQL follower drains at least this often; null to run no follower in this process
 * @param paymentTimeout default payment deadline of new orders
 */
public record EngineConfig(String redisUri, String jdbcUrl, String dbUser, String dbPassword, Path dataDir,
                           Duration commandTimeout, Duration sweepInterval, Duration syncIdle, Duration paymentTimeout) {

    /** @return the default per-user data directory: $XDG_DATA_HOME/order-console or ~/.local/share/order-console */
    public static Path defaultDataDir() {
        String xdg = System.getenv("XDG_DATA_HOME");
        Path base = xdg != null && !xdg.isBlank() ? Path.of(xdg) : Path.of(System.getProperty("user.home"), ".local", "share");
        return base.resolve("order-console");
    }

    /** Embedded servers in the default data directory, background jobs on, 2 s command timeout. */
    public static EngineConfig embeddedDefault() {
        return new EngineConfig(null, null, "root", "", defaultDataDir(), Duration.ofSeconds(2), Duration.ofSeconds(1),
                Duration.ofMillis(200), Duration.ofMinutes(30));
    }

    public EngineConfig withDataDir(Path dir) {
        return new EngineConfig(redisUri, jdbcUrl, dbUser, dbPassword, dir, commandTimeout, sweepInterval, syncIdle, paymentTimeout);
    }

    public EngineConfig withServers(String redis, String jdbc, String user, String password) {
        return new EngineConfig(redis, jdbc, user, password, dataDir, commandTimeout, sweepInterval, syncIdle, paymentTimeout);
    }

    public EngineConfig withBackgroundJobs(Duration sweep, Duration sync) {
        return new EngineConfig(redisUri, jdbcUrl, dbUser, dbPassword, dataDir, commandTimeout, sweep, sync, paymentTimeout);
    }

    public EngineConfig withCommandTimeout(Duration timeout) {
        return new EngineConfig(redisUri, jdbcUrl, dbUser, dbPassword, dataDir, timeout, sweepInterval, syncIdle, paymentTimeout);
    }

    /**
     * External servers come as a pair: a Redis without its MySQL (or the reverse) would be paired with a
     * fresh embedded server, and the follower would apply real transitions into a throwaway database.
     *
     * @throws IllegalArgumentException when exactly one of the Redis URI and the JDBC URL is given
     */
    public void requireBothOrNeither() {
        if (redisUri == null && jdbcUrl != null) {
            throw new IllegalArgumentException("a MySQL URL was given without a Redis URI: give both (external servers) "
                    + "or neither (the embedded servers of the data directory); mixing one external server with an "
                    + "embedded one would split the system");
        }
        if (redisUri != null && jdbcUrl == null) {
            throw new IllegalArgumentException("a Redis URI was given without a MySQL URL: give both (external servers) "
                    + "or neither (the embedded servers of the data directory); mixing one external server with an "
                    + "embedded one would split the system");
        }
    }

    @Override
    public String toString() {
        // Never print the password.
        return "EngineConfig[redis=" + (redisUri == null ? "embedded" : redisUri.replaceAll("//[^@/]*@", "//***@"))
                + ", jdbc=" + (jdbcUrl == null ? "embedded" : jdbcUrl.replaceAll("(?i)password=[^&]*", "password=***"))
                + ", dataDir=" + dataDir + "]";
    }
}
