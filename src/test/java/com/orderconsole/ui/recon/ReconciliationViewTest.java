package com.orderconsole.ui.recon;

import com.orderconsole.RawSql;
import com.orderconsole.domain.Operator;
import com.orderconsole.domain.OrderStatus;
import com.orderconsole.domain.Role;
import com.orderconsole.domain.TransitionRequest;
import com.orderconsole.service.recon.ReconCategory;
import com.orderconsole.service.recon.ReconFinding;
import com.orderconsole.ui.ConsoleFxTest;
import com.orderconsole.ui.recon.ReconciliationViewModel.CategoryRow;
import javafx.scene.control.TableView;
import org.junit.jupiter.api.Test;

import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/** Reconciliation by click: a planted disagreement is found, previewed, repaired and gone on the re-run. */
class ReconciliationViewTest extends ConsoleFxTest {

    @Test
    void findsAndRepairsAPlantedDisagreement() throws Exception {
        createOrder("r-1");
        createOrder("r-2");
        services.transitions().transition(new Operator("setup", Role.SUPPORT),
                TransitionRequest.of("r-2", OrderStatus.PAID, "test", "paid"));
        services.follower().drainOnce();
        // Plant: MySQL lost the payment (back to WAIT_PAY v1) while Redis has PAID v2.
        RawSql.update("UPDATE orders SET status = 1, version = 1 WHERE order_id = 'r-2'");

        openConsole("olga", Role.OPS);
        clickOn("#nav-RECON");
        clickOn("#runButton");
        waitUntil(() -> Long.valueOf(1).equals(count(ReconCategory.STATE_MISMATCH)));
        assertThat(rows("#categoryTable")).extracting(r -> ((CategoryRow) r).count()).containsOnly(0L, 1L);
        assertThat(text("#progressText")).endsWith(": 1 finding.");

        // The one category with findings is chosen and its findings listed as the run ends, without a click.
        waitUntil(() -> rows("#findingTable").size() == 1);
        assertThat(onFx(() -> lookup("#categoryTable").<TableView<CategoryRow>>query().getSelectionModel().getSelectedItem().category()))
                .isEqualTo(ReconCategory.STATE_MISMATCH);
        ReconFinding f = (ReconFinding) rows("#findingTable").get(0);
        assertThat(f.orderId()).isEqualTo("r-2");
        assertThat(f.detail()).isEqualTo("Redis ahead by 1 version");
        // Issue 34: cut columns had no tooltip; every finding cell says its whole text in one.
        assertThat(onFx(() -> lookup("#findingTable .table-cell").queryAll().stream()
                .map(n -> (javafx.scene.control.TableCell<?, ?>) n).filter(c -> !c.isEmpty() && c.getItem() != null)
                .filter(c -> c.getTooltip() != null).map(c -> c.getTooltip().getText()).toList()))
                .contains("r-2");

        clickOn("#repairButton");
        waitUntil(() -> lookup(".dialog-pane").tryQuery().isPresent());
        waitUntil(() -> shown("#reasonField"));
        clickOn("#reasonField").write("MySQL restored from last night's copy");
        clickOn("#confirmButton");

        waitUntil(() -> text("#reconMessage").startsWith("Status/version disagree: repaired 1 of 1."));
        waitUntil(() -> Long.valueOf(0).equals(count(ReconCategory.STATE_MISMATCH)));
        assertThat(text("#progressText")).contains("Redis and MySQL agree.");
        assertThat(RawSql.count("SELECT COUNT(*) FROM orders WHERE order_id = 'r-2' AND status = 2 AND version = 2")).isEqualTo(1);
    }

    /** A dead letter's kind is said in words in the table, in the console's language. */
    @Test
    void theDeadLettersTableSaysEachKindInWords() throws Exception {
        createOrder("dk-1");
        try (com.orderconsole.RawRedis raw = new com.orderconsole.RawRedis()) {
            raw.cmd().hset(com.orderconsole.redis.RedisKeys.order("dk-1"), "status", "7");
        }
        services.transitions().transition(new Operator("setup", Role.SUPPORT), TransitionRequest.of("dk-1", OrderStatus.PAID, "test", ""));
        assertThat(services.deadLetters().countOpen()).isEqualTo(1);

        openConsole("olga", Role.OPS);
        clickOn("#nav-RECON");
        interact(() -> lookup("#tabs").<javafx.scene.control.TabPane>query().getSelectionModel().select(1));
        waitUntil(() -> rows("#letterTable").size() == 1);
        String kind = onFx(() -> {
            TableView<?> t = lookup("#letterTable").<TableView<?>>query();
            return String.valueOf(t.getColumns().get(1).getCellData(0));
        });
        assertThat(kind).isEqualTo("malformed record");
        // The tab's introduction wraps to a second line at 1280 px rather than ending in "…" (seen in a real window).
        java.util.List<String> cut = new java.util.ArrayList<>();
        interact(() -> com.orderconsole.ui.CutTexts.collect(lookup("#lettersIntro").query(), "dead letters at 1280x800", cut));
        assertThat(cut).isEmpty();

        // The Reason and Found record columns cut their text at 1280 px: the selected letter's whole text is below.
        com.orderconsole.service.deadletter.DeadLetter letter = services.deadLetters().open(10).get(0);
        assertThat(detail()).isEmpty();
        interact(() -> lookup("#letterTable").<TableView<?>>query().getSelectionModel().select(0));
        waitUntil(() -> !detail().isEmpty());
        assertThat(detail()).isEqualTo("Reason: " + letter.reason() + "\nFound record: " + letter.body()).contains("7");
    }

    private String detail() {
        return onFx(() -> lookup("#letterDetail").<javafx.scene.control.TextArea>query().getText());
    }

    private Long count(ReconCategory c) {
        List<CategoryRow> rows = rows("#categoryTable");
        return rows.stream().filter(r -> r.category() == c).map(CategoryRow::count).findFirst().orElse(null);
    }
}
