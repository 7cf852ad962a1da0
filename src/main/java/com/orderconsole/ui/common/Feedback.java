package com.orderconsole.ui.common;

import javafx.beans.property.ReadOnlyBooleanProperty;
import javafx.beans.property.ReadOnlyBooleanWrapper;
import javafx.beans.property.ReadOnlyStringProperty;
import javafx.beans.property.ReadOnlyStringWrapper;

/**
 * The one line a page shows about its last load or action: the text, and whether it reports a
 * refusal or failure (the view styles it with {@link Styles#toggle}). Set on the UI thread.
 */
public final class Feedback {
    private final ReadOnlyStringWrapper message = new ReadOnlyStringWrapper("");
    private final ReadOnlyBooleanWrapper error = new ReadOnlyBooleanWrapper();

    /** @param text an outcome in words, e.g. "Cancel sweeper resumed." */
    public void ok(String text) {
        error.set(false);
        message.set(text);
    }

    /** @param text a refusal or failure in words, e.g. "Could not load orders: ..." */
    public void error(String text) {
        error.set(true);
        message.set(text);
    }

    /** Shows nothing. */
    public void clear() {
        ok("");
    }

    /** @return the last outcome or error in words, "" when there is none */
    public ReadOnlyStringProperty messageProperty() {
        return message.getReadOnlyProperty();
    }

    /** @return true when {@link #messageProperty()} reports a refusal or failure */
    public ReadOnlyBooleanProperty errorProperty() {
        return error.getReadOnlyProperty();
    }
}
