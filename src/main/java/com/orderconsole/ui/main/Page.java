package com.orderconsole.ui.main;

/** The console's pages, in navigation order. */
public enum Page {
    GRAPH("State graph", true),
    ORDERS("Orders", true),
    QUEUE("Cancel queue", true),
    RECON("Reconciliation", false),
    METRICS("Metrics", true),
    RULES("Rules", false),
    BULK("%bulk.page.title", true),
    AUDIT("%audit.page.title", false);

    private final String title;
    private final boolean autoRefresh;

    Page(String title, boolean autoRefresh) {
        this.title = title;
        this.autoRefresh = autoRefresh;
    }

    /** @return the page name shown in the navigation */
    public String title() {
        // "%key": the title is in the bundles (as in FXML).
        return title.startsWith("%") ? com.orderconsole.app.Messages.get(title.substring(1)) : title;
    }

    /**
     * @return true when the page reloads on the auto-refresh tick (tables keep their selection and scroll
     *         position, so nothing moves under the user); the reconciliation and the rules are read on demand
     */
    public boolean autoRefresh() {
        return autoRefresh;
    }
}
