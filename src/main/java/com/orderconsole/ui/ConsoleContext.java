package com.orderconsole.ui;

import com.orderconsole.domain.Environment;
import com.orderconsole.domain.Operator;
import com.orderconsole.app.ConsoleServices;
import com.orderconsole.ui.common.Background;
import com.orderconsole.ui.common.DialogService;

/**
 * What the console's shell is given; it hands each page model only the services that page uses.
 * The operator is fixed for the session (chosen at launch), so a role can only be raised by restarting.
 *
 * @param services the service layer: in-process on this console's stores, or serve's API (the only way the console
 *     reaches orders)
 * @param operator who is working; written to the history of every action
 * @param background runs service calls off the UI thread
 * @param dialogs asks the user before an action and for what it needs (reasons, files)
 * @param environment the environment worked on (band on every page; production asks for typed confirmations)
 */
public record ConsoleContext(ConsoleServices services, Operator operator, Background background, DialogService dialogs,
                             Environment environment) {
    /** A context on the dialogs' environment. */
    public ConsoleContext(ConsoleServices services, Operator operator, Background background, DialogService dialogs) {
        this(services, operator, background, dialogs, dialogs.environment());
    }
}
