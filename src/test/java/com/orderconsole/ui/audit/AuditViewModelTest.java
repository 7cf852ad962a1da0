package com.orderconsole.ui.audit;

import com.orderconsole.app.Messages;
import com.orderconsole.domain.Operator;
import com.orderconsole.domain.OrderStatus;
import com.orderconsole.domain.Role;
import com.orderconsole.service.audit.AuditEvent;
import com.orderconsole.service.audit.MoveKind;
import com.orderconsole.ui.BothModes;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedClass;
import org.junit.jupiter.params.provider.EnumSource;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Locale;

import static org.assertj.core.api.Assertions.assertThat;

/** The Audit page's model on real embedded servers: filters, keyset pages both ways, selection kept, export. */
@ParameterizedClass(name = "{0}")
@EnumSource(BothModes.Mode.class)
class AuditViewModelTest extends BothModes {

    @BeforeEach
    void english() {
        Messages.use(Locale.ENGLISH);
    }

    @Test
    void filtersPagesAndKeepsTheSelection(@TempDir Path dir) throws Exception {
        for (int i = 0; i < 5; i++) {
            createOrder("v-" + i);
            move("v-" + i, OrderStatus.PAID);
        }
        createOrder("v-x");
        services.queue().extend(new Operator("otto", Role.OPS), "v-x", Duration.ofMinutes(5), "console", "asked");
        services.follower().catchUp(Duration.ofSeconds(20));
        AuditViewModel vm = new AuditViewModel(audit(new Operator("rita", Role.READ_ONLY)), background, dialogs, 3);
        vm.search();
        assertThat(vm.rows()).hasSize(3);
        assertThat(vm.pager().hasNextProperty().get()).isTrue();
        AuditEvent first = vm.rows().get(0);
        vm.selectedProperty().set(vm.rows().get(1));
        vm.refresh();
        assertThat(vm.selectedProperty().get()).isNotNull();
        vm.nextPage();
        assertThat(vm.pager().pageNumberProperty().get()).isEqualTo(2);
        assertThat(vm.rows()).doesNotContain(first);
        vm.previousPage();
        assertThat(vm.rows().get(0)).isEqualTo(first);

        vm.actorProperty().set("otto");
        vm.search();
        assertThat(vm.rows()).singleElement().satisfies(e -> assertThat(AuditViewModel.what(e)).startsWith("QUEUE_EXTEND"));
        vm.actorProperty().set("");
        vm.moveKindProperty().set(MoveKind.LEGAL);
        vm.search();
        assertThat(vm.rows()).hasSize(3).allSatisfy(e -> assertThat(AuditViewModel.what(e)).isEqualTo("WAIT_PAY → PAID v2"));
        assertThat(AuditViewModel.result(vm.rows().get(0))).isEqualTo("1 · applied");

        vm.idPrefixProperty().set("bad prefix!");
        vm.search();
        assertThat(vm.feedback().errorProperty().get()).isTrue();
        assertThat(vm.feedback().messageProperty().get()).contains("prefix 'bad prefix!' is invalid");

        vm.clearFilters();
        Path csv = dir.resolve("a.csv");
        dialogs.file(csv);
        vm.exportCsv();
        assertThat(Files.readAllLines(csv)).hasSize(1 + 12);
    }

    /**
     * Tester finding 12 (shot 18): a cancel from the queue that lost to the sweeper read "CANCELLED → CANCELLED v2,
     * -3 version conflict", as if someone had cancelled a cancelled order. The record is right (the status found, the
     * target asked for, the version found); a refused move reads as the move asked for and the state that refused it.
     */
    @Test
    void aRefusedMoveReadsAsWhatWasAttemptedNotAsAMove() {
        createOrder("lost-1");
        move("lost-1", OrderStatus.CANCELLED);
        assertThat(services.queue().cancelNow(new Operator("olga", Role.OPS), "lost-1", "race with sweeper").code().code())
                .isEqualTo(-3);
        services.follower().catchUp(Duration.ofSeconds(20));
        AuditViewModel vm = new AuditViewModel(audit(new Operator("rita", Role.READ_ONLY)), background, dialogs, 10);
        vm.idPrefixProperty().set("lost-1");
        vm.search();
        AuditEvent refused = vm.rows().stream().filter(e -> e.code() != null && e.code().code() == -3).findFirst().orElseThrow();
        assertThat(refused.from()).as("the record: status found").isEqualTo(OrderStatus.CANCELLED);
        assertThat(refused.to()).as("the record: target asked for").isEqualTo(OrderStatus.CANCELLED);
        assertThat(AuditViewModel.what(refused)).isEqualTo("move to CANCELLED refused (order was CANCELLED v2)");
        AuditEvent applied = vm.rows().stream().filter(e -> e.code() != null && e.code().code() == 1 && e.from() != null)
                .findFirst().orElseThrow();
        assertThat(AuditViewModel.what(applied)).isEqualTo("WAIT_PAY → CANCELLED v2");
        Messages.use(Locale.forLanguageTag("zh-CN"));
        try {
            assertThat(AuditViewModel.what(refused)).doesNotContain("→").doesNotContain("refused");
        } finally {
            Messages.use(Locale.ENGLISH);
        }
    }

    /**
     * Issue 34: "Written by (database)" had no "flagged only" filter; among many rows the flagged ones (history written
     * by an account other than its actor) are found across pages, and the rest left out.
     */
    @Test
    void flaggedOnlyListsTheRowsWrittenUnderAnotherName() {
        for (int i = 0; i < 8; i++) {
            createOrder("fl-" + i);
        }
        services.follower().catchUp(Duration.ofSeconds(20));
        com.orderconsole.RawSql.update("UPDATE order_history SET written_by = CONCAT(actor, '@10.0.0.1')");
        com.orderconsole.RawSql.update("UPDATE order_history SET written_by = 'mallory@10.0.0.9' WHERE order_id IN ('fl-1', 'fl-6')");
        AuditViewModel vm = new AuditViewModel(audit(new Operator("rita", Role.READ_ONLY)), background, dialogs, 3);
        vm.flaggedOnlyProperty().set(true);
        vm.search();
        assertThat(vm.rows()).extracting(AuditEvent::orderId).containsExactly("fl-6", "fl-1");
        assertThat(vm.rows()).allMatch(AuditEvent::actorUnlike);
        vm.clearFilters();
        assertThat(vm.flaggedOnlyProperty().get()).isFalse();
        assertThat(vm.rows()).hasSize(3);
    }

    /** Issue 34 (zh-CN leftovers): the "What" column names statuses and actions in the language in use. */
    @Test
    void whatSpeaksTheLanguageInUse() {
        createOrder("zh-1");
        services.queue().extend(new Operator("otto", Role.OPS), "zh-1", Duration.ofMinutes(5), "console", "asked");
        move("zh-1", OrderStatus.PAID);
        services.follower().catchUp(Duration.ofSeconds(20));
        AuditViewModel vm = new AuditViewModel(audit(new Operator("rita", Role.READ_ONLY)), background, dialogs);
        vm.search();
        Messages.use(Locale.SIMPLIFIED_CHINESE);
        try {
            assertThat(vm.rows()).extracting(AuditViewModel::what).contains("待支付 → 已支付 v2", "创建为 待支付 v1")
                    .anyMatch(w -> w.startsWith("延长支付截止时间"));
        } finally {
            Messages.use(Locale.ENGLISH);
        }
    }
}
