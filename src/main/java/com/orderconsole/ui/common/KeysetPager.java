package com.orderconsole.ui.common;

import javafx.beans.property.ObjectProperty;
import javafx.beans.property.ReadOnlyBooleanProperty;
import javafx.beans.property.ReadOnlyBooleanWrapper;
import javafx.beans.property.ReadOnlyIntegerProperty;
import javafx.beans.property.ReadOnlyIntegerWrapper;
import javafx.beans.property.SimpleObjectProperty;
import javafx.collections.FXCollections;
import javafx.collections.ObservableList;

import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.function.Consumer;
import java.util.function.Function;

/**
 * Keyset paging for a table page: the rows of one page, Next by the cursor the service handed out,
 * Previous by replaying the cursor that started the page before (a stack of them, so no page is ever
 * read by offset), and the selected row kept across reloads by its key. Reads run through one
 * {@link Command}: a new search supersedes a load under way, while Next, Previous and a refresh wait
 * for it (their buttons are disabled meanwhile). The page number, the cursor stack and the rows change
 * together, only when a read answered: a failed read leaves the page shown as it was.
 * Use on the UI thread.
 *
 * @param <T> a row
 */
public final class KeysetPager<T> {
    /**
     * One page as read.
     *
     * @param rows the page's rows, in the order shown
     * @param nextCursor where the page after it starts; null when none follows
     */
    public record Page<T>(List<T> rows, String nextCursor) {
    }

    /** Reads one page of the filter in force; runs on a worker thread. */
    @FunctionalInterface
    public interface Reader<T> {
        /**
         * @param cursor where the page starts, null for the first page
         * @param job polled by long reads
         * @return the page
         */
        Page<T> read(String cursor, Job job) throws Exception;
    }

    private final String what;
    private final Function<? super T, ?> key;
    private final Consumer<? super List<T>> onShown;
    private final ObservableList<T> rows = FXCollections.observableArrayList();
    private final ObjectProperty<T> selected = new SimpleObjectProperty<>();
    private final ReadOnlyIntegerWrapper pageNumber = new ReadOnlyIntegerWrapper(1);
    private final ReadOnlyBooleanWrapper hasNext = new ReadOnlyBooleanWrapper();
    private final ReadOnlyBooleanWrapper hasPrevious = new ReadOnlyBooleanWrapper();
    private final Command loadCommand;
    private final Command nextCommand;
    private final Command previousCommand;
    /** Cursors that started the pages before the shown one, oldest first (null for page 1). */
    private final List<String> before = new ArrayList<>();
    private Reader<T> reader;
    private String current;
    private String next;
    private long loadedAtMs;

    /**
     * @param background where the reads run
     * @param initial reads the pages shown before the first search (usually of no filter), e.g. on the first refresh
     * @param what a read in words, e.g. "load orders"; prefixes the error text
     * @param key what identifies a row across reloads, e.g. the order id
     * @param onShown told the rows of every page shown (e.g. to say "no match"), after rows and selection are set
     * @param onError receives a failed read in words
     */
    public KeysetPager(Background background, Reader<T> initial, String what, Function<? super T, ?> key,
                       Consumer<? super List<T>> onShown, Consumer<String> onError) {
        this.reader = initial;
        this.what = what;
        this.key = key;
        this.onShown = onShown;
        this.loadCommand = new Command(background, onError);
        this.nextCommand = loadCommand.when(hasNext);
        this.previousCommand = loadCommand.when(hasPrevious);
    }

    /**
     * Shows the first page of a new filter; a load still under way is superseded.
     *
     * @param pages reads the pages of that filter (captures it: later pages read the same filter)
     */
    public void first(Reader<T> pages) {
        reader = pages;
        load(null, 1, List.of());
    }

    /** Shows the page after the shown one; nothing when there is none or a load runs. */
    public void next() {
        if (next == null || loadCommand.isRunning()) {
            return;
        }
        List<String> stack = new ArrayList<>(before);
        stack.add(current);
        load(next, pageNumber.get() + 1, stack);
    }

    /** Shows the page before the shown one; nothing when there is none or a load runs. */
    public void previous() {
        if (before.isEmpty() || loadCommand.isRunning()) {
            return;
        }
        List<String> stack = new ArrayList<>(before);
        String back = stack.remove(stack.size() - 1);
        load(back, pageNumber.get() - 1, stack);
    }

    /** Reads the shown page again (page 1 of the initial reader before any search); nothing while a load runs. */
    public void refresh() {
        if (!loadCommand.isRunning()) {
            // Not List.copyOf: page 1's cursor is null, and the copy threw on every refresh from page 2 on.
            load(current, pageNumber.get(), new ArrayList<>(before));
        }
    }

    private void load(String cursor, int number, List<String> stack) {
        Reader<T> r = reader;
        loadCommand.runLatest(what, job -> {
            Page<T> page = r.read(cursor, job);
            return new Loaded<>(page, System.currentTimeMillis());
        }, (Loaded<T> loaded) -> {
            before.clear();
            before.addAll(stack);
            current = cursor;
            next = loaded.page().nextCursor();
            loadedAtMs = loaded.atMs();
            T was = selected.get();
            rows.setAll(loaded.page().rows());
            selected.set(was == null ? null : rows.stream()
                    .filter(row -> Objects.equals(key.apply(row), key.apply(was))).findFirst().orElse(null));
            pageNumber.set(number);
            hasNext.set(next != null);
            hasPrevious.set(!before.isEmpty());
            onShown.accept(rows);
        });
    }

    private record Loaded<T>(Page<T> page, long atMs) {
    }

    /** @return the rows of the shown page */
    public ObservableList<T> rows() {
        return rows;
    }

    /** @return the row the user selected; after a reload the row with the same key, or null when it is gone */
    public ObjectProperty<T> selectedProperty() {
        return selected;
    }

    /** @return 1-based number of the shown page */
    public ReadOnlyIntegerProperty pageNumberProperty() {
        return pageNumber.getReadOnlyProperty();
    }

    /** @return true when a page follows the shown one */
    public ReadOnlyBooleanProperty hasNextProperty() {
        return hasNext.getReadOnlyProperty();
    }

    /** @return true when a page precedes the shown one */
    public ReadOnlyBooleanProperty hasPreviousProperty() {
        return hasPrevious.getReadOnlyProperty();
    }

    /** @return runs every read; executable while none runs */
    public Command loadCommand() {
        return loadCommand;
    }

    /** @return executable while a page follows the shown one and no read runs */
    public Command nextCommand() {
        return nextCommand;
    }

    /** @return executable while a page precedes the shown one and no read runs */
    public Command previousCommand() {
        return previousCommand;
    }

    /** @return when the shown page was read, epoch ms (this machine's clock), 0 before the first */
    public long loadedAtMs() {
        return loadedAtMs;
    }
}
