package com.orderconsole.domain;

import java.util.Locale;

/** Thrown by the service layer when an operator's role does not allow an action. */
public class PermissionDeniedException extends RuntimeException {
    /**
     * @param operator who tried
     * @param action what they tried, in words
     * @param needed the least role that may do it
     */
    public PermissionDeniedException(Operator operator, String action, Role needed) {
        super(operator.name() + " (" + operator.role().name().toLowerCase(Locale.ROOT) + ") may not " + action
                + ": needs role " + needed.name().toLowerCase(Locale.ROOT));
    }

    /** @param message what was refused and why, in words */
    public PermissionDeniedException(String message) {
        super(message);
    }
}
