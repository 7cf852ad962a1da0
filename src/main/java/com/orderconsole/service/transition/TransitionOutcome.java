package com.orderconsole.service.transition;

import com.orderconsole.domain.TransitionResult;
import com.orderconsole.service.follower.CatchUp;

/**
 * A transition and what became of it in MySQL.
 *
 * @param result the script's outcome (rejections are results too)
 * @param mysql whether the MySQL follower caught up after it; null when the script recorded nothing
 *     (order or rules missing), so there was nothing to wait for
 */
public record TransitionOutcome(TransitionResult result, CatchUp mysql) {
    /** @return true when MySQL has the recorded outcome, or when nothing was recorded */
    public boolean mysqlSynced() {
        return mysql == null || mysql.caughtUp();
    }
}
