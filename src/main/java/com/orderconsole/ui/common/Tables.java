package com.orderconsole.ui.common;

import javafx.beans.binding.Bindings;
import javafx.beans.property.Property;
import javafx.collections.ListChangeListener;
import javafx.collections.ObservableList;
import javafx.scene.control.ContentDisplay;
import javafx.scene.control.IndexedCell;
import javafx.scene.control.Label;
import javafx.scene.control.TableCell;
import javafx.scene.control.TableColumn;
import javafx.scene.control.TableView;
import javafx.scene.control.skin.VirtualFlow;
import javafx.scene.text.Text;
import javafx.util.Callback;

import java.util.Objects;
import java.util.function.Function;

/**
 * Tables whose rows are reloaded under the user (auto-refresh, after an action): the selected row and
 * the scroll position survive a reload, so a button bound to the selection does not grey out between
 * two clicks. Use on the UI thread.
 */
public final class Tables {
    private Tables() {
    }

    /**
     * Binds a table to a view model's list and selection, keeping both across reloads of the list.
     * The view model's property is the one truth: a click selects into it; after the list is replaced
     * the row with the same key is selected again (with the new data), or nothing when it is gone.
     *
     * @param table the table; its items become {@code items}
     * @param items the view model's rows, replaced wholesale on every reload
     * @param selected the view model's selection, e.g. the queue entry the actions apply to
     * @param key what identifies a row across reloads, e.g. the order id
     */
    public static <T> void bind(TableView<T> table, ObservableList<T> items, Property<T> selected, Function<? super T, ?> key) {
        boolean[] reloading = {false};
        int[] firstVisible = {-1};
        // Registered before the table's own listeners, so it runs before the selection model clears the selection.
        items.addListener((ListChangeListener<T>) c -> {
            reloading[0] = true;
            firstVisible[0] = firstVisibleIndex(table);
        });
        table.setItems(items);
        // Registered after them: the list is replaced and the table has dropped its selection.
        items.addListener((ListChangeListener<T>) c -> {
            try {
                T was = selected.getValue();
                T now = was == null ? null : items.stream()
                        .filter(i -> Objects.equals(key.apply(i), key.apply(was))).findFirst().orElse(null);
                selected.setValue(now);
                if (now == null) {
                    table.getSelectionModel().clearSelection();
                } else {
                    table.getSelectionModel().select(now);
                }
                if (firstVisible[0] >= 0 && firstVisible[0] < items.size()) {
                    table.scrollTo(firstVisible[0]);
                }
            } finally {
                reloading[0] = false;
            }
        });
        table.getSelectionModel().selectedItemProperty().addListener((o, a, row) -> {
            if (!reloading[0]) {
                selected.setValue(row);
            }
        });
        selected.addListener((o, a, now) -> {
            if (!reloading[0] && now != table.getSelectionModel().getSelectedItem()) {
                if (now == null) {
                    table.getSelectionModel().clearSelection();
                } else {
                    table.getSelectionModel().select(now);
                }
            }
        });
    }

    /**
     * As {@link #bind(TableView, ObservableList, Property, Function)}, with the words shown while the table is empty.
     *
     * @param empty e.g. "No entries in the queue."
     */
    public static <T> void bind(TableView<T> table, ObservableList<T> items, Property<T> selected, Function<? super T, ?> key,
                                String empty) {
        bind(table, items, selected, key);
        table.setPlaceholder(new Label(empty));
    }

    /**
     * Cells for free text of any length (a repair's detail, a reason): the text wraps at the column's width
     * and its row grows to hold it, so the whole text is on screen however narrow the column is made. A
     * plain cell would cut it with "…" and leave the rest unreachable.
     *
     * @return a cell factory for the column
     */
    public static <S> Callback<TableColumn<S, String>, TableCell<S, String>> wrapping() {
        return column -> new TableCell<>() {
            private final Text text = new Text();

            {
                // Drawn by a Text of its own (a wrapping Labeled does not make its row taller); it follows the
                // cell's font and colour, which CSS changes with the theme and on a selected row.
                text.fontProperty().bind(fontProperty());
                text.fillProperty().bind(textFillProperty());
                text.wrappingWidthProperty().bind(Bindings.createDoubleBinding(
                        () -> Math.max(0, column.getWidth() - getPadding().getLeft() - getPadding().getRight() - 1),
                        column.widthProperty(), paddingProperty()));
                setContentDisplay(ContentDisplay.GRAPHIC_ONLY);
            }

            @Override
            protected void updateItem(String item, boolean empty) {
                super.updateItem(item, empty);
                text.setText(empty || item == null ? "" : item);
                setGraphic(empty || item == null ? null : text);
            }
        };
    }

    /**
     * Cells for short text in a column that may be narrower than it (an order id, a time, a name): cut with "…" as
     * usual, and the whole text in a tooltip, so a cut value is never out of reach (issue 34).
     *
     * @return a cell factory for the column
     */
    public static <S, T> Callback<TableColumn<S, T>, TableCell<S, T>> tooltipped() {
        return column -> new TableCell<>() {
            private final javafx.scene.control.Tooltip tip = new javafx.scene.control.Tooltip();

            @Override
            protected void updateItem(T item, boolean empty) {
                super.updateItem(item, empty);
                String text = empty || item == null ? "" : item.toString();
                setText(text.isEmpty() ? null : text);
                tip.setText(text);
                setTooltip(text.isEmpty() ? null : tip);
            }
        };
    }

    /**
     * Gives every column of a table that has no cell factory of its own a {@link #tooltipped()} one.
     *
     * @param table its plain columns get tooltips; columns with their own cells are left alone
     */
    @SuppressWarnings("unchecked")
    public static <S> void tooltipsWhereCut(TableView<S> table) {
        for (TableColumn<S, ?> c : table.getColumns()) {
            if ((Object) c.getCellFactory() == (Object) TableColumn.DEFAULT_CELL_FACTORY) {
                ((TableColumn<S, Object>) c).setCellFactory(tooltipped());
            }
        }
    }

    /** @return index of the first row shown, -1 when the table has no rows on screen yet */
    private static int firstVisibleIndex(TableView<?> table) {
        if (table.lookup(".virtual-flow") instanceof VirtualFlow<?> flow) {
            IndexedCell<?> cell = flow.getFirstVisibleCell();
            return cell == null ? -1 : cell.getIndex();
        }
        return -1;
    }
}
