package com.orderconsole.ui.common;

import javafx.application.Platform;
import javafx.geometry.Bounds;
import javafx.scene.Node;
import javafx.scene.Parent;
import javafx.scene.control.ScrollPane;

/**
 * Scrolls the nearest {@link ScrollPane} around a node so that the node is in view: an outcome shown under the button
 * that caused it must not be scrolled out of sight (issue 34: the detail pane at 1280×800).
 */
public final class Reveal {
    private Reveal() {
    }

    /**
     * After the next layout, scrolls the enclosing scroll pane as little as needed to show the whole node (its top
     * when it is taller than the viewport). Nothing when the node is in no scroll pane or not shown. UI thread.
     *
     * @param node what must be seen
     */
    public static void later(Node node) {
        Platform.runLater(() -> now(node));
    }

    /** {@link #later} without waiting for the next pulse (lays the scroll pane out first). */
    static void now(Node node) {
        ScrollPane sp = scrollPaneOf(node);
        if (sp == null || sp.getContent() == null || !node.isVisible()) {
            return;
        }
        sp.layout();
        Node content = sp.getContent();
        Bounds b = content.sceneToLocal(node.localToScene(node.getBoundsInLocal()));
        double viewport = sp.getViewportBounds().getHeight();
        double extent = content.getBoundsInLocal().getHeight() - viewport;
        if (b == null || extent <= 0) {
            return;
        }
        double top = sp.getVvalue() * extent;
        if (b.getMinY() < top || b.getHeight() > viewport) {
            top = b.getMinY();
        } else if (b.getMaxY() > top + viewport) {
            top = b.getMaxY() - viewport;
        } else {
            return;
        }
        sp.setVvalue(Math.max(0, Math.min(1, top / extent)));
    }

    private static ScrollPane scrollPaneOf(Node node) {
        for (Parent p = node.getParent(); p != null; p = p.getParent()) {
            if (p instanceof ScrollPane sp) {
                return sp;
            }
        }
        return null;
    }
}
