package com.orderconsole.service.recon;

import com.orderconsole.domain.Role;

import java.util.Locale;
import java.util.ResourceBundle;

/**
 * Kinds of disagreement between Redis and MySQL that reconciliation finds, each with its repair and that repair's
 * policy: the role it needs and whether it needs a reason. The service enforces the policy, the console and the CLI
 * ask it; the words are the bundle's ({@link #wordsKey()}), one text per language.
 */
public enum ReconCategory {
    /** MySQL has the order, Redis has no state. Repair: rebuild the Redis state from MySQL. */
    MISSING_IN_REDIS(Role.OPS, false),
    /**
     * An order hash in Redis whose fields are not well-formed (e.g. status 7). Repair: restore it from
     * MySQL, the durable record, and close its dead letter; without a MySQL row it is left to the dead-letter list.
     */
    MALFORMED_IN_REDIS(Role.OPS, false),
    /**
     * Redis has state for an order MySQL does not know. Repair (admin, with a reason): insert the MySQL
     * row from the Redis state with a history row that says so; no transition explains it otherwise.
     */
    MISSING_IN_MYSQL(Role.ADMIN, true),
    /**
     * MySQL holds a newer state than Redis (Redis restored from an older copy), or Redis is ahead while
     * the follower could not catch up to check it. Repair: let the follower catch up, then Redis follows
     * MySQL, the durable record.
     */
    STATE_MISMATCH(Role.OPS, false),
    /**
     * Redis holds a state that no recorded transition explains: ahead of MySQL by versions MySQL's history
     * does not have once the follower caught up, or the same version with another status. Repair: restore
     * Redis from MySQL (copying it the other way is an admin override on the order, with a reason).
     */
    REDIS_UNEXPLAINED(Role.OPS, false),
    /** Redis says WAIT_PAY but the order has no cancel-queue entry. Repair: queue it with its MySQL expiry. */
    WAIT_PAY_WITHOUT_QUEUE(Role.OPS, false),
    /**
     * Redis says WAIT_PAY and the order has no cancel-queue entry because an operator removed it on purpose: the last
     * queue action MySQL's audit trail records for the order is that removal (who, when, why; the finding names its
     * audit row). Not drift: nothing is repaired, the entry is never put back (extending the deadline does that on purpose).
     */
    QUEUE_REMOVED_ON_PURPOSE(Role.OPS, false),
    /** A queue entry whose order is not WAIT_PAY (or has no state). Repair: remove the entry. */
    QUEUE_ENTRY_NOT_WAIT_PAY(Role.OPS, false),
    /**
     * The live per-status counters of a bucket differ from the orders Redis holds. Repair: count the orders
     * again and overwrite the counters (under live traffic a few moves may land between count and write).
     */
    COUNTERS_DRIFT(Role.OPS, false),
    /** Transitions accepted by Redis not yet written to MySQL. Repair: run the MySQL follower now. */
    SYNC_PENDING(Role.OPS, false);

    /** The English bundle, for words in logs and service messages (the front ends use the language in use). */
    private static final String BUNDLE = "i18n.messages";

    private final Role repairRole;
    private final boolean reasonRequired;

    ReconCategory(Role repairRole, boolean reasonRequired) {
        this.repairRole = repairRole;
        this.reasonRequired = reasonRequired;
    }

    /** @return the least role that may repair findings of this category (every repair needs ops at least) */
    public Role repairRole() {
        return repairRole;
    }

    /** @return whether a repair of this category must give a reason, kept in the history and the audit trail */
    public boolean reasonRequired() {
        return reasonRequired;
    }

    /**
     * @param role the role of whoever would repair
     * @param reason the reason they gave (null or blank: none)
     * @return whether this category's policy lets that role repair its findings with that reason
     */
    public boolean mayRepair(Role role, String reason) {
        return role.includes(repairRole) && (!reasonRequired || (reason != null && !reason.isBlank()));
    }

    /**
     * @return true for a category that records what was done on purpose rather than a disagreement: it has no repair and
     *     is not counted in {@link ReconReport#total()}
     */
    public boolean informational() {
        return this == QUEUE_REMOVED_ON_PURPOSE;
    }

    /** @return the bundle key of the category's name, e.g. {@code recon.category.MISSING_IN_MYSQL} */
    public String wordsKey() {
        return "recon.category." + name();
    }

    /** @return the category's name in English, for logs and service messages */
    public String label() {
        return ResourceBundle.getBundle(BUNDLE, Locale.ROOT, ResourceBundle.Control.getNoFallbackControl(ResourceBundle.Control.FORMAT_PROPERTIES))
                .getString(wordsKey());
    }
}
