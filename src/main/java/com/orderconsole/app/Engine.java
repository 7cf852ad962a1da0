package com.orderconsole.app;

import com.orderconsole.embedded.EmbeddedMariaDb;
import com.orderconsole.embedded.EmbeddedRedis;
import com.orderconsole.redis.RedisStores;
import com.orderconsole.service.Services;
import com.orderconsole.store.Database;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.time.Duration;

/**
 * Starts everything the console and the CLI need: embedded servers when no URIs are given, the Redis
 * and MySQL connections, the rules, and (when configured) the cancel sweeper and the MySQL follower.
 * Callers use {@link #services()} only; they never see a connection.
 */
public final class Engine implements AutoCloseable {
    private static final Logger log = LoggerFactory.getLogger(Engine.class);

    private final EmbeddedRedis embeddedRedis;
    private final EmbeddedMariaDb embeddedDb;
    private final RedisStores redis;
    private final Database db;
    private final Services services;
    private final DataDirLease lease;

    private Engine(EmbeddedRedis er, EmbeddedMariaDb edb, RedisStores redis, Database db, Services services,
                   DataDirLease lease) {
        this.lease = lease;
        this.embeddedRedis = er;
        this.embeddedDb = edb;
        this.redis = redis;
        this.db = db;
        this.services = services;
    }

    /**
     * Starts the engine.
     *
     * @param config servers and tuning; null URIs start embedded servers in {@code config.dataDir()}
     * @return a running engine; close it to stop jobs, connections and embedded servers
     * @throws RuntimeException with a message naming the server that could not be reached
     */
    public static Engine start(EngineConfig config) {
        log.info("starting engine: {}", config);
        EmbeddedRedis er = null;
        EmbeddedMariaDb edb = null;
        RedisStores redis = null;
        Database db = null;
        DataDirLease lease = null;
        boolean longLived = config.sweepInterval() != null;
        try {
            config.requireBothOrNeither();
            String redisUri = config.redisUri();
            String jdbc = config.jdbcUrl();
            if (redisUri == null && jdbc == null) {
                DataDirLease.Outcome o = DataDirLease.acquire(config.dataDir(), longLived);
                lease = o.lease();
                if (o.running() != null) {
                    redisUri = "redis://127.0.0.1:" + o.running().redisPort();
                    jdbc = "jdbc:mysql://127.0.0.1:" + o.running().mariaDbPort() + "/" + EmbeddedMariaDb.SCHEMA
                            + "?sslMode=DISABLED&allowPublicKeyRetrieval=true";
                }
            }
            if (redisUri == null) {
                er = new EmbeddedRedis(config.dataDir().resolve("redis"), 0).start();
                redisUri = er.uri();
            }
            String user = config.dbUser();
            String password = config.dbPassword();
            if (jdbc == null) {
                edb = new EmbeddedMariaDb(config.dataDir().resolve("mariadb"), 0).start();
                jdbc = edb.jdbcUrl();
            }
            if (config.jdbcUrl() == null) {
                user = "root";
                password = "";
            }
            if (lease != null) {
                lease.publish(er.port(), edb.port(), longLived);
            }
            redis = RedisStores.connect(redisUri, config.commandTimeout());
            db = Database.connect(jdbc, user, password, config.commandTimeout());
            Services services = Services.create(redis, db, config.paymentTimeout());
            services.dataset().verifyPairing();
            services.rules().ensureSeeded();
            services.maintenance().recoverIfRedisLostData();
            if (config.syncIdle() != null) {
                services.follower().start(config.syncIdle());
                services.maintenance().start(Duration.ofSeconds(5));
            }
            if (config.sweepInterval() != null) {
                services.sweeper().start(config.sweepInterval());
            }
            return new Engine(er, edb, redis, db, services, lease);
        } catch (RuntimeException e) {
            if (redis != null) {
                redis.close();
            }
            if (db != null) {
                db.close();
            }
            if (er != null) {
                er.stop();
            }
            if (edb != null) {
                edb.stop();
            }
            if (lease != null) {
                lease.close();
            }
            throw e;
        }
    }

    /** @return the service layer */
    public Services services() {
        return services;
    }

    /** @return true when this engine started its own Redis and MariaDB */
    public boolean embedded() {
        return embeddedRedis != null || embeddedDb != null;
    }

    @Override
    public void close() {
        services.close();
        redis.close();
        db.close();
        if (embeddedRedis != null) {
            embeddedRedis.stop();
        }
        if (embeddedDb != null) {
            embeddedDb.stop();
        }
        if (lease != null) {
            lease.close();
        }
        log.info("engine stopped");
    }
}
