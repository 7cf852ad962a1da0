package com.orderconsole.service.metrics;

import com.orderconsole.domain.ResultCode;
import com.orderconsole.service.recon.ReconCategory;

import java.util.List;
import java.util.Map;

/**
 * What the gauges, alerts and {@code /health} show: the background sampler's latest reading of Redis and of MySQL,
 * each taken about once a second on a thread of its own, so that reading it never waits on a server. Times are Redis
 * server time (TIME); ages in milliseconds.
 *
 * @param redisOk true when Redis answered the latest sample and it is fresh (younger than the staleness limit)
 * @param mysqlOk true likewise for MySQL (the follower's applied positions)
 * @param atMs Redis server time of the Redis sample, epoch ms (local clock when Redis was never read)
 * @param syncBacklog outbox entries not yet applied to MySQL, or -1 when unknown (Redis not read, or MySQL never read)
 * @param syncLagMs age of the oldest of them, ms (0 when none), or -1 when unknown; measured in Redis against the
 *     positions MySQL last gave, which cannot move while MySQL is down, so it keeps growing during an outage
 * @param sweeperTickAgeMs time since any cancel sweeper last ticked, ms, or -1 when none ever ran
 * @param sweeperPaused true when sweeping is paused (then a silent sweeper is no incident)
 * @param queueDepth entries in the cancel queue
 * @param queueOverdue entries whose payment deadline has passed
 * @param oldestOverdueMs how long ago the oldest overdue entry's deadline passed, ms (0 when none)
 * @param results how often transition.lua returned each code, every process since the counters began
 * @param findings findings per category of this process's last full reconciliation, or null when none ran
 * @param problems why a part is not OK, in words (empty when both are)
 */
public record Reading(boolean redisOk, boolean mysqlOk, long atMs, long syncBacklog, long syncLagMs, long sweeperTickAgeMs,
                      boolean sweeperPaused, long queueDepth, long queueOverdue, long oldestOverdueMs, Map<ResultCode, Long> results,
                      Map<ReconCategory, Long> findings, List<String> problems) {
    public Reading {
        problems = List.copyOf(problems);
    }

    /** @return true when both Redis and MySQL were read and the readings are fresh */
    public boolean ok() {
        return redisOk && mysqlOk;
    }

    /** @return true when the sync lag and backlog are known */
    public boolean syncKnown() {
        return redisOk && syncLagMs >= 0;
    }

    /** @return attempts transition.lua refused (every code but applied), all processes */
    public long rejected() {
        return results.entrySet().stream().filter(e -> e.getKey() != ResultCode.APPLIED).mapToLong(Map.Entry::getValue).sum();
    }

    /** @return attempts transition.lua applied, all processes */
    public long applied() {
        return results.getOrDefault(ResultCode.APPLIED, 0L);
    }
}
