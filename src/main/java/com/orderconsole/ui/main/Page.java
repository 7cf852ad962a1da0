package com.orderconsole.ui.main;

import com.orderconsole.app.Messages;

/** The console's pages, in navigation order. */
public enum Page {
    GRAPH(true),
    ORDERS(true),
    QUEUE(true),
    RECON(false),
    MONITOR(true),
    RULES(false),
    BULK(true),
    /** Refreshed like the other monitoring pages: an on-call engineer watches actions arrive (issue 34). */
    AUDIT(true);

    private final boolean autoRefresh;

    Page(boolean autoRefresh) {
        this.autoRefresh = autoRefresh;
    }

    /** @return the page name shown in the navigation, in the language in use (key main.page.NAME) */
    public String title() {
        return Messages.get("main.page." + name());
    }

    /**
     * @return true when the page reloads on the auto-refresh tick (tables keep their selection and scroll
     *         position, so nothing moves under the user); the reconciliation and the rules are read on demand
     */
    public boolean autoRefresh() {
        return autoRefresh;
    }
}
