package com.orderconsole.ui.common;

import javafx.collections.ListChangeListener;
import javafx.collections.ObservableList;
import javafx.scene.control.SelectionMode;
import javafx.scene.control.TableView;

import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import java.util.function.Function;

/**
 * Several selected rows that survive reloads of a table bound with {@link Tables#bind}: the keys of the
 * selected rows are kept in a list (e.g. order ids for a bulk move) and, after the items are replaced, every
 * row whose key was selected is selected again, the bound single selection last so it stays the focused one.
 * Use on the UI thread: {@link #before} before {@link Tables#bind}, {@link #after} right after it.
 */
public final class MultiSelection<T> {
    private final TableView<T> table;
    private final ObservableList<T> items;
    private final Function<? super T, String> key;
    private final ObservableList<String> keys;
    private final Set<String> kept = new LinkedHashSet<>();
    private boolean reloading;

    private MultiSelection(TableView<T> table, ObservableList<T> items, Function<? super T, String> key, ObservableList<String> keys) {
        this.table = table;
        this.items = items;
        this.key = key;
        this.keys = keys;
    }

    /**
     * Turns on multiple selection and notes the selected keys before each reload; call before {@link Tables#bind}.
     *
     * @param keys receives the keys of the selected rows (a view model's list), replaced on every change
     */
    public static <T> MultiSelection<T> before(TableView<T> table, ObservableList<T> items, Function<? super T, String> key,
                                               ObservableList<String> keys) {
        MultiSelection<T> m = new MultiSelection<>(table, items, key, keys);
        table.getSelectionModel().setSelectionMode(SelectionMode.MULTIPLE);
        items.addListener((ListChangeListener<T>) c -> {
            m.reloading = true;
            m.kept.clear();
            m.kept.addAll(m.keys);
        });
        return m;
    }

    /** Reselects the noted rows after each reload and follows the user's selection; call after {@link Tables#bind}. */
    public MultiSelection<T> after() {
        items.addListener((ListChangeListener<T>) c -> {
            try {
                T focused = table.getSelectionModel().getSelectedItem();
                List<Integer> again = new java.util.ArrayList<>();
                for (int i = 0; i < items.size(); i++) {
                    if (kept.contains(key.apply(items.get(i))) && items.get(i) != focused) {
                        again.add(i);
                    }
                }
                if (focused != null) {
                    again.add(table.getSelectionModel().getSelectedIndex());
                }
                // One call, the focused row last: the single selection (the open order) never passes through another row.
                if (again.size() > 1 || again.size() == 1 && focused == null) {
                    int[] rest = again.subList(1, again.size()).stream().mapToInt(Integer::intValue).toArray();
                    table.getSelectionModel().selectIndices(again.get(0), rest);
                }
            } finally {
                reloading = false;
                publish();
            }
        });
        table.getSelectionModel().getSelectedItems().addListener((ListChangeListener<T>) c -> {
            if (!reloading) {
                publish();
            }
        });
        return this;
    }

    private void publish() {
        List<String> now = table.getSelectionModel().getSelectedItems().stream().filter(java.util.Objects::nonNull).map(key).toList();
        if (!now.equals(keys)) {
            keys.setAll(now);
        }
    }
}
