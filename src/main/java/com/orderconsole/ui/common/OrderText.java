package com.orderconsole.ui.common;

import com.orderconsole.domain.OrderStatus;
import com.orderconsole.domain.TransitionResult;

/** Orders and transition outcomes in words, as every page shows them. */
public final class OrderText {
    private OrderText() {
    }

    /**
     * @param r a transition outcome
     * @return the outcome in words, e.g. "Applied: PAID → WAIT_SHIP, now version 3." or
     *         "Not applied: order changed since it was read (version conflict). The order is PAID, version 4."
     */
    public static String result(TransitionResult r) {
        if (r.applied()) {
            return "Applied: " + r.from() + " → " + r.target() + ", now version " + r.version() + ".";
        }
        String now = r.from() == null ? "" : " The order is " + r.from() + ", version " + r.version() + ".";
        return "Not applied: " + r.code().description() + "." + now;
    }

    /**
     * One store's view of an order, for a table cell.
     *
     * @param s the status that store has, null when it has no record
     * @param version that store's version
     * @return e.g. "PAID v2", or "—" when that store has no record
     */
    public static String side(OrderStatus s, long version) {
        return s == null ? "—" : s.name() + " v" + version;
    }
}
