package com.orderconsole.store;

/** One row of {@code audit_log}. Times are epoch milliseconds. */
public class AuditRow {
    public long id;
    public long atMs;
    public String actor;
    public String source;
    public String action;
    public String orderId;
    public String reason;
    public String detail;
    /** The login that wrote the row ("user@host"), stamped by the database (V38); null where nothing stamps it. */
    public String writtenBy;

    public AuditRow() {
    }

    /**
     * @param atMs when, epoch ms
     * @param action what, e.g. QUEUE_EXTEND
     * @param orderId the order, or null for actions on no single order (rules)
     * @param detail what changed, e.g. "deadline 12:00 → 12:15"
     */
    public AuditRow(long atMs, String actor, String source, String action, String orderId, String reason, String detail) {
        this.atMs = atMs;
        this.actor = actor;
        this.source = source;
        this.action = action;
        this.orderId = orderId;
        this.reason = reason == null ? "" : reason;
        this.detail = detail == null ? "" : detail.length() > 1000 ? detail.substring(0, 1000) : detail;
    }
}
