package com.orderconsole.service.audit;

import com.orderconsole.domain.OrderStatus;
import com.orderconsole.domain.ResultCode;

/**
 * One recorded action.
 *
 * @param kind TRANSITION (a row of the order history: a transition, a rejected attempt, a creation) or ACTION
 *     (a row of the audit log: queue, repair, rules, dead letters)
 * @param id the row's id in its table
 * @param atMs when, epoch ms
 * @param actor who
 * @param source from where: console, cli, sweeper, import, simulator, bulk, repair...
 * @param orderId the order, null for actions on none (rules)
 * @param from status before (transitions; null for a creation)
 * @param to target status (transitions)
 * @param version the order's version after (transitions)
 * @param code result code (transitions)
 * @param action what was done (actions), e.g. QUEUE_EXTEND
 * @param reason the operator's reason
 * @param detail what changed (actions)
 * @param writtenBy the login that wrote the row, as the database stamped it ("user@host", V38); null for rows written
 *     before V38 or on a server without grant tables
 * @param actorUnlike true when the row names an actor other than the account that wrote it, and is not the follower's
 *     normal work (a history row written by a login the database recorded running the follower, V39): a row someone
 *     wrote in another person's name
 */
public record AuditEvent(Kind kind, long id, long atMs, String actor, String source, String orderId, OrderStatus from, OrderStatus to,
                         Long version, ResultCode code, String action, String reason, String detail, String writtenBy,
                         boolean actorUnlike) {

    /** Which table a row comes from. */
    public enum Kind {
        TRANSITION, ACTION
    }
}
