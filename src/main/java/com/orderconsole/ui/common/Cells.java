package com.orderconsole.ui.common;

import javafx.beans.property.ReadOnlyStringWrapper;
import javafx.beans.value.ObservableValue;
import javafx.scene.control.ComboBox;
import javafx.scene.control.ListCell;

import java.util.function.Function;

/** Cells the pages show values in: table texts and the words a choice box shows for its items. */
public final class Cells {
    private Cells() {
    }

    /**
     * @param s a table cell's text, may be null
     * @return a fixed value for a cell value factory; null shows as an empty cell
     */
    public static ObservableValue<String> text(String s) {
        return new ReadOnlyStringWrapper(s == null ? "" : s);
    }

    /**
     * Shows a choice box's items (and its chosen one) in words.
     *
     * @param box the choice box
     * @param label the words for an item; called with null for a "none / any" item
     */
    public static <T> void label(ComboBox<T> box, Function<T, String> label) {
        box.setButtonCell(cell(label));
        box.setCellFactory(l -> cell(label));
    }

    private static <T> ListCell<T> cell(Function<T, String> label) {
        return new ListCell<>() {
            @Override
            protected void updateItem(T item, boolean empty) {
                super.updateItem(item, empty);
                setText(empty ? null : label.apply(item));
            }
        };
    }
}
