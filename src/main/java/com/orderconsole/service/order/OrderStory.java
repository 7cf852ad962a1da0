package com.orderconsole.service.order;

import com.orderconsole.domain.HistoryEntry;
import com.orderconsole.domain.OrderStatus;

import java.util.List;

/**
 * The story of one order: every recorded step (applied moves and rejected attempts) as a timeline, with
 * what the order was when each happened, how long after the step before it, and how far MySQL had
 * followed Redis.
 *
 * @param summary MySQL row and Redis state side by side now
 * @param steps every step, oldest first: MySQL's history, then what the outbox still holds (sync pending)
 * @param atMs when the story was read, epoch ms (Redis server clock)
 */
public record OrderStory(OrderSummary summary, List<Step> steps, long atMs) {

    /**
     * One step.
     *
     * @param entry the history line (or pending outbox entry)
     * @param statusBefore the order's status when the step happened (the last applied step before it; null for the creation)
     * @param gapMs milliseconds since the step before it (0 for the first)
     * @param previous the step before it, or null for the first
     * @param pending true when Redis accepted it and MySQL does not have it yet
     * @param redisVersion the order's version in Redis right after this step
     * @param mysqlVersion the order's version in MySQL for this step: the step's own once applied there, else MySQL's row now
     * @param override true when an admin forced this step outside the rules (an OVERRIDE record of the audit log names
     *     its version and actor): the story says so, with the reason, rather than tell it like a move
     */
    public record Step(HistoryEntry entry, OrderStatus statusBefore, long gapMs, HistoryEntry previous, boolean pending,
                       long redisVersion, long mysqlVersion, boolean override) {
        /** @return true when Redis and MySQL had different versions at this step (sync was pending) */
        public boolean syncPending() {
            return redisVersion != mysqlVersion;
        }
    }

    /**
     * The order as it was at one moment.
     *
     * @param status the status then, null before the order existed
     * @param version the version then (0 before it existed)
     * @param sinceMs when it entered that status, epoch ms (0 before it existed)
     */
    public record StateAt(OrderStatus status, long version, long sinceMs) {
    }

    /** @return the order's id */
    public String orderId() {
        return summary.orderId();
    }

    /** @return the steps that were rejected */
    public List<Step> rejected() {
        return steps.stream().filter(s -> !s.entry().code().applied()).toList();
    }

    /**
     * @return true when Redis has steps MySQL does not have yet (also when the outbox holds too much to list
     *     them: Redis' version is then ahead of MySQL's)
     */
    public boolean syncPending() {
        return steps.stream().anyMatch(Step::pending) || summary.redisStatus() != null && summary.mysqlStatus() != null
                && summary.redisVersion() > summary.mysqlVersion();
    }

    /**
     * @param atMs a moment, epoch ms
     * @return the order's status and version at that moment, from the applied steps at or before it
     */
    public StateAt stateAt(long atMs) {
        StateAt out = new StateAt(null, 0, 0);
        for (Step s : steps) {
            if (s.entry().atMs() > atMs) {
                break;
            }
            if (s.entry().code().applied()) {
                out = new StateAt(s.entry().to(), s.entry().version(), s.entry().atMs());
            }
        }
        return out;
    }
}
