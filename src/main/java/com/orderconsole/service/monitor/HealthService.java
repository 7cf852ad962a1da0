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
        boolean redisUp = redis.ping();
        boolean mysqlUp = db.ping();
        Long rulesVersion = null;
        if (!redisUp) {
            warnings.add("Redis at " + redis.where() + " is not answering: transitions fail until it is back");
        }
        if (!mysqlUp) {
            warnings.add("MySQL at " + db.where() + " is not answering: transitions still apply in Redis and wait in the outbox");
        }
        if (redisUp) {
            try {
                rulesVersion = rules.current().version();
                String policy = redis.configGet("maxmemory-policy");
                if (policy != null && !"noeviction".equals(policy)) {
                    warnings.add("Redis maxmemory-policy is " + policy + ": order state may be evicted; set noeviction");
                }
                Map<String, String> sw = queue.sweeperState();
                String last = sw.get("lastTick");
                long now = redis.nowMs();
                if (last == null) {
                    warnings.add("no cancel sweeper has ever run: unpaid orders are not being cancelled");
                } else if (now - Long.parseLong(last) > SWEEPER_SILENT_MS) {
                    warnings.add("cancel sweeper has not ticked for " + (now - Long.parseLong(last)) / 1000 + " s");
                }
                if ("1".equals(sw.get("paused"))) {
                    warnings.add("cancel sweeper is paused");
                }
                if (mysqlUp) {
                    FollowerStatus s = sync.status();
                    if (s.backlogWarning() != null) {
                        warnings.add(s.backlogWarning());
                    }
                }
            } catch (RuntimeException e) {
                warnings.add("health check incomplete: " + e.getMessage());
            }
        }
        return new Health(redisUp, mysqlUp, rulesVersion, warnings);
    }
}
