package com.orderconsole.ui.common;

import javafx.beans.binding.Bindings;
import javafx.scene.control.Button;
import javafx.scene.control.Label;

import java.util.function.IntFunction;

/** The Previous / page number / Next bar under a keyset-paged table. Use on the UI thread. */
public final class PagerBar {
    private PagerBar() {
    }

    /**
     * @param pager the page's pager
     * @param previous shows the page before; enabled while there is one and no page loads
     * @param page shows the page number in words
     * @param next shows the page after; enabled while there is one and no page loads
     * @param pageText the words for a page number, e.g. "Page 2"
     */
    public static void bind(KeysetPager<?> pager, Button previous, Label page, Button next, IntFunction<String> pageText) {
        bind(pager, previous, page, next, pageText, pager::previous, pager::next);
    }

    /**
     * As {@link #bind(KeysetPager, Button, Label, Button, IntFunction)}, with the page's own Previous and Next actions.
     * The keyboard focus stays on the button pressed: it is disabled while the page loads, and the scene moved the
     * focus on to the next control ("Bulk move (filter)…" after Next, issue 34); once the page is shown the focus
     * comes back to the button, or to the other one when there is no page further that way.
     */
    public static void bind(KeysetPager<?> pager, Button previous, Label page, Button next, IntFunction<String> pageText,
                            Runnable onPrevious, Runnable onNext) {
        Button[] pressed = {null};
        Actions.bind(previous, pager.previousCommand(), () -> {
            pressed[0] = previous.isFocused() ? previous : null;
            onPrevious.run();
        });
        Actions.bind(next, pager.nextCommand(), () -> {
            pressed[0] = next.isFocused() ? next : null;
            onNext.run();
        });
        pager.loadCommand().runningProperty().addListener((o, was, running) -> {
            if (!running && pressed[0] != null) {
                Button back = pressed[0];
                pressed[0] = null;
                // After the page is shown: "running" ends before the pager tells whether a page follows, and a Next
                // disabled just after it got the focus would pass it on again.
                javafx.application.Platform.runLater(() -> {
                    Button other = back == next ? previous : next;
                    (back.isDisabled() ? other : back).requestFocus();
                });
            }
        });
        page.textProperty().bind(Bindings.createStringBinding(
                () -> pageText.apply(pager.pageNumberProperty().get()), pager.pageNumberProperty()));
    }
}
