package com.orderconsole.store;

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
}
