package com.orderconsole.store;

/** The append-only {@code audit_log}: operator actions that are not status transitions. */
public final class AuditStore {
    private final AuditMapper m;
    private final org.apache.ibatis.session.SqlSession session;
    /** A person's session: rows go through V39's procedure, which sets the actor and time itself. */
    private final boolean stamped;

    AuditStore(AuditMapper m, org.apache.ibatis.session.SqlSession session, boolean stamped) {
        this.m = m;
        this.session = session;
        this.stamped = stamped;
    }

    /**
     * The override records of some orders: what the follower requires before it applies a move out of a terminal
     * status. A record counts only when the database's writer stamp, where there is one, is the login of the
     * actor it names: a support account's INSERT of an OVERRIDE row in an admin's (or a job's) name vouches for
     * nothing (else such a row plus one XADD would bring a FINISHED order back as PAID). A person's
     * record ({@link OrderStore#PERSON_ACTOR}) counts when a login that ran the follower (serve's account) wrote it.
     *
     * @return "orderId/version/actor" of every such OVERRIDE row of those orders (the version the override moves the
     *     order to, the actor who recorded it)
     */
    public java.util.Set<String> overrides(java.util.List<String> orderIds) {
        java.util.Set<String> out = new java.util.HashSet<>();
        if (orderIds.isEmpty()) {
            return out;
        }
        java.util.Set<String> followers = null; // read once, only for a person's record
        for (AuditRow r : m.overrides(orderIds)) {
            java.util.regex.Matcher v = OVERRIDE_DETAIL.matcher(r.detail == null ? "" : r.detail);
            boolean vouched = writtenByActor(r.writtenBy, r.actor);
            if (!vouched && r.actor != null && r.actor.startsWith(OrderStore.PERSON_ACTOR)) {
                // A person who signed in with the identity provider has no login: serve's account (a login that ran the
                // follower) writes their record through V49's procedure, once serve has checked they are admin.
                if (followers == null) {
                    followers = new java.util.HashSet<>(session.getMapper(AccountMapper.class).followers());
                }
                vouched = followers.contains(login(r.writtenBy));
            }
            if (v.find() && vouched) {
                out.add(r.orderId + "/" + v.group(1) + "/" + r.actor);
            }
        }
        return out;
    }

    /**
     * The orders an operator took out of the cancel queue on purpose: their last deliberate queue action (a removal or an
     * extension) is a removal. Such an order is not cancelled for non-payment, and reconciliation never queues it again;
     * an extension afterwards queues it again on purpose and ends this. As with overrides, a row counts only when the
     * writer stamp, where there is one, is the login of the actor it names.
     *
     * @param orderIds the orders to look at (at most a page, e.g. 1,000)
     * @return the QUEUE_REMOVE row by order id, for those orders whose last queue action is one
     */
    public java.util.Map<String, AuditRow> queueRemovals(java.util.List<String> orderIds) {
        java.util.Map<String, AuditRow> last = new java.util.HashMap<>();
        if (orderIds.isEmpty()) {
            return last;
        }
        for (AuditRow r : m.queueActions(orderIds)) {
            if (writtenByActor(r.writtenBy, r.actor)) {
                last.put(r.orderId, r);
            }
        }
        last.values().removeIf(r -> !QUEUE_REMOVE.equals(r.action));
        return last;
    }

    /** The audit action of a deliberate cancel-queue removal (service.AuditTrail.QUEUE_REMOVE). */
    private static final String QUEUE_REMOVE = "QUEUE_REMOVE";

    /**
     * Whether a history or audit row was written by the account it names as its actor: the one reading of the
     * database's writer stamp (V38), for the follower's override check and the audit view's flag alike.
     *
     * @param writtenBy the stamp, "user@host", or null where the server stamps nothing (no grant tables: one owner)
     * @return true when the row was written by the account it names
     */
    public static boolean writtenByActor(String writtenBy, String actor) {
        return writtenBy == null || login(writtenBy).equals(actor);
    }

    /** @return the login of a writer stamp: "user" of "user@client host" (a user name may itself hold '@') */
    public static String login(String writtenBy) {
        if (writtenBy == null) {
            return null;
        }
        int at = writtenBy.lastIndexOf('@');
        return at < 0 ? writtenBy : writtenBy.substring(0, at);
    }

    /** How an override's detail names the version it moves the order to: "… to v7 …" ({@link #overrideDetail}). */
    private static final java.util.regex.Pattern OVERRIDE_DETAIL = java.util.regex.Pattern.compile("\\bto v(\\d+)\\b");

    /**
     * @param target the status the override moves to
     * @param toVersion the version the move makes (the version the operator saw + 1)
     * @return the detail of an OVERRIDE row, e.g. "v6 to v7 SHIPPED"
     */
    public static String overrideDetail(String target, long toVersion) {
        return "v" + (toVersion - 1) + " to v" + toVersion + " " + target;
    }

    /**
     * Appends one action. In a person's session the database writes the row with the signed-in login as actor and its
     * own clock's time; the row's actor and time are used only where no account is checked (local servers). A row of a
     * person acting through serve ({@link OrderStore#PERSON_ACTOR}) is written in that person's recorded name.
     */
    public void append(AuditRow row) {
        if (stamped && row.actor != null && row.actor.startsWith(OrderStore.PERSON_ACTOR)) {
            // A person acting through serve: serve's account writes the row in their recorded name (V49).
            Procedures.recordPersonAction(session.getConnection(), row);
        } else if (stamped) {
            Procedures.recordAction(session.getConnection(), row);
        } else {
            m.insert(row);
        }
    }
}
