package com.orderconsole.ui.bulk;

import com.orderconsole.app.Messages;
import com.orderconsole.domain.OrderStatus;
import com.orderconsole.domain.Role;
import com.orderconsole.ui.ConsoleFxTest;
import javafx.scene.control.ComboBox;
import javafx.scene.control.ListCell;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import java.util.Locale;

import static org.assertj.core.api.Assertions.assertThat;

/** The bulk page's target box always says something: what to choose while none is chosen, the status in words once one is. */
class BulkTargetBoxTest extends ConsoleFxTest {

    @AfterEach
    void english() {
        Messages.use(Locale.ENGLISH);
    }

    private String shownInBox() {
        return onFx(() -> {
            ComboBox<?> box = lookup("#targetBox").query();
            ListCell<?> cell = box.getButtonCell() != null ? box.getButtonCell() : (ListCell<?>) box.lookup(".list-cell");
            return cell == null || cell.getText() == null ? "" : cell.getText();
        });
    }

    @Test
    void theTargetBoxIsNeverBlank() throws Exception {
        Messages.use(Locale.ENGLISH);
        openConsole("sam", Role.SUPPORT);
        clickOn("#nav-BULK");
        waitUntil(() -> shown("#targetBox"));
        assertThat(shownInBox()).as("on opening").isEqualTo(Messages.get("bulk.target.prompt")).isNotBlank();
        interact(() -> lookup("#targetBox").<ComboBox<OrderStatus>>query().setValue(OrderStatus.PAID));
        assertThat(shownInBox()).isEqualTo("PAID");
        interact(() -> lookup("#targetBox").<ComboBox<OrderStatus>>query().setValue(null));
        assertThat(shownInBox()).as("after the choice is cleared").isEqualTo(Messages.get("bulk.target.prompt"));
    }
}
