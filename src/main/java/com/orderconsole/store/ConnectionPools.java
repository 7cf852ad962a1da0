package com.orderconsole.store;

import com.zaxxer.hikari.HikariConfig;
import com.zaxxer.hikari.HikariDataSource;

import java.time.Duration;

/**
 * Opens the HikariCP pool every {@link Database} runs on: its size, its timeouts, and the Connector/J settings that
 * the follower's batches rely on. Opening asks no server; the first connection is made when a caller takes one.
 */
final class ConnectionPools {
    /** Connections a pool holds at most (the follower applies up to 4 buckets at once, each on its own). */
    static final int POOL_SIZE = 8;

    private ConnectionPools() {
    }

    /**
     * @param jdbcUrl a MySQL JDBC URL
     * @param user database account
     * @param password its password (never logged)
     * @param timeout how long to wait for a connection, a login or a validation (at least 250 ms); a socket read waits
     *     fifteen times as long, at least 30 s
     * @return the pool, named {@code orders-db}
     */
    static HikariDataSource open(String jdbcUrl, String user, String password, Duration timeout) {
        HikariConfig hc = new HikariConfig();
        hc.setJdbcUrl(jdbcUrl);
        hc.setUsername(user);
        hc.setPassword(password);
        hc.setMaximumPoolSize(POOL_SIZE);
        hc.setMinimumIdle(1);
        hc.setPoolName("orders-db");
        hc.setConnectionTimeout(Math.max(250, timeout.toMillis()));
        hc.setValidationTimeout(Math.max(250, Math.min(timeout.toMillis(), 5000)));
        // Fail at once rather than hang when MySQL is down at start; the pool keeps retrying afterwards.
        hc.setInitializationFailTimeout(-1);
        hc.addDataSourceProperty("connectTimeout", Long.toString(timeout.toMillis()));
        hc.addDataSourceProperty("socketTimeout", Long.toString(Math.max(timeout.toMillis() * 15, 30_000)));
        hc.addDataSourceProperty("rewriteBatchedStatements", "true");
        hc.addDataSourceProperty("cachePrepStmts", "true");
        // The follower's multi-row statements (MultiRowSql, up to ~45,000 characters) are parsed once per connection
        // instead of on every batch: the driver caches only statements under this limit (its default, 256 characters,
        // leaves them out and re-parsing costs a fifth of the follower's CPU). The cache keeps 25 statements per connection.
        hc.addDataSourceProperty("prepStmtCacheSqlLimit", "65536");
        return new HikariDataSource(hc);
    }
}
