package com.orderconsole.service;


import com.orderconsole.domain.Operator;
import com.orderconsole.store.AuditRow;
import com.orderconsole.store.Database;

/**
 * Records operator actions that are not status transitions (transitions are in the order history):
 * queue extends and removals, sweeper pauses and resumes, reconciliation repairs, rules changes, dead-letter
 * retries and discards.
 * Each record says who (the operator), when, from where (console, cli…), why and what changed.
 */
public final class AuditTrail {
    /** Action names, as stored. */
    public static final String QUEUE_EXTEND = "QUEUE_EXTEND";
    public static final String QUEUE_REMOVE = "QUEUE_REMOVE";
    public static final String REPAIR = "REPAIR";
    public static final String RULES_SET = "RULES_SET";
    public static final String DEAD_LETTER_RETRY = "DEAD_LETTER_RETRY";
    public static final String DEAD_LETTER_DISCARD = "DEAD_LETTER_DISCARD";
    public static final String SWEEPER_PAUSE = "SWEEPER_PAUSE";
    public static final String SWEEPER_RESUME = "SWEEPER_RESUME";
    /**
     * An admin's override (a move the rules do not allow), recorded before the script runs it: the follower applies a
     * move out of a terminal status only when this record exists for the order and version (issue 25).
     */
    public static final String OVERRIDE = "OVERRIDE";

    private final Database db;

    /** Built by the wiring ({@code app.Services}). */
    public AuditTrail(Database db) {
        this.db = db;
    }

    /**
     * Appends one action, in its own transaction.
     *
     * @param source where it was done: console, cli, maintenance…
     * @param action one of the names above
     * @param orderId the order (a well-formed id), or null when the action concerns none
     * @throws IllegalArgumentException when the order id breaks the id rule
     * @param reason the operator's reason ("" when none was asked)
     * @param detail what changed, in words, e.g. "deadline 2026-12-01 10:00 → 10:15 (epoch ms 1764583200000 → …)"
     */
    public void record(Operator operator, String source, String action, String orderId, String reason, String detail) {
        if (orderId != null && !com.orderconsole.domain.OrderId.isValid(orderId)) {
            // The procedures refuse it too: an audit row names an order the product can look up, or none.
            throw new IllegalArgumentException("an audit row names a well-formed order id or none, not '"
                    + com.orderconsole.domain.OrderId.printable(orderId) + "'");
        }
        db.inTransaction(t -> {
            t.audit().append(new AuditRow(System.currentTimeMillis(), operator.name(), source, action, orderId, reason, detail));
            return null;
        });
    }
}
