package com.orderconsole.ui.common;

import com.orderconsole.domain.OrderStatus;
import javafx.scene.Node;
import javafx.scene.control.Labeled;

import java.util.Arrays;
import java.util.Locale;

/**
 * Style classes as constants (styles/app.css, and AtlantaFX's for its own), and the few ways views
 * switch them, so no view spells a class name or repeats remove-then-add.
 */
public final class Styles {
    /** AtlantaFX: the main action of a page. */
    public static final String ACCENT = atlantafx.base.theme.Styles.ACCENT;
    /** AtlantaFX: an action that destroys or cancels. */
    public static final String DANGER = atlantafx.base.theme.Styles.DANGER;
    /** AtlantaFX: secondary text. */
    public static final String TEXT_MUTED = atlantafx.base.theme.Styles.TEXT_MUTED;

    /** Text that reports a refusal or failure. */
    public static final String MSG_ERROR = "msg-error";
    /** Text that reports a success. */
    public static final String MSG_OK = "msg-ok";
    /** Status-bar server state. */
    public static final String UP = "up";
    /** Status-bar server state. */
    public static final String DOWN = "down";
    /** Sweeper state: paused or never ran. */
    public static final String PAUSED = "paused";
    /** Sweeper or traffic simulator state: running. */
    public static final String RUNNING = "running";
    /** Table row: a cancel-queue entry whose order left WAIT_PAY or has no state. */
    public static final String STALE = "stale";
    /** Queue tiles: an old reading shown because the last one failed (greyed). */
    public static final String STALE_READING = "stale-reading";
    /** Table row: a cancel-queue entry past its expiry. */
    public static final String OVERDUE = "overdue";
    /** Table row: an order on which Redis and MySQL disagree. */
    public static final String DISAGREE = "disagree";
    /** Navigation button of a page. */
    public static final String NAV_BUTTON = "nav-button";
    /** State graph: one status. */
    public static final String GRAPH_NODE = "graph-node";
    /** State graph: a terminal status. */
    public static final String TERMINAL = "terminal";
    /** State graph: a status name. */
    public static final String GRAPH_NODE_NAME = "graph-node-name";
    /** State graph: a live count. */
    public static final String GRAPH_NODE_COUNT = "graph-node-count";
    /** State graph: the stuck-count button of a status. */
    public static final String STUCK_BADGE = "stuck-badge";
    /** State graph: a stuck badge counting none. */
    public static final String STUCK_NONE = "stuck-none";
    /** State graph: a transition's line. */
    public static final String GRAPH_EDGE = "graph-edge";
    /** State graph: a transition's arrow head. */
    public static final String GRAPH_ARROW = "graph-arrow";
    /** State graph: a transition's count. */
    public static final String GRAPH_EDGE_LABEL = "graph-edge-label";
    /** Metrics: the value written above a bar. */
    public static final String BAR_VALUE = "bar-value";
    /** Metrics: a bar counting more than zero (drawn with a visible top edge however short). */
    public static final String BAR_NONZERO = "bar-nonzero";
    /** Order history: what happened. */
    public static final String TIMELINE_WHAT = "timeline-what";

    /** Every status's class, see {@link #status}. */
    private static final String[] STATUSES = Arrays.stream(OrderStatus.values()).map(Styles::status).toArray(String[]::new);

    private Styles() {
    }

    /**
     * @param s an order status
     * @return its colour class, e.g. "status-wait_pay" (machine text: Locale.ROOT)
     */
    public static String status(OrderStatus s) {
        return "status-" + s.name().toLowerCase(Locale.ROOT);
    }

    /**
     * Shows or hides nodes and lets a hidden one give its place to the others (visible and managed together),
     * e.g. actions the role may not use.
     *
     * @param shown true to show
     * @param nodes the nodes
     */
    public static void shown(boolean shown, Node... nodes) {
        for (Node n : nodes) {
            n.setVisible(shown);
            n.setManaged(shown);
        }
    }

    /**
     * Adds or removes one class.
     *
     * @param node what to style
     * @param styleClass the class
     * @param on true to have it, false not to
     */
    public static void toggle(Node node, String styleClass, boolean on) {
        node.getStyleClass().remove(styleClass);
        if (on) {
            node.getStyleClass().add(styleClass);
        }
    }

    /**
     * @param env an environment
     * @return the inline style of its band (main window, profile picker, sign-in): its colour, white bold text; on
     *     production a taller band in larger type (24 px read as a thin stripe at 1920×1080, issue 34)
     */
    public static String environmentBand(com.orderconsole.domain.Environment env) {
        return "-fx-background-color: " + env.colour() + "; -fx-text-fill: white; -fx-font-weight: bold; "
                + (env.production() ? "-fx-padding: 7 14 7 14; -fx-font-size: 1.2em;" : "-fx-padding: 3 14 3 14;");
    }

    /**
     * Shows a page's feedback in a label: its text, in {@link #MSG_ERROR} or {@link #MSG_OK} as it says.
     *
     * @param label where the feedback is shown; its text is bound from now on
     * @param feedback the page's feedback
     */
    public static void toggle(Labeled label, Feedback feedback) {
        label.textProperty().bind(feedback.messageProperty());
        showError(label, feedback.errorProperty().get());
        feedback.errorProperty().addListener((o, a, error) -> showError(label, error));
    }

    /**
     * Gives a node one class of a set, or none of them.
     *
     * @param node what to style
     * @param chosen one of {@code choices}, or null for none
     * @param choices the classes that exclude each other, e.g. {@link #UP} and {@link #DOWN}
     */
    public static void pick(Node node, String chosen, String... choices) {
        node.getStyleClass().removeAll(choices);
        if (chosen != null) {
            node.getStyleClass().add(chosen);
        }
    }

    /**
     * Gives a node the colour class of one status, replacing the one it had.
     *
     * @param node what to style
     * @param s the status, or null for no status colour
     */
    public static void pickStatus(Node node, OrderStatus s) {
        pick(node, s == null ? null : status(s), STATUSES);
    }

    private static void showError(Labeled label, boolean error) {
        pick(label, error ? MSG_ERROR : MSG_OK, MSG_ERROR, MSG_OK);
    }
}
