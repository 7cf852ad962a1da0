package com.orderconsole.store;

/** The append-only {@code audit_log}: operator actions that are not status transitions. */
public final class AuditStore {
    private final AuditMapper m;

    AuditStore(AuditMapper m) {
        this.m = m;
    }

    /**
     * The override records of some orders: what the follower requires before it applies a move out of a terminal
     * status (issue 25).
     *
     * @return "orderId/version" of every OVERRIDE row of those orders (the version the override moves the order to)
     */
    public java.util.Set<String> overrides(java.util.List<String> orderIds) {
        java.util.Set<String> out = new java.util.HashSet<>();
        if (orderIds.isEmpty()) {
            return out;
        }
        for (AuditRow r : m.overrides(orderIds)) {
            java.util.regex.Matcher v = OVERRIDE_DETAIL.matcher(r.detail == null ? "" : r.detail);
            if (v.find()) {
                out.add(r.orderId + "/" + v.group(1));
            }
        }
        return out;
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

    /** Appends one action. */
    public void append(AuditRow row) {
        m.insert(row);
    }
}
