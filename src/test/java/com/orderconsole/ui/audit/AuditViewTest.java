package com.orderconsole.ui.audit;

import com.orderconsole.app.Messages;
import com.orderconsole.domain.OrderStatus;
import com.orderconsole.domain.Role;
import com.orderconsole.domain.TransitionRequest;
import com.orderconsole.domain.Operator;
import com.orderconsole.service.audit.AuditEvent;
import com.orderconsole.ui.ConsoleFxTest;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.Locale;

import static org.assertj.core.api.Assertions.assertThat;

/** The Audit page by click: every action listed, then filtered by actor. */
class AuditViewTest extends ConsoleFxTest {

    @BeforeEach
    void english() {
        Messages.use(Locale.ENGLISH);
    }

    @Test
    void listsEveryActionAndFiltersByActor() throws Exception {
        createOrder("u-1");
        createOrder("u-2");
        services.transitions().transition(new Operator("paula", Role.SUPPORT), TransitionRequest.of("u-2", OrderStatus.PAID, "console", "paid"));
        services.follower().catchUp(Duration.ofSeconds(20));
        openConsole("rita", Role.READ_ONLY);
        clickOn("#nav-AUDIT");
        waitUntil(() -> rows("#auditTable").size() == 3);
        clickOn("#actorField").write("paula");
        clickOn("#searchButton");
        waitUntil(() -> rows("#auditTable").size() == 1);
        AuditEvent e = (AuditEvent) rows("#auditTable").get(0);
        assertThat(e.orderId()).isEqualTo("u-2");
        assertThat(AuditViewModel.what(e)).isEqualTo("WAIT_PAY → PAID v2");
        assertThat(text("#pageLabel")).isEqualTo("Page 1");
        javafx.scene.control.TableView<?> table = lookup("#auditTable").query();
        assertThat(table.getColumns()).filteredOn(c -> "cWriter".equals(c.getId())).singleElement()
                .satisfies(c -> assertThat(c.isVisible()).as("no row has a writer stamp without grant tables: no empty column").isFalse());
    }

    /**
     * The sweeper's name is on every payment-timeout cancel; at 1280x800 a real window showed it as
     * "cancel-swee…" in a 120 px actor column.
     */
    @Test
    void theSweepersNameIsShownWholeAt1280x800() throws Exception {
        createOrder("u-3");
        // Due in MySQL: the follower applies a cancel in the sweeper's name only at or after the deadline MySQL holds.
        com.orderconsole.RawSql.update("UPDATE orders SET expire_at_ms = 1000 WHERE order_id = 'u-3'");
        services.transitions().transition(new Operator(com.orderconsole.service.queue.CancelSweeper.ACTOR, Role.SUPPORT),
                TransitionRequest.of("u-3", OrderStatus.CANCELLED, "sweeper", "payment timeout"));
        services.follower().catchUp(Duration.ofSeconds(20));
        openConsole("rita", Role.READ_ONLY);
        clickOn("#nav-AUDIT");
        waitUntil(() -> rows("#auditTable").size() == 2);
        java.util.List<String> cut = new java.util.ArrayList<>();
        onFx(() -> {
            view.root().getScene().getRoot().layout();
            com.orderconsole.ui.CutTexts.collect(lookup("#auditTable").query(), "audit at 1280x800", cut);
            return null;
        });
        assertThat(cut).as("cells cut short with …").noneMatch(c -> c.contains("cancel-sweeper"));
    }

    /** An Olist id is 32 characters: at 1280x800 the audit's order column showed its first nine and "…". */
    @Test
    void aThirtyTwoCharacterOrderIdIsShownWholeAt1280x800() throws Exception {
        String olistId = "001c85b5f68d2be0cb0797afc9e8ce9a";
        createOrder(olistId);
        openConsole("rita", Role.READ_ONLY);
        clickOn("#nav-AUDIT");
        waitUntil(() -> rows("#auditTable").size() == 1);
        java.util.List<String> cut = new java.util.ArrayList<>();
        javafx.scene.text.Text shown = onFx(() -> {
            view.root().getScene().getRoot().layout();
            com.orderconsole.ui.CutTexts.collect(lookup("#auditTable").query(), "audit at 1280x800", cut);
            return lookup("#auditTable .table-cell").queryAll().stream()
                    .filter(c -> c instanceof javafx.scene.control.TableCell<?, ?> tc && olistId.equals(tc.getItem()))
                    .map(c -> shownText((javafx.scene.control.TableCell<?, ?>) c))
                    .findFirst().orElse(null);
        });
        assertThat(cut).as("cells cut short with …").isEmpty();
        assertThat(shown).as("the id's cell").isNotNull();
        assertThat(shown.getText()).as("the id drawn whole").isEqualTo(olistId);
        assertThat(onFx(() -> {
            javafx.scene.layout.Region cell = (javafx.scene.layout.Region) shown.getParent();
            return shown.getBoundsInParent().getMaxX() <= cell.getWidth() + 0.5 && shown.getBoundsInParent().getMaxY() <= cell.getHeight() + 0.5;
        })).as("the id wraps inside its column and its row is tall enough").isTrue();
        double[] lines = onFx(() -> {
            javafx.scene.text.Text one = new javafx.scene.text.Text("0");
            one.setFont(shown.getFont());
            return new double[] {shown.getLayoutBounds().getHeight(), one.getLayoutBounds().getHeight()};
        });
        assertThat(lines[0]).as("two lines, not three pieces").isLessThan(lines[1] * 2.5);
    }

