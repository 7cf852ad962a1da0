package com.orderconsole.redis;

/**
 * An order's Redis hash has a field that is not well-formed (e.g. status {@code 7} or {@code x}): the
 * record cannot be processed and is set aside; nothing else stops because of it.
 */
public class MalformedOrderException extends RuntimeException {
    private final String orderId;
    private final String problem;

    /**
     * @param orderId the order
     * @param problem what is wrong, in words, e.g. "status 7 is not a status code (1..6)"
     */
    public MalformedOrderException(String orderId, String problem) {
        super("the Redis record of order " + orderId + " is malformed: " + problem);
        this.orderId = orderId;
        this.problem = problem;
    }

    /** @return the order */
    public String orderId() {
        return orderId;
    }

    /** @return what is wrong, in words */
    public String problem() {
        return problem;
    }
}
