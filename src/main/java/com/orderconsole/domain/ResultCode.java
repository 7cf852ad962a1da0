package com.orderconsole.domain;

/**
 * Outcome of one run of the transition script. The numeric codes are what transition.lua returns
 * and what the counters and status history store.
 *
 * <p>1, 0, -1 and -2 follow the design this product is built on; -3..-7 are ours.
 */
public enum ResultCode {
    /** The transition was applied: status written, version bumped by one. */
    APPLIED(1, "applied"),
    /** The rules have no edge from the current status to the target. */
    NOT_ALLOWED(0, "not a legal move from the current status"),
    /** No Redis state for the order (the service then rebuilds it from MySQL and retries). */
    STATE_MISSING(-1, "order state missing"),
    /** The order is in a terminal status; nothing may leave it (except an admin override). */
    TERMINAL(-2, "order is in a terminal status"),
    /** Compare-and-set failed: the order's version is not the one the caller saw. */
    VERSION_CONFLICT(-3, "order changed since it was read (version conflict)"),
    /** The order is already in the target status; nothing was written (e.g. a repeated payment callback). */
    ALREADY_IN_STATUS(-4, "order is already in the target status"),
    /** The rules copy the script reads is absent in this key slot (the service republishes and retries). */
    RULES_MISSING(-5, "transition rules not loaded in Redis"),
    /**
     * The order's Redis record has fields that are not well-formed (e.g. status 7); the script refuses to
     * act on it and the service sets it aside in the dead-letter list for ops.
     */
    MALFORMED(-6, "the order's Redis record is malformed; it is set aside for ops"),
    /**
     * Redis is being restored from MySQL: it was found behind MySQL (restored from an older copy), so its order states
     * may be stale; nothing was run or written. Answered by the service, never by the script.
     */
    RESTORING(-7, "Redis is being restored from MySQL (it went back in time); nothing was changed, try again in a few seconds");

    private final int code;
    private final String description;

    ResultCode(int code, String description) {
        this.code = code;
        this.description = description;
    }

    /** @return the numeric code returned by the script */
    public int code() {
        return code;
    }

    /** @return the meaning in words, for people */
    public String description() {
        return description;
    }

    /** @return true only for {@link #APPLIED} */
    public boolean applied() {
        return this == APPLIED;
    }

    /**
     * @param code numeric code from the script or from storage
     * @return the result code
     * @throws IllegalArgumentException for a code no script returns
     */
    public static ResultCode ofCode(int code) {
        for (ResultCode r : values()) {
            if (r.code == code) {
                return r;
            }
        }
        throw new IllegalArgumentException("unknown result code " + code);
    }
}
