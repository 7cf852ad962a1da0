package com.orderconsole.domain;

/**
 * A request to move one order to a target status.
 *
 * @param orderId a valid order id (see {@link OrderId})
 * @param target the status to move to
 * @param expectedVersion when not null, apply only if the order's version equals this (compare-and-set); an order that
 *     stands where this move took it (in the target, one version on) is answered {@link ResultCode#ALREADY_IN_STATUS}
 *     (a repeat), unless the request is an override
 * @param source where the request comes from, e.g. "api", "console", "cli", "sweeper", "simulator"
 * @param reason free text kept in the history, at most 500 characters, no control characters (may be empty;
 *     required for console moves and overrides)
 * @param override when true the rules are not consulted (admin only; requires expectedVersion)
 * @param onlyFrom when not null, apply only if the order is in this status when the script runs (compare-and-set on
 *     the status: a timeout cancel that read an unpaid order must not cancel it once paid, whatever the rules allow);
 *     otherwise answered {@link ResultCode#VERSION_CONFLICT}
 */
public record TransitionRequest(String orderId, OrderStatus target, Long expectedVersion, String source, String reason,
                                boolean override, OrderStatus onlyFrom) {
    /** Longest reason, in characters: what order_history's reason column holds (VARCHAR(500), V1). */
    public static final int MAX_REASON = 500;
    /** Longest source, in characters: what order_history's source column holds (VARCHAR(32), V5). */
    public static final int MAX_SOURCE = 32;

    /** A request with no status guard ({@code onlyFrom} null). */
    public TransitionRequest(String orderId, OrderStatus target, Long expectedVersion, String source, String reason,
                             boolean override) {
        this(orderId, target, expectedVersion, source, reason, override, null);
    }

    public TransitionRequest {
        OrderId.require(orderId);
        if (target == null) {
            throw new IllegalArgumentException("target status is missing");
        }
        source = source == null ? "api" : source;
        // The outbox entry keeps source and actor on lines of their own (transition.lua), and order_history.source is
        // VARCHAR(32) (V5): a longer one would stop the follower's batch.
        if (source.isEmpty() || source.length() > MAX_SOURCE || ControlChars.in(source)) {
            throw new IllegalArgumentException("source '" + source.replaceAll("\\p{Cntrl}", "?") + "' must be 1 to "
                    + MAX_SOURCE + " characters with no control character");
        }
        reason = reason == null ? "" : reason;
        String problem = reasonProblem(reason);
        if (problem != null) {
            throw new IllegalArgumentException(problem);
        }
        if (expectedVersion != null && expectedVersion < 1) {
            throw new IllegalArgumentException("expected version must be 1 or more (versions start at 1), got " + expectedVersion);
        }
        if (override && expectedVersion == null) {
            throw new IllegalArgumentException("an override needs the version the operator saw");
        }
    }

    /**
     * The rule every reason kept in the history obeys, for a dialog to check before it closes (the console's reason
     * box refuses what this constructor would refuse, keeping what was typed).
     *
     * @param reason a reason as typed, not null
     * @return what is wrong with it in words, or null when it may be kept
     */
    public static String reasonProblem(String reason) {
        int length = reasonLength(reason);
        if (length > MAX_REASON) {
            return "reason is " + length + " characters long (at most " + MAX_REASON + ")";
        }
        // A newline or escape code in a reason could forge history lines or recolour a terminal.
        if (ControlChars.in(reason)) {
            return "reason contains a control character (newline, tab or escape); use plain text";
        }
        return null;
    }

    /**
     * @param reason a reason as typed, or null
     * @return its length in characters (code points), as the utf8mb4 column counts them: an emoji is one, not two UTF-16
     *     units; 0 for null. Every check against {@link #MAX_REASON} counts with this.
     */
    public static int reasonLength(String reason) {
        return reason == null ? 0 : reason.codePointCount(0, reason.length());
    }

    /** A plain rule-checked move with no version guard. */
    public static TransitionRequest of(String orderId, OrderStatus target, String source, String reason) {
        return new TransitionRequest(orderId, target, null, source, reason, false);
    }

    /** @return this request, applied only while the order is in {@code status} (see {@code onlyFrom}) */
    public TransitionRequest onlyFrom(OrderStatus status) {
        return new TransitionRequest(orderId, target, expectedVersion, source, reason, override, status);
    }
}
