package com.orderconsole.service.queue;

/**
 * The cancel queue at a glance.
 *
 * @param depth entries in the queue
 * @param overdue entries whose expiry has passed (the sweeper should take them on its next tick)
 * @param oldestOverdueAgeMs how long ago the oldest overdue entry expired, ms, or null when none is overdue
 * @param nextDueMs the next expiry still in the future, epoch ms, or null
 * @param nowMs Redis server time of the reading, epoch ms
 * @param sweeper state of the sweepers
 */
public record QueueSummary(long depth, long overdue, Long oldestOverdueAgeMs, Long nextDueMs, long nowMs, SweeperStatus sweeper) {
}