    /**
     * A reconciliation repair is recorded with source "reconciliation" and a long "what" (category, direction,
     * both states); at 1280x800 a real window cut the source in a 100 px column and the repair text in the
     * What column. Every cell's whole text must be on screen: no text cut short, no wrapped text wider than
     * its column.
     */
    @Test
    void aReconciliationRepairIsShownWholeAt1280x800() throws Exception {
        repairShownWhole(false);
    }

    /**
     * Where the database stamps writers (servers with accounts), the "Written by" column shows; a real window at
     * 1280x800 then showed the first letters of What only. What stays whole on screen, left of the writer's column.
     */
    @Test
    void whatStaysOnScreenWhenTheWriterColumnShows() throws Exception {
        repairShownWhole(true);
    }

    private void repairShownWhole(boolean stamped) throws Exception {
        createOrder("u-4");
        services.transitions().transition(new Operator("setup", Role.SUPPORT), TransitionRequest.of("u-4", OrderStatus.PAID, "test", "paid"));
        services.follower().drainOnce();
        // MySQL lost the payment (WAIT_PAY v1) while Redis has PAID v2: the repair copies Redis' state back.
        com.orderconsole.RawSql.update("UPDATE orders SET status = 1, version = 1 WHERE order_id = 'u-4'");
        Operator ops = new Operator("olga", Role.OPS);
        var report = services.reconciliation().run(com.orderconsole.service.order.OrderQuery.all(),
                com.orderconsole.service.recon.ReconProgress.NONE, () -> false);
        services.reconciliation().repair(ops, report, com.orderconsole.service.recon.ReconCategory.STATE_MISMATCH,
                com.orderconsole.service.recon.ReconProgress.NONE, () -> false);
        if (stamped) {
            com.orderconsole.RawSql.update("UPDATE order_history SET written_by = 'orders-serve@10.0.0.7'");
            com.orderconsole.RawSql.update("UPDATE audit_log SET written_by = 'olga@10.0.0.8'");
        }
        openConsole("rita", Role.READ_ONLY);
        clickOn("#nav-AUDIT");
        waitUntil(() -> rows("#auditTable").stream().anyMatch(r -> "reconciliation".equals(((AuditEvent) r).source())));
        boolean writerShown = onFx(() -> {
            javafx.scene.control.TableView<?> t = lookup("#auditTable").queryAs(javafx.scene.control.TableView.class);
            return t.getColumns().stream().filter(c -> "cWriter".equals(c.getId())).findFirst().orElseThrow().isVisible();
        });
        assertThat(writerShown).as("the writer's column shows").isEqualTo(stamped);
        AuditEvent repair = (AuditEvent) rows("#auditTable").stream()
                .filter(r -> "reconciliation".equals(((AuditEvent) r).source())).findFirst().orElseThrow();
        String what = AuditViewModel.what(repair);
        assertThat(what).as("a long text, as in the real window").hasSizeGreaterThan(60);
        java.util.List<String> cut = new java.util.ArrayList<>();
        onFx(() -> {
            view.root().getScene().getRoot().layout();
            com.orderconsole.ui.CutTexts.collect(lookup("#auditTable").query(), "audit at 1280x800", cut);
            return null;
        });
        assertThat(cut).as("cells cut short with …").isEmpty();
        java.util.List<javafx.scene.text.Text> shown = onFx(() -> lookup("#auditTable .table-cell").queryAll().stream()
                .filter(c -> c instanceof javafx.scene.control.TableCell<?, ?> tc && tc.isVisible() && !tc.isEmpty())
                .map(c -> shownText((javafx.scene.control.TableCell<?, ?>) c))
                .filter(t -> t != null && t.getText().equals(what)).toList());
        assertThat(shown).as("the repair's whole text is shown").isNotEmpty();
        assertThat(onFx(() -> shown.stream().allMatch(t -> {
            javafx.scene.layout.Region cell = (javafx.scene.layout.Region) t.getParent();
            return t.getBoundsInParent().getMaxX() <= cell.getWidth() + 0.5 && t.getBoundsInParent().getMaxY() <= cell.getHeight() + 0.5;
        }))).as("the repair's text wraps inside its column and its row is tall enough").isTrue();
        javafx.scene.Node table = lookup("#auditTable").query();
        assertThat(onFx(() -> shown.stream().allMatch(t -> table.sceneToLocal(t.localToScene(t.getBoundsInLocal())).getMaxX()
                <= ((javafx.scene.layout.Region) table).getWidth()))).as("What is on screen without scrolling sideways").isTrue();
    }

