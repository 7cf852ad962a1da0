package com.orderconsole.ui;

import javafx.scene.Node;
import javafx.scene.Parent;
import javafx.scene.control.Labeled;
import javafx.scene.control.ScrollPane;
import javafx.scene.control.TextField;
import javafx.scene.text.Text;

import java.util.List;

/**
 * Finds text a user cannot read whole: labels, buttons, headers and cells cut short with "…", a text field's
 * placeholder wider than the field (JavaFX clips it without an ellipsis), and content wider than its pane.
 */
public final class CutTexts {
    private CutTexts() {
    }

    /**
     * Collects visible labeled nodes whose shown text is cut short (ellipsis), and fit-to-width scroll panes
     * whose content is wider than their viewport. Call on the FX thread after layout.
     *
     * @param node where to start
     * @param where a name for the messages, e.g. "orders at 1280x800"
     * @param cut receives one line per finding
     */
    public static void collect(Node node, String where, List<String> cut) {
        if (!node.isVisible()) {
            return;
        }
        if (node instanceof Labeled l && l.getText() != null && !l.getText().isEmpty() && l.lookup(".text") instanceof Text t
                && !t.getText().equals(l.getText()) && t.getText().endsWith(l.getEllipsisString())
                && !l.getText().endsWith(l.getEllipsisString())) {
            cut.add(where + ": " + (l.getId() != null ? "#" + l.getId() : l.getClass().getSimpleName()) + " \"" + l.getText() + "\"");
        }
        if (node instanceof TextField f && (f.getText() == null || f.getText().isEmpty()) && f.getPromptText() != null
                && !f.getPromptText().isEmpty() && f.getWidth() > 0) {
            Text measured = new Text(f.getPromptText());
            measured.setFont(f.getFont());
            double room = f.getWidth() - f.snappedLeftInset() - f.snappedRightInset();
            if (measured.getLayoutBounds().getWidth() > room + 1) {
                cut.add(where + ": " + (f.getId() != null ? "#" + f.getId() : f.getClass().getSimpleName()) + " placeholder \""
                        + f.getPromptText() + "\" (" + Math.round(measured.getLayoutBounds().getWidth()) + " > " + Math.round(room) + ")");
            }
        }
        if (node instanceof ScrollPane sp && sp.isFitToWidth() && sp.getContent() != null
                && sp.getContent().getLayoutBounds().getWidth() > sp.getViewportBounds().getWidth() + 1) {
            cut.add(where + ": " + (sp.getId() != null ? "#" + sp.getId() : "a scroll pane") + " is wider than its place ("
                    + Math.round(sp.getContent().getLayoutBounds().getWidth()) + " > " + Math.round(sp.getViewportBounds().getWidth()) + ")");
        }
        if (node instanceof Parent p) {
            for (Node c : p.getChildrenUnmodifiable()) {
                collect(c, where, cut);
            }
        }
    }
}
