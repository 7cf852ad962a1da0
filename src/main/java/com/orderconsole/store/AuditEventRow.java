package com.orderconsole.store;

/**
 * One recorded action as the audit view reads it: a row of {@code order_history} (kind H) or of
 * {@code audit_log} (kind A). Fields the other table lacks are null. Times are epoch milliseconds.
 */
public class AuditEventRow {
    /** H = order history (a transition or attempt), A = audit log (queue, repair, rules, dead letters). */
    public String kind;
    public long id;
    public long atMs;
    public String actor;
    public String source;
    public String orderId;
    public Integer fromStatus;
    public Integer toStatus;
    public Long version;
    public Integer resultCode;
    public String action;
    public String reason;
    public String detail;
    /** The login that wrote the row, stamped by the database (V38: "user@host"); null before V38 or without grant tables. */
    public String writtenBy;
    /** History rows: the event key ("b3/…/…" for an outbox entry); null for audit rows. */
    public String eventKey;
}
