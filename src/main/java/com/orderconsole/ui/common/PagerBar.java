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
        Actions.bind(previous, pager.previousCommand(), pager::previous);
        Actions.bind(next, pager.nextCommand(), pager::next);
        page.textProperty().bind(Bindings.createStringBinding(
                () -> pageText.apply(pager.pageNumberProperty().get()), pager.pageNumberProperty()));
    }
}
