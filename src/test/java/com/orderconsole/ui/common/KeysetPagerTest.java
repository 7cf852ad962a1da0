package com.orderconsole.ui.common;

import com.orderconsole.ui.DirectBackground;
import com.orderconsole.ui.HeldBackground;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/** The keyset pager on an in-memory list: cursors both ways, selection kept by key, failures and overlapping loads. */
class KeysetPagerTest {
    /** A row as read: its key and the version it was read at (a reload reads new objects). */
    record Row(int id, int version) {
    }

    /** Ten rows, ids 0..9, read three a page; a cursor is the id a page starts at. */
    private final List<String> asked = new ArrayList<>();
    private int version = 1;
    private boolean failing;
    private final List<String> errors = new ArrayList<>();
    private final List<Integer> shownSizes = new ArrayList<>();

    private KeysetPager.Page<Row> read(String cursor, int from, int to) {
        asked.add(cursor);
        if (failing) {
            throw new IllegalStateException("server gone");
        }
        int start = cursor == null ? from : Integer.parseInt(cursor);
        List<Row> rows = new ArrayList<>();
        for (int i = start; i < Math.min(start + 3, to); i++) {
            rows.add(new Row(i, version));
        }
        return new KeysetPager.Page<>(rows, start + 3 < to ? Integer.toString(start + 3) : null);
    }

    private KeysetPager<Row> pager(Background background) {
        return new KeysetPager<>(background, (c, j) -> read(c, 0, 10), "load rows", Row::id,
                rows -> shownSizes.add(rows.size()), errors::add);
    }

    @Test
    void pagesForwardAndBackByTheCursorsItWasHanded() {
        KeysetPager<Row> p = pager(new DirectBackground());
        p.first((c, j) -> read(c, 0, 10));
        assertThat(p.rows()).extracting(Row::id).containsExactly(0, 1, 2);
        assertThat(p.hasPreviousProperty().get()).isFalse();
        p.next();
        p.next();
        p.next();
        assertThat(p.pageNumberProperty().get()).isEqualTo(4);
        assertThat(p.rows()).extracting(Row::id).containsExactly(9);
        assertThat(p.hasNextProperty().get()).isFalse();
        assertThat(p.nextCommand().executableProperty().get()).isFalse();
        p.next();
        assertThat(p.pageNumberProperty().get()).as("nothing follows the last page").isEqualTo(4);
        p.previous();
        p.previous();
        assertThat(p.pageNumberProperty().get()).isEqualTo(2);
        assertThat(p.rows()).extracting(Row::id).containsExactly(3, 4, 5);
        p.previous();
        assertThat(p.rows()).extracting(Row::id).containsExactly(0, 1, 2);
        assertThat(p.previousCommand().executableProperty().get()).isFalse();
        assertThat(asked).containsExactly(null, "3", "6", "9", "6", "3", null);
        assertThat(shownSizes).containsExactly(3, 3, 3, 1, 3, 3, 3);
    }

    /**
     * A trial found the order table frozen from page 2 on: each 2 s auto-refresh threw a NullPointerException (the
     * cursor of page 1 is null, and the refresh copied the stack of cursors with List.copyOf).
     */
    @Test
    void aRefreshOnALaterPageReadsThatPageAgain() {
        KeysetPager<Row> p = pager(new DirectBackground());
        p.first((c, j) -> read(c, 0, 10));
        p.next();
        p.next();
        version = 2;
        p.refresh();
        assertThat(errors).isEmpty();
        assertThat(p.pageNumberProperty().get()).isEqualTo(3);
        assertThat(p.rows()).extracting(Row::id, Row::version).containsExactly(
                org.assertj.core.groups.Tuple.tuple(6, 2), org.assertj.core.groups.Tuple.tuple(7, 2), org.assertj.core.groups.Tuple.tuple(8, 2));
        p.previous();
        p.previous();
        assertThat(p.rows()).extracting(Row::id).containsExactly(0, 1, 2);
        assertThat(p.hasPreviousProperty().get()).isFalse();
    }

    @Test
    void aNewSearchStartsAtPageOneOfItsOwnFilter() {
        KeysetPager<Row> p = pager(new DirectBackground());
        p.refresh();
        assertThat(p.rows()).as("before any search: the initial reader").extracting(Row::id).containsExactly(0, 1, 2);
        p.next();
        p.first((c, j) -> read(c, 5, 10));
        assertThat(p.pageNumberProperty().get()).isEqualTo(1);
        assertThat(p.rows()).extracting(Row::id).containsExactly(5, 6, 7);
        assertThat(p.hasPreviousProperty().get()).isFalse();
        p.next();
        assertThat(p.rows()).as("later pages read the same filter").extracting(Row::id).containsExactly(8, 9);
    }

    @Test
    void theSelectedRowStaysSelectedAsNowReadAndIsDroppedWhenGone() {
        KeysetPager<Row> p = pager(new DirectBackground());
        p.refresh();
        p.selectedProperty().set(p.rows().get(1));
        version = 2;
        p.refresh();
        assertThat(p.selectedProperty().get()).isEqualTo(new Row(1, 2));
        assertThat(p.selectedProperty().get()).isSameAs(p.rows().get(1));
        p.next();
        assertThat(p.selectedProperty().get()).as("not on this page").isNull();
    }

    @Test
    void aFailedReadLeavesThePageAsItWas() {
        KeysetPager<Row> p = pager(new DirectBackground());
        p.refresh();
        p.next();
        failing = true;
        p.next();
        assertThat(errors).singleElement().satisfies(e -> assertThat(e).contains("server gone"));
        assertThat(p.pageNumberProperty().get()).isEqualTo(2);
        assertThat(p.rows()).extracting(Row::id).containsExactly(3, 4, 5);
        failing = false;
        p.previous();
        assertThat(p.pageNumberProperty().get()).isEqualTo(1);
        assertThat(p.rows()).extracting(Row::id).containsExactly(0, 1, 2);
        assertThat(p.hasPreviousProperty().get()).isFalse();
    }

    @Test
    void pagingWaitsForALoadUnderWayWhileASearchSupersedesIt() {
        HeldBackground held = new HeldBackground();
        KeysetPager<Row> p = pager(held);
        p.refresh();
        held.release(0);
        assertThat(p.rows()).hasSize(3);
        p.next();
        p.next();
        p.refresh();
        assertThat(asked).as("next and refresh wait while page 2 loads").containsExactly(null, "3");
        p.first((c, j) -> read(c, 7, 10));
        held.release(1);
        assertThat(p.rows()).as("the superseded answer is dropped").extracting(Row::id).containsExactly(0, 1, 2);
        held.release(2);
        assertThat(p.rows()).extracting(Row::id).containsExactly(7, 8, 9);
        assertThat(p.pageNumberProperty().get()).isEqualTo(1);
        assertThat(p.loadCommand().isRunning()).isFalse();
    }
}
