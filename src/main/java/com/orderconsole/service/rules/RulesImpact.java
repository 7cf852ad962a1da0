package com.orderconsole.service.rules;

import com.orderconsole.domain.OrderStatus;
import com.orderconsole.domain.RulesFault;

import java.util.List;
import java.util.Set;

/**
 * What a rules change would do to the orders there are now (the what-if shown before a change is applied).
 *
 * @param inForceVersion version of the rules in force the change is compared with
 * @param statuses one entry per status whose exits change, in status order
 * @param timeoutCancelKept true when the new rules keep WAIT_PAY → CANCELLED, the move the cancel sweeper makes
 * @param waitPayLive orders in WAIT_PAY now (the sweeper would cancel them at their deadline), Redis live counter
 * @param waitPaySample a few WAIT_PAY order ids (from MySQL), for when the timeout cancel is dropped
 * @param faults the document's faults (empty when it could be applied); the impact is computed on what could be read
 * @param readable false when nothing could be read from the document (malformed JSON): {@code statuses} is empty
 * @param atMs when the counts were read, epoch ms (Redis server clock)
 */
public record RulesImpact(long inForceVersion, List<StatusImpact> statuses, boolean timeoutCancelKept, long waitPayLive,
                          List<String> waitPaySample, List<RulesFault> faults, boolean readable, long atMs) {

    /** Orders sample size per status. */
    public static final int SAMPLE = 5;

    /**
     * The impact on one status whose exits change.
     *
     * @param status the status
     * @param exitsBefore its exits under the rules in force
     * @param exitsAfter its exits under the new rules
     * @param removed exits it loses, each with the applied moves along it in the last hour (the edges in use)
     * @param live orders in the status now (Redis live counter)
     * @param stuck of those, orders longer in it than its stuck threshold (MySQL); 0 when it has no threshold
     * @param losesEveryExit true when the status had exits and has none under the new rules: its live orders stay for good
     * @param sample a few order ids in the status, stuck ones first (MySQL)
     */
    public record StatusImpact(OrderStatus status, Set<OrderStatus> exitsBefore, Set<OrderStatus> exitsAfter,
                               List<RemovedExit> removed, long live, long stuck, boolean losesEveryExit, List<String> sample) {
        /** @return live orders that would have no way out: all of them when the status loses every exit, else 0 */
        public long stranded() {
            return losesEveryExit ? live : 0;
        }
    }

    /**
     * An exit that would disappear.
     *
     * @param from source status
     * @param to target status
     * @param appliedLastHour applied moves along it during the last hour (MySQL history)
     */
    public record RemovedExit(OrderStatus from, OrderStatus to, long appliedLastHour) {
    }

    /** @return live orders that would lose every exit, summed over the statuses */
    public long stranded() {
        return statuses.stream().mapToLong(StatusImpact::stranded).sum();
    }

    /** @return stuck orders whose status loses at least one exit they could take today */
    public long stuckLosingAnExit() {
        return statuses.stream().filter(s -> !s.removed().isEmpty()).mapToLong(StatusImpact::stuck).sum();
    }

    /** @return true when the change strands orders or drops the timeout cancel: the confirmation must say so first */
    public boolean harmful() {
        return stranded() > 0 || !timeoutCancelKept || stuckLosingAnExit() > 0;
    }
}
