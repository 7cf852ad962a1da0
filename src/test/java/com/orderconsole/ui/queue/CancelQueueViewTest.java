package com.orderconsole.ui.queue;

import com.orderconsole.domain.OrderStatus;
import com.orderconsole.domain.Role;
import com.orderconsole.service.queue.QueueItem;
import com.orderconsole.ui.ConsoleFxTest;
import javafx.scene.control.TableView;
import org.junit.jupiter.api.Test;

import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/** The cancel-queue monitor: entries, cancel now, pause/resume, and no actions for roles below ops. */
class CancelQueueViewTest extends ConsoleFxTest {

    @Test
    void opsCancelsAnUnpaidOrderFromTheQueue() throws Exception {
        createOrder("q-1");
        createOrder("q-2");
        openConsole("olga", Role.OPS);
        clickOn("#nav-QUEUE");
        waitUntil(() -> rows("#queueTable").size() == 2);
        assertThat(text("#depth")).isEqualTo("2");
        assertThat(text("#overdue")).isEqualTo("0");

        int row = onFx(() -> {
            List<QueueItem> items = lookup("#queueTable").<TableView<QueueItem>>query().getItems();
            return items.indexOf(items.stream().filter(i -> i.orderId().equals("q-2")).findFirst().orElseThrow());
        });
        interact(() -> lookup("#queueTable").<TableView<QueueItem>>query().getSelectionModel().select(row));
        clickOn("#cancelButton");
        waitUntil(() -> shown("#reasonField"));
        clickOn("#reasonField").write("fraud check failed");
        clickOn("#confirmButton");

        waitUntil(() -> text("#queueMessage").startsWith("Order q-2 cancelled"));
        waitUntil(() -> rows("#queueTable").size() == 1);
        assertThat(rows("#queueTable")).extracting(i -> ((QueueItem) i).orderId()).containsExactly("q-1");
        assertThat(text("#depth")).isEqualTo("1");
        assertThat(services.orders().lookup("q-2").summary().redisStatus()).isEqualTo(OrderStatus.CANCELLED);
        assertThat(services.orders().lookup("q-1").summary().redisStatus()).isEqualTo(OrderStatus.WAIT_PAY);
    }

    @Test
    void opsPausesAndResumesTheSweeper() throws Exception {
        openConsole("olga", Role.OPS);
        clickOn("#nav-QUEUE");
        waitUntil(() -> "Pause sweeper".equals(text("#pauseButton")) && !onFx(() -> lookup("#pauseButton").query().isDisabled()));
        clickOn("#pauseButton");
        waitUntil(() -> "Resume sweeper".equals(text("#pauseButton")));
        assertThat(text("#sweeperState")).isEqualTo("Sweeper PAUSED");
        assertThat(services.sweeper().status().paused()).isTrue();

        clickOn("#pauseButton");
        waitUntil(() -> "Pause sweeper".equals(text("#pauseButton")));
        assertThat(services.sweeper().status().paused()).isFalse();
    }

    @Test
    void supportSeesTheQueueButNoActions() throws Exception {
        createOrder("q-3");
        openConsole("alice", Role.SUPPORT);
        clickOn("#nav-QUEUE");
        waitUntil(() -> rows("#queueTable").size() == 1);
        assertThat(shown("#cancelButton")).isFalse();
        assertThat(shown("#removeButton")).isFalse();
        assertThat(shown("#pauseButton")).isFalse();
        assertThat(shown("#roleHint")).isTrue();
    }
}
