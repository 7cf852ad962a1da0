package com.orderconsole.ui.common;

import com.orderconsole.app.Messages;
import com.orderconsole.domain.OrderStatus;
import com.orderconsole.domain.ResultCode;
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
            return Messages.format("common.result.applied", status(r.from()), status(r.target()), r.version());
        }
        String now = r.from() == null ? "" : Messages.format("common.result.orderIs", status(r.from()), r.version());
        return Messages.format("common.result.notApplied", result(r.code()), now);
    }

    /**
     * One store's view of an order, for a table cell.
     *
     * @param s the status that store has, null when it has no record
     * @param version that store's version
     * @return e.g. "PAID v2", or "—" when that store has no record
     */
    public static String side(OrderStatus s, long version) {
        return s == null ? "—" : Messages.format("common.side", status(s), version);
    }

    /**
     * @param s a status, or null
     * @return its name for people: "WAIT_PAY" in English (the field's term, as the rules write it), "待支付" in
     *     Chinese; "" for null
     */
    public static String status(OrderStatus s) {
        return s == null ? "" : Messages.get("status." + s.name());
    }

    /**
     * @param source where a change came from, as stored (e.g. "sweeper"), or null
     * @return its name in the language in use, e.g. "sweeper" or "取消清扫器"; the stored name when it has no word
     */
    public static String source(String source) {
        return com.orderconsole.app.StoryWords.source(source);
    }

    /**
     * @param r a console role
     * @return its name in the language in use, e.g. "read-only" or "只读" (zh-CN showed the English name, issue 34);
     *     "" for null
     */
    public static String role(com.orderconsole.domain.Role r) {
        return r == null ? "" : Messages.get("role." + r.name());
    }

    /**
     * @param who an operator
     * @return e.g. "alice · support", or "root · admin (local)" on the embedded servers, in the language in use
     */
    public static String operator(com.orderconsole.domain.Operator who) {
        return Messages.format(who.local() ? "main.operator.local" : "main.operator.text", who.name(), role(who.role()));
    }

    /**
     * @param c a result code of the transition script
     * @return what it means in words, e.g. "order changed since it was read (version conflict)"
     */
    public static String result(ResultCode c) {
        return Messages.get("result." + c.name());
    }
}
