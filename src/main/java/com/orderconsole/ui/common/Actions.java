package com.orderconsole.ui.common;

import javafx.scene.control.ButtonBase;

/**
 * Wires a page's buttons to its view model in code rather than through FXML handler methods that only
 * forward a click. Use on the UI thread.
 */
public final class Actions {
    private Actions() {
    }

    /**
     * Makes a button start an action and be enabled only while its command may run.
     *
     * @param button the button; Enter and Space fire it like a click
     * @param command the command the action runs through
     * @param action what a click asks the view model to do
     */
    public static void bind(ButtonBase button, Command command, Runnable action) {
        button.disableProperty().bind(command.executableProperty().not());
        button.setOnAction(e -> action.run());
    }
}
