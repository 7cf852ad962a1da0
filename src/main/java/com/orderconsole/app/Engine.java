package com.orderconsole.app;

import com.orderconsole.app.Messages;
import com.orderconsole.domain.Operator;
import com.orderconsole.domain.Role;
import com.orderconsole.embedded.EmbeddedMariaDb;
import com.orderconsole.embedded.EmbeddedRedis;
import com.orderconsole.redis.RedisStores;
import com.orderconsole.app.Services;
import com.orderconsole.service.audit.AuditService;
import com.orderconsole.service.maintenance.DataSetIdentity;
import com.orderconsole.store.Database;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.time.Duration;
import java.util.List;
import java.util.Objects;

/**
 * Starts everything the console and the CLI need: embedded servers when no URIs are given, the Redis
 * and MySQL connections, the rules, and (when configured) the cancel sweeper and the MySQL follower.
 * Against external servers it first signs the operator in ({@link SignIn}). Callers use
 * {@link #services()} and {@link #operator()} only; they never see a connection.
 *
 * <p>A session writes only what its role allows: read-only sessions run no background jobs; support
 * sessions run the sweeper, and the follower where they may ({@code Follower#appliesHere}: on servers that check
 * accounts, only an account holding order_console_follower); the rules seeding runs in ops and admin sessions, the
 * recovery after a Redis data loss and the maintenance job in those that also run the follower.
 */
public final class Engine implements AutoCloseable {
    private static final Logger log = LoggerFactory.getLogger(Engine.class);

    private final EmbeddedRedis embeddedRedis;
    private final EmbeddedMariaDb embeddedDb;
    private final RedisStores redis;
    private final Database db;
    /** Null when started on MySQL only. */
    private final Services services;
    private final AuditService audit;
    private final DataDirLease lease;
    private final Operator operator;