    /** @return the text a cell draws: its graphic when it draws the text itself, else its label's text, or null */
    private static javafx.scene.text.Text shownText(javafx.scene.control.TableCell<?, ?> c) {
        if (c.getGraphic() instanceof javafx.scene.text.Text t) {
            return t;
        }
        return c.lookup(".text") instanceof javafx.scene.text.Text t ? t : null;
    }

    /**
     * The source filter offers what the history and the audit log record; a real window at 1280x800 showed
     * "reconciliation" as "reconciliatio" in the 130 px box, and the drop-down did not offer it at all.
     */
    @Test
    void everyOfferedSourceFitsTheSourceBox() throws Exception {
        openConsole("rita", Role.READ_ONLY);
        clickOn("#nav-AUDIT");
        assertThat(AuditViewModel.SOURCES).contains("reconciliation", "rules", "dead-letters");
        java.util.List<String> tooWide = onFx(() -> {
            view.root().getScene().getRoot().layout();
            javafx.scene.control.TextField editor = lookup("#sourceBox").<javafx.scene.control.ComboBox<String>>query().getEditor();
            double room = editor.getWidth() - editor.snappedLeftInset() - editor.snappedRightInset();
            return AuditViewModel.SOURCES.stream().filter(src -> {
                javafx.scene.text.Text t = new javafx.scene.text.Text(src);
                t.setFont(editor.getFont());
                return t.getLayoutBounds().getWidth() > room;
            }).toList();
        });
        assertThat(tooWide).as("sources wider than the box's text field").isEmpty();
    }

    /**
     * Issue 34: at 1280 px the Reason column was off screen (the table scrolled sideways), and "Written by (database)"
     * had no explanation. Reason now ends inside the table, wide enough to read, and the writer's header explains.
     */
    @Test
    void theReasonColumnIsInViewAt1280AndTheWriterHeaderExplainsItself() throws Exception {
        createOrder("u-9");
        services.transitions().transition(new Operator("setup", Role.SUPPORT), TransitionRequest.of("u-9", OrderStatus.PAID, "test",
                "customer paid by bank transfer"));
        services.follower().catchUp(Duration.ofSeconds(20));
        com.orderconsole.RawSql.update("UPDATE order_history SET written_by = 'orders-serve@10.0.0.7'");
        openConsole("rita", Role.READ_ONLY);
        clickOn("#nav-AUDIT");
        waitUntil(() -> rows("#auditTable").size() == 2);
        for (boolean writer : new boolean[] {true}) {
            double[] edges = onFx(() -> {
                view.root().getScene().getRoot().layout();
                javafx.scene.control.TableView<?> t = lookup("#auditTable").queryAs(javafx.scene.control.TableView.class);
                javafx.scene.control.TableColumn<?, ?> reason = t.getColumns().stream().filter(c -> "cReason".equals(c.getId()))
                        .findFirst().orElseThrow();
                double left = t.getColumns().stream().filter(javafx.scene.control.TableColumn::isVisible)
                        .takeWhile(c -> c != reason).mapToDouble(javafx.scene.control.TableColumn::getWidth).sum();
                return new double[] {left, left + reason.getWidth(), t.getWidth(), reason.getWidth()};
            });
            assertThat(edges[1]).as("Reason ends inside the table (writer column shown: %s)", writer).isLessThanOrEqualTo(edges[2]);
            assertThat(edges[3]).as("Reason is wide enough to read").isGreaterThanOrEqualTo(150);
        }
        String tip = onFx(() -> lookup("#auditTable .column-header .label").queryAll().stream()
                .map(n -> ((javafx.scene.control.Label) n).getTooltip()).filter(java.util.Objects::nonNull)
                .map(javafx.scene.control.Tooltip::getText).filter(x -> x.contains("database account")).findFirst().orElse(null));
        assertThat(tip).as("the writer's header explains the column").isNotNull().contains("⚠");
        assertThat(shown("#flaggedBox")).isTrue();
    }
}
