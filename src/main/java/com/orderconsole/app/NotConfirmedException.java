package com.orderconsole.app;

/**
 * A change on production that was not confirmed with its count (or a simulator start refused by the environment):
 * the message says what to type; nothing was changed.
 */
public final class NotConfirmedException extends RuntimeException {
    /** @param message in words: what was not confirmed and how to confirm it */
    public NotConfirmedException(String message) {
        super(message);
    }
}
