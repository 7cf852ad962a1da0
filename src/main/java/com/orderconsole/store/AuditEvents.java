package com.orderconsole.store;

import java.util.List;
import java.util.Map;

/** Reads every recorded action (order history and audit log) for the audit view; reads only. */
public final class AuditEvents {
    private final AuditEventMapper m;

    AuditEvents(AuditEventMapper m) {
        this.m = m;
    }

    /** @return order history rows matching the query, newest first */
    public List<AuditEventRow> history(AuditEventQuery q) {
        return m.history(q);
    }

    /** @return audit log rows matching the query, newest first */
    public List<AuditEventRow> auditLog(AuditEventQuery q) {
        return m.auditLog(q);
    }

    /** @return the server's tabular EXPLAIN of the history query (without the move-kind condition), one map per row */
    public List<Map<String, Object>> explainHistory(AuditEventQuery q) {
        return m.explainHistory(q);
    }
}
