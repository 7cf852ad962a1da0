package com.orderconsole.service.recon;

import com.orderconsole.domain.Operator;
import com.orderconsole.service.AuditTrail;

/** COUNTERS_DRIFT: counts the orders Redis holds again and overwrites every bucket's live counters, in one step. */
final class RecountRepair implements Repair.Whole {
    private final LiveCounters counters;
    private final AuditTrail audit;

    RecountRepair(LiveCounters counters, AuditTrail audit) {
        this.counters = counters;
        this.audit = audit;
    }

    @Override
    public ReconciliationService.RepairStep plan(ReconFinding f) {
        return new ReconciliationService.RepairStep("", "Redis orders → live counters", f.detail());
    }

    @Override
    public long applyAll(Operator operator, String reason, long found) {
        counters.recount();
        audit.record(operator, "reconciliation", AuditTrail.REPAIR, null, reason == null ? "" : reason,
                ReconCategory.COUNTERS_DRIFT.label() + ": live counters recounted");
        return found;
    }
}
