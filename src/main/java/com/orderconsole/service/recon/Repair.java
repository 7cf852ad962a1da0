package com.orderconsole.service.recon;

import com.orderconsole.domain.OrderState;
import com.orderconsole.domain.Operator;

/**
 * How one category of findings is repaired: its dry-run step per finding and the repair itself. One small
 * class per category (or per group that repairs alike), split out of {@link ReconciliationService}, which
 * compares and dispatches; each reaches the follower only through {@link ReconFollower}.
 */
sealed interface Repair permits Repair.OneByOne, Repair.Whole {

    /** @return the step a repair of this finding would take: direction and resulting state (changes nothing) */
    ReconciliationService.RepairStep plan(ReconFinding f);

    /** A category repaired finding by finding; each repair re-reads the current state first. */
    non-sealed interface OneByOne extends Repair {
        /** Runs once before the findings are visited (default: nothing), e.g. lets the follower catch up. */
        default void prepare() {
        }

        /**
         * Runs once after the findings are visited (default: nothing), e.g. recounts what the repairs touched.
         *
         * @return what it changed, in words, for the audit trail, or null when nothing
         */
        default String finish() {
            return null;
        }

        /**
         * @return what the repair changed, in words (state before and after), or null when nothing needed changing
         * @throws RuntimeException with what stood in the way, in words, when the finding cannot be repaired
         */
        String apply(ReconFinding f, Operator operator, String reason);
    }

    /** A category repaired as a whole in one step (the outbox backlog, the live counters of every bucket). */
    non-sealed interface Whole extends Repair {
        /**
         * @param found how many findings of the category the report counts
         * @return how many of them are repaired now
         */
        long applyAll(Operator operator, String reason, long found);
    }

    /** @return a Redis state in words, e.g. "PAID v2" or "no Redis state" */
    static String describe(OrderState st) {
        return st == null ? "no Redis state" : st.status() + " v" + st.version();
    }

    /** @return a finding's MySQL side in words, e.g. "PAID v2" or "no MySQL record" */
    static String mysqlSide(ReconFinding f) {
        return f.mysqlStatus() == null ? "no MySQL record" : f.mysqlStatus() + " v" + f.mysqlVersion();
    }

    /** @return a finding's Redis side in words */
    static String redisSide(ReconFinding f) {
        return f.redisStatus() == null ? "no Redis state" : f.redisStatus() + " v" + f.redisVersion();
    }
}
