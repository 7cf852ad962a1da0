package com.orderconsole.service.monitor;

import com.orderconsole.redis.CancelQueueStore;
import com.orderconsole.redis.RedisConnection;
import com.orderconsole.service.follower.Follower;
import com.orderconsole.service.follower.FollowerStatus;
import com.orderconsole.service.rules.RulesService;
import com.orderconsole.store.Database;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * Checks what an operator must know about: servers up, Redis eviction policy (anything but
 * noeviction may silently drop order state), scripts missing from the server cache and failing to
 * load, the cancel sweeper not ticking for more than 10 s, the follower's lag behind Redis; and the Redis masters with
 * their share of the buckets (a cluster whose busiest master holds more than 1.15 times the mean share is
 * reported: it carries that much more of the load).
 */
public final class HealthService implements HealthCheck {
    /** A sweeper silent for longer than this, in ms, is reported. */
    static final long SWEEPER_SILENT_MS = 10_000;
    /** Busiest master's bucket count over the mean above which the spread is reported uneven (issue 16's target). */
    static final double UNEVEN_SPREAD = 1.15;

    private final RedisConnection redis;
    private final CancelQueueStore queue;
    private final Database db;
    private final RulesService rules;
    private final Follower follower;

    /** Built by the wiring ({@code app.Services}). */
    public HealthService(RedisConnection redis, CancelQueueStore queue, Database db, RulesService rules, Follower follower) {
        this.redis = redis;
        this.queue = queue;
        this.db = db;
        this.rules = rules;
        this.follower = follower;
    }

    /** @return the current health; never throws for a server being down (that is what it reports) */
    public Health check() {
        Warnings w = new Warnings();
        boolean redisUp = redis.ping();
        boolean mysqlUp = db.ping();
        Long rulesVersion = null;
        List<RedisMaster> masters = List.of();
        if (!redisUp) {
            w.warn("Redis at " + redis.where() + " is not answering: transitions fail until it is back",
                    new Health.Notice("redisDown", List.of(redis.where())));
        }
        if (!mysqlUp) {
            w.warn("MySQL at " + db.where() + " is not answering: transitions still apply in Redis and wait in the outbox",
                    new Health.Notice("mysqlDown", List.of(db.where())));
        }
        if (redisUp) {
            try {
                rulesVersion = rules.current().version();
                masters = masters();
                checkRedisSetup(w, masters);
                checkBackgroundJobs(w, mysqlUp);
            } catch (RuntimeException e) {
                w.warn("health check incomplete: " + e.getMessage(), new Health.Notice("incomplete", List.of(String.valueOf(e.getMessage()))));
            }
        }
        return new Health(redisUp, mysqlUp, rulesVersion, w.warnings, w.notices, masters);
    }

    /** Each warning in English (--json, logs) and as a key with its values (the user's language). */
    private static final class Warnings {
        final List<String> warnings = new ArrayList<>();
        final List<Health.Notice> notices = new ArrayList<>();

        void warn(String text, Health.Notice notice) {
            warnings.add(text);
            notices.add(notice);
        }
    }

    /** Redis's setup: no eviction of order state, and the buckets spread evenly over the masters. */
    private void checkRedisSetup(Warnings w, List<RedisMaster> masters) {
        redis.configGetPerMaster("maxmemory-policy").forEach((where, policy) -> {
            if (policy != null && !"noeviction".equals(policy)) {
                String named = policy + (redis.isCluster() ? " (" + where + ")" : "");
                w.warn("Redis maxmemory-policy is " + named + ": order state may be evicted; set noeviction",
                        new Health.Notice("eviction", List.of(named)));
            }
        });
        double spread = Health.maxOverMean(masters);
        if (spread > UNEVEN_SPREAD) {
            w.warn(String.format(Locale.ROOT, "the busiest Redis master holds %.2f times the mean "
                    + "share of buckets: it carries that much more of the load (rebalance the cluster's slots)", spread),
                    new Health.Notice("unevenSpread", List.of(spread)));
        }
    }

    /** The background jobs: the cancel sweeper ticking and not paused, nothing waiting for a restore, the follower's backlog. */
    private void checkBackgroundJobs(Warnings w, boolean mysqlUp) {
        Map<String, String> sw = queue.sweeperState();
        String last = sw.get("lastTick");
        long now = redis.nowMs();
        if (last == null) {
            w.warn("no cancel sweeper has ever run: unpaid orders are not being cancelled",
                    new Health.Notice("sweeperNever", List.of()));
        } else if (now - Long.parseLong(last) > SWEEPER_SILENT_MS) {
            long silentS = (now - Long.parseLong(last)) / 1000;
            w.warn("cancel sweeper has not ticked for " + silentS + " s", new Health.Notice("sweeperSilent", List.of(silentS)));
        }
        if (follower.waitingForRestore()) {
            // Only a process that runs the follower and holds ops restores; elsewhere this would wait for ever, in silence.
            w.warn("Redis has no data-set marker (it lost its data or went back in time): the cancel sweeper and "
                    + "the MySQL follower wait until serve (or the console of the embedded servers) restores it from MySQL",
                    new Health.Notice("noMarker", List.of()));
        }
        if ("1".equals(sw.get("paused"))) {
            w.warn("cancel sweeper is paused", new Health.Notice("sweeperPaused", List.of()));
        }
        if (mysqlUp) {
            FollowerStatus s = follower.status();
            if (s.backlogWarning() != null) {
                // The follower words its backlog with the figures; shown as it is, under a translated heading.
                w.warn(s.backlogWarning(), new Health.Notice("backlog", List.of(s.backlogWarning())));
            }
        }
    }

    private List<RedisMaster> masters() {
        Map<String, List<Integer>> byMaster = redis.bucketsPerMaster();
        int total = byMaster.values().stream().mapToInt(List::size).sum();
        List<RedisMaster> out = new ArrayList<>();
        byMaster.forEach((where, buckets) -> out.add(new RedisMaster(where, buckets.size(),
                total == 0 ? 0 : buckets.size() / (double) total)));
        return out;
    }
}
