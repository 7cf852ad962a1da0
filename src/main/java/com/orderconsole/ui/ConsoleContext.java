package com.orderconsole.ui;

import com.orderconsole.domain.Operator;
import com.orderconsole.domain.Role;
import com.orderconsole.service.Services;
import com.orderconsole.ui.common.Background;

/**
 * What every view model is given: the service layer, who is working, and where to run I/O.
 * The operator is fixed for the session (chosen at launch), so a role can only be raised by restarting.
 *
 * @param services the engine's service layer (the only way the console reaches Redis or MySQL)
 * @param operator who is working; written to the history of every action
 * @param background runs service calls off the UI thread
 */
public record ConsoleContext(Services services, Operator operator, Background background) {

    /**
     * Whether the operator's role allows something. Only decides what the console offers; the
     * service layer checks again and refuses with a PermissionDeniedException.
     *
     * @param needed least role for the action
     * @return true when the operator's role includes {@code needed}
     */
    public boolean can(Role needed) {
        return operator.role().includes(needed);
    }
}
