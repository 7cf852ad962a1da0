package com.orderconsole.service.recon;

import com.orderconsole.domain.Operator;

/**
 * QUEUE_REMOVED_ON_PURPOSE: nothing to repair. An operator took the order out of the cancel queue on purpose (its audit
 * row says who and why); putting the entry back would have the sweeper cancel an order someone decided to keep.
 */
final class LeaveAloneRepair implements Repair.Whole {
    @Override
    public ReconciliationService.RepairStep plan(ReconFinding f) {
        return new ReconciliationService.RepairStep(f.orderId(), "none: removed on purpose", "left alone");
    }

    @Override
    public long applyAll(Operator operator, String reason, long found) {
        return 0;
    }
}