    private Engine(EmbeddedRedis er, EmbeddedMariaDb edb, RedisStores redis, Database db, Services services,
                   AuditService audit, DataDirLease lease, Operator operator) {
        this.audit = audit;
        this.lease = lease;
        this.operator = operator;
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
     * @throws SignInException when the account may not sign in (nothing is started or written then)
     * @throws RuntimeException with a message naming the server that could not be reached
     */
    public static Engine start(EngineConfig config) {
        return start(config, true);
    }

    /**
     * Starts the engine on MySQL alone, for commands that read only the durable record ({@code audit}): Redis is
     * not connected, so they answer while it is down. Embedded servers start as for {@link #start}.
     *
     * @param config servers and account, as for {@link #start}
     * @return a running engine whose {@link #audit()} works and whose {@link #services()} refuses
     * @throws SignInException when the account may not sign in
     * @throws RuntimeException with a message naming the database that could not be reached
     */
    public static Engine startOnMySqlOnly(EngineConfig config) {
        return start(config, false);
    }

    private static Engine start(EngineConfig config, boolean withRedis) {
        LibraryLogs.quiet();
        log.info("starting engine{}: {}", withRedis ? "" : " on MySQL only", config);
        // Before any server is touched: a half-external configuration or a refused sign-in changes nothing.
        config.requireBothOrNeither();
        Operator operator = SignIn.verify(config);
        Parts p = new Parts();
        try {
            p.reachServers(config);
            p.db = config.signInRequired() ? Database.connectSignedIn(p.jdbc, p.user, p.password, config.commandTimeout())
                    : Database.connect(p.jdbc, p.user, p.password, config.commandTimeout());
            if (!withRedis) {
                return new Engine(p.er, p.edb, null, p.db, null, AuditService.onMySqlOnly(p.db), p.lease, operator);
            }
            p.redis = RedisStores.connect(p.redisUri, config.commandTimeout());
            Services services = startServices(config, p.redis, p.db, operator);
            log.info("working as {}", operator.describe());
            return new Engine(p.er, p.edb, p.redis, p.db, services, services.audit(), p.lease, operator);
        } catch (RuntimeException e) {
            p.close();
            throw e;
        }
    }

    /** What a start has reached so far: closed again, in this order, when a later step fails. */
    private static final class Parts {
        EmbeddedRedis er;
        EmbeddedMariaDb edb;
        DataDirLease lease;
        RedisStores redis;
        Database db;
        String redisUri;
        String jdbc;
        String user;
        String password;

        /**
         * The servers: the configured ones, those a long-lived process already runs on the data directory (its lease), or
         * embedded ones started here (and published in the lease).
         */
        void reachServers(EngineConfig config) {
            boolean longLived = config.sweepInterval() != null;
            redisUri = config.redisUri();
            jdbc = config.jdbcUrl();
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
            user = config.dbUser();
            password = config.dbPassword();
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
        }

        void close() {
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
        }
    }

    /**
     * The services on both stores, the data set checked against MySQL's pairing, and the background jobs this session's
     * role may run.
     */
    private static Services startServices(EngineConfig config, RedisStores redis, Database db, Operator operator) {
        // Before any service exists: the services size their per-bucket state by the count.
        new DataSetIdentity(redis.connection(), redis.dataSet(), db).settleBuckets(config.buckets());
        Services services = Services.create(redis, db, config.paymentTimeout(), config.terminalRetention());
        Role role = operator.role();
        // Only those who may write record a new pairing; everyone is refused a Redis of another system.
        services.dataset().verifyPairing(role.includes(Role.OPS));
        // The database records who signed in: the follower sets aside outbox entries naming anyone else.
        db.recordSignIn(false);
        // Restoring a lost Redis drains its outbox first: it runs where the follower may (issue 25).
        boolean follows = services.follower().appliesHere();
        // Issue 33.5: the marker of the Redis data set MySQL follows, and the fence on every bucket, before anything
        // moves: a command run while serve is stopped finds a Redis restored from an older copy by itself.
        services.marker().start(follows);
        if (role.includes(Role.SUPPORT)) {
            services.follower().checkFences(); // a copy found behind is fenced and said in the follower's log
        }
        if (role.includes(Role.OPS)) {
            services.rules().ensureSeeded();
            if (follows) {
                services.maintenance().recoverIfRedisLostData();
            }
        }
        if (config.followerIdle() != null && role.includes(Role.SUPPORT) && follows) {
            services.follower().start(config.followerIdle());
            if (role.includes(Role.OPS)) {
                services.maintenance().start(Duration.ofSeconds(5));
            }
        }
        if (config.sweepInterval() != null && role.includes(Role.SUPPORT)) {
            services.sweeper().start(config.sweepInterval());
        }
        return services;
    }

    /**
     * @return the service layer
     * @throws IllegalStateException when the engine was started on MySQL only
     */
    public Services services() {
        if (services == null) {
            throw new IllegalStateException("this engine was started on MySQL only (no Redis): only the audit view is available");
        }
        return services;
    }

    /** @return the audit view: every recorded action across orders, read from MySQL */
    public AuditService audit() {
        return audit;
    }

    /** @return who works through this engine: the signed-in account, or the OS user as local admin */
    public Operator operator() {
        return operator;
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
     * Applies the schema migrations to external servers as a database administrator, creating the tables
     * and the console roles; signed-in console accounts may not change the schema.
     *
     * @param config the database and the administrator's account
     * @return what was applied
     * @throws IllegalArgumentException when the configuration names no external database
     */
    public static Migrated migrate(EngineConfig config) {
        if (config.jdbcUrl() == null) {
            throw new IllegalArgumentException(Messages.get("common.migrate.noJdbc"));
        }
        Database.Migrated m = Database.migrate(config.jdbcUrl(), config.dbUser(), Objects.requireNonNullElse(config.dbPassword(), ""),
                config.commandTimeout());
        return new Migrated(m.applied(), m.version());
    }

    /**
     * What {@link #repairMigrations} did to Flyway's record of the migrations.
     *
     * @param removed failed migrations whose entries were removed, e.g. "V38 writer column"
     * @param aligned applied migrations whose recorded checksum or description was realigned
     * @param deleted recorded migrations this release does not have, marked deleted
     */
    public record MigrationsRepaired(List<String> removed, List<String> aligned, List<String> deleted) {
    }

    /**
     * Repairs Flyway's record of the migrations on external servers as a database administrator: removes the
     * entries of failed migrations so that {@link #migrate} can run them again, and realigns checksums.
     *
     * @param config the database and the administrator's account
     * @return what was repaired
     * @throws IllegalArgumentException when the configuration names no external database
     */
    public static MigrationsRepaired repairMigrations(EngineConfig config) {
        if (config.jdbcUrl() == null) {
            throw new IllegalArgumentException(Messages.get("common.migrate.noJdbc"));
        }
        Database.Repaired r = Database.repair(config.jdbcUrl(), config.dbUser(), Objects.requireNonNullElse(config.dbPassword(), ""),
                config.commandTimeout());
        return new MigrationsRepaired(r.removed(), r.aligned(), r.deleted());
    }

    /** @return true when this engine started its own Redis and MariaDB */
    public boolean embedded() {
        return embeddedRedis != null || embeddedDb != null;
    }

    @Override
    public void close() {
        if (services != null) {
            services.close();
            redis.close();
        }
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
