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
        // A refused connection or an unanswered connect fails here at once, in words.
        DatabaseFailures.probe(jdbcUrl, timeout);
        java.util.Properties props = new java.util.Properties();
        props.setProperty("user", user);
        props.setProperty("password", password == null ? "" : password);
        // The connect timeout also bounds the server's greeting and the sign-in (no login timeout: DriverConnections): a
        // server that accepted the connection gets the sign-in allowance, so a busy host's slow sign-in is waited for.
        props.setProperty("connectTimeout", Long.toString(DatabaseFailures.signInAllowance(timeout).toMillis()));
        props.setProperty("socketTimeout", Long.toString(Math.max(timeout.toMillis() * 15, 30_000)));
        props.setProperty("rewriteBatchedStatements", "true");
        props.setProperty("cachePrepStmts", "true");
        // The follower's multi-row statements (MultiRowSql, up to ~45,000 characters) are parsed once per connection
        // instead of on every batch: the driver caches only statements under this limit (its default, 256 characters,
        // leaves them out and re-parsing costs a fifth of the follower's CPU). The cache keeps 25 statements per connection.
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
}
