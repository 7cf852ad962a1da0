package com.orderconsole.bench;

import com.orderconsole.domain.OrderState;
import com.orderconsole.embedded.EmbeddedMariaDb;
import com.orderconsole.embedded.EmbeddedRedis;
import com.orderconsole.redis.RedisConnection;
import com.orderconsole.redis.RedisStores;
import com.orderconsole.app.Services;
import com.orderconsole.store.Database;
import io.lettuce.core.RedisClient;
import io.lettuce.core.api.StatefulRedisConnection;
import io.lettuce.core.api.async.RedisAsyncCommands;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.IntFunction;
import java.util.stream.Stream;

/**
 * The benchmark's own servers (embedded Redis and MariaDB on loopback under {@code bench.dir}, data
 * wiped at start) and connections, plus bulk seeding that bypasses order creation: pipelined
 * init_order.lua in Redis and batched multi-row INSERTs in MySQL.
 */
final class BenchEnv implements AutoCloseable {
    /** Default payment deadline of the services built here. */
    static final Duration PAYMENT_TIMEOUT = Duration.ofMinutes(30);
    /** Connections that seed MySQL side by side: one left MariaDB's second core idle while Redis' half was done. */
    static final int MYSQL_SEED_THREADS = 2;

    final EmbeddedRedis redisServer;
    final EmbeddedMariaDb mariaDb;
    final RedisStores stores;
    /** The product's connection: server clock and waiting on futures. */
    final RedisConnection redis;
    /** A second, plain Lettuce connection for commands that measure the server itself (not product code). */
    final RedisAsyncCommands<String, String> raw;
    private final RedisClient rawClient;
    private final StatefulRedisConnection<String, String> rawConnection;
    final Database db;
    private Services services;
    /** Wall time of the last {@link #seed}'s Redis half and MySQL half, milliseconds. */
    long lastSeedRedisMs;
    long lastSeedMysqlMs;

    private BenchEnv(EmbeddedRedis redisServer, EmbeddedMariaDb mariaDb, RedisStores stores, Database db) {
        this.redisServer = redisServer;
        this.mariaDb = mariaDb;
        this.stores = stores;
        this.redis = stores.connection();
        this.rawClient = RedisClient.create(redisServer.uri());
        this.rawConnection = rawClient.connect();
        this.raw = rawConnection.async();
        this.db = db;
    }

    /** Starts both servers in {@code dir} (Redis data and MariaDB data wiped first) and connects. */
    static BenchEnv start(Path dir) {
        deleteTree(dir.resolve("redis"));
        deleteTree(dir.resolve("mariadb").resolve("data"));
        EmbeddedRedis r = new EmbeddedRedis(dir.resolve("redis"), 0).start();
        // A buffer pool that holds 1M orders with their indexes; commit flushed to the OS every
        // commit and fsynced once a second, the same durability as Redis' appendfsync everysec.
        List<String> args = new ArrayList<>(List.of("--innodb-buffer-pool-size=2G", "--innodb-log-file-size=512M",
                "--innodb-flush-log-at-trx-commit=2", "--max-connections=100"));
        // Server settings to try without an edit, e.g. -Dbench.jvmArg=-Dbench.mariadbArgs=--innodb-adaptive-hash-index=ON
        for (String a : System.getProperty("bench.mariadbArgs", "").split(",")) {
            if (!a.isBlank()) {
                args.add(a.trim());
            }
        }
        EmbeddedMariaDb m = new EmbeddedMariaDb(dir.resolve("mariadb"), 0, args.toArray(String[]::new)).start();
        RedisStores store = RedisStores.connect(r.uri(), Duration.ofSeconds(5));
        Database db = Database.connect(m.jdbcUrl(), "root", "", Duration.ofSeconds(5));
        return new BenchEnv(r, m, store, db);
    }

    /**
     * Empties both stores (FLUSHALL, TRUNCATE: benchmark data only) and returns a new service layer
     * with the default rules and no background jobs; the previous one is closed.
     */
    Services fresh() {
        if (services != null) {
            services.close();
        }
        redis.await(raw.flushall(), "FLUSHALL");
        sql("TRUNCATE TABLE orders", "TRUNCATE TABLE order_history", "TRUNCATE TABLE sync_cursor", "TRUNCATE TABLE dataset_identity");
        services = Services.create(stores, db, PAYMENT_TIMEOUT);
        services.rules().ensureSeeded();
        // An empty Redis has no data-set marker: the follower and the sweeper wait for one (issue 11).
        // Maintenance pairs the two stores and sets it, as at an engine's start.
        services.maintenance().recoverIfRedisLostData();
        return services;
    }

