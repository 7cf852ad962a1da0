package com.orderconsole.service.metrics;

import com.orderconsole.domain.ResultCode;
import com.orderconsole.service.recon.ReconCategory;

import java.util.Map;

/**
 * One reading of what the gauges and alerts show, taken at most once per second however often they are
 * read. Times are Redis server time (TIME); ages in milliseconds.
 *
 * @param ok true when every part could be read (Redis and MySQL answered)
 * @param atMs Redis server time of the reading, epoch ms (local clock when Redis did not answer)
 * @param syncBacklog outbox entries not yet applied to MySQL
 * @param syncLagMs age of the oldest of them, ms (0 when none)
 * @param sweeperTickAgeMs time since any cancel sweeper last ticked, ms, or -1 when none ever ran
 * @param sweeperPaused true when sweeping is paused (then a silent sweeper is no incident)
 * @param queueDepth entries in the cancel queue
 * @param queueOverdue entries whose payment deadline has passed
 * @param oldestOverdueMs how long ago the oldest overdue entry's deadline passed, ms (0 when none)
 * @param results how often transition.lua returned each code, every process since the counters began
 * @param findings findings per category of this process's last full reconciliation, or null when none ran
 * @param error why the reading is incomplete, or null
 */
public record Reading(boolean ok, long atMs, long syncBacklog, long syncLagMs, long sweeperTickAgeMs, boolean sweeperPaused,
                      long queueDepth, long queueOverdue, long oldestOverdueMs, Map<ResultCode, Long> results,
                      Map<ReconCategory, Long> findings, String error) {

    /** @return attempts transition.lua refused (every code but applied), all processes */
    public long rejected() {
        return results.entrySet().stream().filter(e -> e.getKey() != ResultCode.APPLIED).mapToLong(Map.Entry::getValue).sum();
    }

    /** @return attempts transition.lua applied, all processes */
    public long applied() {
        return results.getOrDefault(ResultCode.APPLIED, 0L);
    }
}
