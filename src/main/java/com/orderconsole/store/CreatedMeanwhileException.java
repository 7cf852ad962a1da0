package com.orderconsole.store;

/**
 * An order a unit of work creates was created by another transaction after this one found its id absent (the other
 * committed first; the unique keys refused the second row). Nothing of the unit of work is kept once it rolls back; run
 * it again and the order is found there.
 */
public class CreatedMeanwhileException extends RuntimeException {
    /**
     * @param message which creation met which order
     * @param cause the server's refusal, when it came from one
     */
    public CreatedMeanwhileException(String message, Throwable cause) {
        super(message, cause);
    }
}
