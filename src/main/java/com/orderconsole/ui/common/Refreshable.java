package com.orderconsole.ui.common;

/** A page model that reloads its data on F5 and, while visible, on the auto-refresh tick. */
public interface Refreshable {
    /** Reloads in the background; does nothing while a previous load is still running. */
    void refresh();
}
