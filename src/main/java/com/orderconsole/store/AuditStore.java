package com.orderconsole.store;

import java.util.List;

/** The append-only {@code audit_log}: operator actions that are not status transitions. */
public final class AuditStore {
    private final AuditMapper m;

    AuditStore(AuditMapper m) {
        this.m = m;
    }

    /** Appends one action. */
    public void append(AuditRow row) {
        m.insert(row);
    }

    /** @return an order's recorded actions, oldest first */
    public List<AuditRow> byOrder(String orderId) {
        return m.byOrder(orderId);
    }

    /** @return the newest actions, newest first, at most {@code limit} */
    public List<AuditRow> latest(int limit) {
        return m.latest(limit);
    }
}
