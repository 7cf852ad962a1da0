package com.orderconsole.ui.bulk;

import com.orderconsole.domain.OrderStatus;
import com.orderconsole.ui.common.OrderText;
import javafx.scene.control.ComboBox;
import javafx.scene.control.ListCell;

/**
 * Cells of a status box: each status named as the console names it in the language in use, and while none is chosen
 * the box says what to choose. A box's own button cell shows nothing, not its prompt, when it is created with no value
 * or its value is set back to none; this one shows the prompt then.
 */
final class StatusCells {
    private StatusCells() {
    }

    /**
     * @param box the box to dress
     * @param prompt what to choose, in words, shown while the box has no value
     */
    static void use(ComboBox<OrderStatus> box, String prompt) {
        box.setPromptText(prompt);
        box.setCellFactory(l -> cell(""));
        box.setButtonCell(cell(prompt));
    }

    private static ListCell<OrderStatus> cell(String whenEmpty) {
        return new ListCell<>() {
            {
                // Until the box has had a value its skin never updates the button cell, whose text stays "".
                setText(whenEmpty);
                // The box's skin empties its button cell's text when there is no value: the prompt is put back.
                textProperty().addListener((o, was, now) -> {
                    if (!whenEmpty.isEmpty() && (now == null || now.isEmpty()) && getItem() == null) {
                        setText(whenEmpty);
                    }
                });
            }

            @Override
            protected void updateItem(OrderStatus item, boolean empty) {
                super.updateItem(item, empty);
                setText(empty || item == null ? whenEmpty : OrderText.status(item));
            }
        };
    }
}