    /**
     * Waits until the servers are idle, so that a scenario measures its own load: a full GC of this JVM first, then
     * (at most 60 s) until MariaDB and Redis each used under 5 % of a core in the last second and no Redis child runs.
     * Before this, a scenario could run into the InnoDB page flushing and purge of the one before it, or an AOF
     * rewrite set off by its own seeding (issue 15, seventh pass: the script's calls/s fell by half after the MySQL
     * scenarios, and not the article's).
     *
     * @return seconds waited
     */
    double settle() {
        long t0 = System.nanoTime();
        System.gc();
        CpuMeter meter = new CpuMeter(this);
        CpuMeter.Snapshot before = meter.now();
        while (System.nanoTime() - t0 < TimeUnit.SECONDS.toNanos(60)) {
            try {
                Thread.sleep(1000);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                break;
            }
            CpuMeter.Snapshot after = meter.now();
            Map<String, String> persistence = info("persistence");
            boolean child = "1".equals(persistence.get("aof_rewrite_in_progress")) || "1".equals(persistence.get("rdb_bgsave_in_progress"));
            boolean quiet = after.mariaDb() - before.mariaDb() < 0.05 && after.redis() - before.redis() < 0.05 && !child;
            before = after;
            if (quiet) {
                break;
            }
        }
        return (System.nanoTime() - t0) / 1e9;
    }

    /** Runs statements in auto-commit mode. */
    void sql(String... statements) {
        try (Connection c = db.dataSource().getConnection(); Statement st = c.createStatement()) {
            for (String s : statements) {
                st.execute(s);
            }
        } catch (SQLException e) {
            throw new IllegalStateException(e.getMessage(), e);
        }
    }

    /** @return the first column of the first row of a query with one parameter, or null for no row */
    Object sqlValue(String query, Object parameter) {
        try (Connection c = db.dataSource().getConnection(); java.sql.PreparedStatement ps = c.prepareStatement(query)) {
            ps.setObject(1, parameter);
            try (ResultSet rs = ps.executeQuery()) {
                return rs.next() ? rs.getObject(1) : null;
            }
        } catch (SQLException e) {
            throw new IllegalStateException(e.getMessage(), e);
        }
    }

    /** @return the first column of the first row of a query, or null */
    Object sqlValue(String query) {
        try (Connection c = db.dataSource().getConnection(); Statement st = c.createStatement();
             ResultSet rs = st.executeQuery(query)) {
            return rs.next() ? rs.getObject(1) : null;
        } catch (SQLException e) {
            throw new IllegalStateException(e.getMessage(), e);
        }
    }

    /** @return one INFO section parsed into field to value */
    Map<String, String> info(String section) {
        Map<String, String> out = new HashMap<>();
        for (String line : redis.await(raw.info(section), "INFO").split("\r?\n")) {
            int c = line.indexOf(':');
            if (c > 0 && !line.startsWith("#")) {
                out.put(line.substring(0, c), line.substring(c + 1).trim());
            }
        }
        return out;
    }

    /** One seeded order: its Redis state, the cancel-queue expiry (null = none) and the MySQL side. */
    record Seed(OrderState state, Long expireAtMs, boolean inRedis, boolean inMysql, int mysqlStatus, long mysqlVersion) {
        static Seed both(OrderState s, Long expireAtMs) {
            return new Seed(s, expireAtMs, true, true, s.status().code(), s.version());
        }
    }

