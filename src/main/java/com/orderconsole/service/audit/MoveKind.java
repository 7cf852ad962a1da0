package com.orderconsole.service.audit;

/** Which applied transitions an audit filter keeps. */
public enum MoveKind {
    /** Every recorded action. */
    ANY,
    /** Applied transitions along an edge of the rules in force. */
    LEGAL,
    /**
     * Applied transitions along no edge of the rules in force: admin overrides, and moves the rules no longer
     * offer (an import's PAID → CANCELLED, an edge removed since). The history has no override flag of its own
     * (the outbox entry carries none), so this is read against the rules as they are now.
     */
    OVERRIDE
}
