package com.orderconsole.service;

import com.orderconsole.domain.Operator;
import com.orderconsole.domain.PermissionDeniedException;
import com.orderconsole.domain.Role;

/** Role checks, made by every service method that changes something. */
public final class Access {
    /**
     * @param operator who acts
     * @param needed least role for the action
     * @param action the action in words, for the error
     * @throws PermissionDeniedException when the operator's role is below {@code needed}
     */
    public void require(Operator operator, Role needed, String action) {
        if (operator == null) {
            throw new IllegalArgumentException("no operator given for: " + action);
        }
        if (!operator.role().includes(needed)) {
            throw new PermissionDeniedException(operator, action, needed);
        }
    }
}