    /**
     * Writes orders 0..count-1 to Redis (pipelined init_order.lua, 4,096 in flight) and MySQL (batches of
     * 2,000 rows sent as multi-row INSERTs, {@link #MYSQL_SEED_THREADS} connections taking alternate
     * batches), both at once. How long each half took is kept in {@link #lastSeedRedisMs} and
     * {@link #lastSeedMysqlMs}.
     *
     * @return wall time, milliseconds
     */
    long seed(int count, IntFunction<Seed> gen) {
        long t0 = System.currentTimeMillis();
        AtomicReference<Throwable> mysqlFailure = new AtomicReference<>();
        List<Thread> mysql = new ArrayList<>();
        long[] mysqlDone = new long[1];
        for (int part = 0; part < MYSQL_SEED_THREADS; part++) {
            int p = part;
            Thread t = new Thread(() -> {
                try {
                    seedMysql(count, gen, p);
                } catch (Throwable e) {
                    mysqlFailure.compareAndSet(null, e);
                }
                synchronized (mysqlDone) {
                    mysqlDone[0] = Math.max(mysqlDone[0], System.currentTimeMillis());
                }
            }, "seed-mysql-" + part);
            t.start();
            mysql.add(t);
        }
        seedRedis(count, gen);
        lastSeedRedisMs = System.currentTimeMillis() - t0;
        try {
            for (Thread t : mysql) {
                t.join();
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
        if (mysqlFailure.get() != null) {
            throw new IllegalStateException("MySQL seeding failed: " + mysqlFailure.get().getMessage(), mysqlFailure.get());
        }
        lastSeedMysqlMs = mysqlDone[0] - t0;
        return System.currentTimeMillis() - t0;
    }

    /** Redis half of {@link #seed}. */
    void seedRedis(int count, IntFunction<Seed> gen) {
        Semaphore inFlight = new Semaphore(4096);
        AtomicReference<Throwable> failure = new AtomicReference<>();
        try {
            for (int i = 0; i < count && failure.get() == null; i++) {
                Seed s = gen.apply(i);
                if (!s.inRedis()) {
                    continue;
                }
                if (!inFlight.tryAcquire(30, TimeUnit.SECONDS)) {
                    throw new IllegalStateException("Redis seeding stalled");
                }
                stores.orders().initOrderAsync(s.state(), s.expireAtMs()).whenComplete((ok, e) -> {
                    if (e != null) {
                        failure.compareAndSet(null, e);
                    }
                    inFlight.release();
                });
            }
            if (!inFlight.tryAcquire(4096, 60, TimeUnit.SECONDS)) {
                throw new IllegalStateException("Redis seeding did not finish");
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
        if (failure.get() != null) {
            throw new IllegalStateException("Redis seeding failed: " + failure.get().getMessage(), failure.get());
        }
    }

    private void seedMysql(int count, IntFunction<Seed> gen, int part) throws SQLException {
        try (Connection c = db.dataSource().getConnection()) {
            c.setAutoCommit(false);
            // The connection pool sets rewriteBatchedStatements, so each batch goes as multi-row INSERTs.
            try (PreparedStatement ps = c.prepareStatement("INSERT INTO orders (order_id, customer_id, status, version, "
                    + "created_at_ms, status_since_ms, expire_at_ms, redis_ready) VALUES (?, NULL, ?, ?, ?, ?, ?, 1)")) {
                int pending = 0;
                for (int i = 0; i < count; i++) {
                    if ((i / 2000) % MYSQL_SEED_THREADS != part) {
                        i += 1999 - i % 2000;
                        continue;
                    }
                    Seed s = gen.apply(i);
                    if (!s.inMysql()) {
                        continue;
                    }
                    OrderState st = s.state();
                    ps.setString(1, st.orderId());
                    ps.setInt(2, s.mysqlStatus());
                    ps.setLong(3, s.mysqlVersion());
                    ps.setLong(4, st.createTimeMs());
                    ps.setLong(5, st.updateTimeMs());
                    if (s.mysqlStatus() == 1) {
                        ps.setLong(6, s.expireAtMs() != null ? s.expireAtMs() : st.updateTimeMs() + PAYMENT_TIMEOUT.toMillis());
                    } else {
                        ps.setNull(6, java.sql.Types.BIGINT);
                    }
                    ps.addBatch();
                    if (++pending == 2000) {
                        ps.executeBatch();
                        c.commit();
                        pending = 0;
                    }
                }
                if (pending > 0) {
                    ps.executeBatch();
                    c.commit();
                }
            }
        }
    }

    static void deleteTree(Path p) {
        if (!Files.exists(p)) {
            return;
        }
        try (Stream<Path> s = Files.walk(p)) {
            s.sorted(Comparator.reverseOrder()).forEach(x -> x.toFile().delete());
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    @Override
    public void close() {
        if (services != null) {
            services.close();
        }
        rawConnection.close();
        rawClient.shutdown();
        stores.close();
        db.close();
        redisServer.stop();
        mariaDb.stop();
    }
}
