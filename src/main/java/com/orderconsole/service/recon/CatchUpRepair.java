package com.orderconsole.service.recon;

import com.orderconsole.domain.Operator;

/**
 * SYNC_PENDING: lets the follower apply what the outbox holds now. Repaired only when the backlog is empty
 * afterwards; in a session whose account does not hold the follower role nothing is applied here.
 */
final class CatchUpRepair implements Repair.Whole {
    private final ReconFollower follower;

    CatchUpRepair(ReconFollower follower) {
        this.follower = follower;
    }

    @Override
    public ReconciliationService.RepairStep plan(ReconFinding f) {
        return new ReconciliationService.RepairStep("", "outbox → MySQL", "applied by the follower");
    }

    @Override
    public long applyAll(Operator operator, String reason, long found) {
        follower.catchUp();
        return follower.status().pending() == 0 ? found : 0;
    }
}
