package com.orderconsole.service.monitor;

import com.orderconsole.redis.CancelQueueStore;
import com.orderconsole.redis.RedisConnection;
import com.orderconsole.service.follower.Follower;
import com.orderconsole.service.follower.FollowerStatus;
import com.orderconsole.service.rules.RulesService;
import com.orderconsole.store.Database;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * Checks what an operator must know about: servers up, Redis eviction policy (anything but
 * noeviction may silently drop order state), scripts missing from the server cache and failing to
 * load, the cancel sweeper not ticking for more than 10 s, MySQL sync lag.
 */
public final class HealthService {
    /** A sweeper silent for longer than this, in ms, is reported. */
    static final long SWEEPER_SILENT_MS = 10_000;

    private final RedisConnection redis;
    private final CancelQueueStore queue;
    private final Database db;
    private final RulesService rules;
    private final Follower sync;

    /** Built by {@link com.orderconsole.service.Services}. */
    public HealthService(RedisConnection redis, CancelQueueStore queue, Database db, RulesService rules, Follower sync) {
        this.redis = redis;
        this.queue = queue;
        this.db = db;
        this.rules = rules;
        this.sync = sync;
    }

    /** @return the current health; never throws for a server being down (that is what it reports) */
    public Health check() {
        List<String> warnings = new ArrayList<>();
        List<Health.Notice> notices = new ArrayList<>();
        // Each warning in English (--json, logs) and as a key with its values (the user's language).
        java.util.function.BiConsumer<String, Health.Notice> warn = (text, notice) -> {
            warnings.add(text);
            notices.add(notice);
        };
        boolean redisUp = redis.ping();
        boolean mysqlUp = db.ping();
        Long rulesVersion = null;
        if (!redisUp) {
            warn.accept("Redis at " + redis.where() + " is not answering: transitions fail until it is back",
                    new Health.Notice("redisDown", List.of(redis.where())));
        }
        if (!mysqlUp) {
            warn.accept("MySQL at " + db.where() + " is not answering: transitions still apply in Redis and wait in the outbox",
                    new Health.Notice("mysqlDown", List.of(db.where())));
        }
        if (redisUp) {
            try {
                rulesVersion = rules.current().version();
                String policy = redis.configGet("maxmemory-policy");
                if (policy != null && !"noeviction".equals(policy)) {
                    warn.accept("Redis maxmemory-policy is " + policy + ": order state may be evicted; set noeviction",
                            new Health.Notice("eviction", List.of(policy)));
                }
                Map<String, String> sw = queue.sweeperState();
                String last = sw.get("lastTick");
                long now = redis.nowMs();
                if (last == null) {
                    warn.accept("no cancel sweeper has ever run: unpaid orders are not being cancelled",
                            new Health.Notice("sweeperNever", List.of()));
                } else if (now - Long.parseLong(last) > SWEEPER_SILENT_MS) {
                    long silentS = (now - Long.parseLong(last)) / 1000;
                    warn.accept("cancel sweeper has not ticked for " + silentS + " s", new Health.Notice("sweeperSilent", List.of(silentS)));
                }
                if ("1".equals(sw.get("paused"))) {
                    warn.accept("cancel sweeper is paused", new Health.Notice("sweeperPaused", List.of()));
                }
                if (mysqlUp) {
                    FollowerStatus s = sync.status();
                    if (s.backlogWarning() != null) {
                        // The follower words its backlog with the figures; shown as it is, under a translated heading.
                        warn.accept(s.backlogWarning(), new Health.Notice("backlog", List.of(s.backlogWarning())));
                    }
                }
            } catch (RuntimeException e) {
                warn.accept("health check incomplete: " + e.getMessage(), new Health.Notice("incomplete", List.of(String.valueOf(e.getMessage()))));
            }
        }
        return new Health(redisUp, mysqlUp, rulesVersion, warnings, notices);
    }
}
