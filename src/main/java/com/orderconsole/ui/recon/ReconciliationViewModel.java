package com.orderconsole.ui.recon;

import com.orderconsole.app.ProgressThrottle;
import com.orderconsole.ui.common.OrderText;
import com.orderconsole.domain.OrderStatus;
import com.orderconsole.app.Messages;
import com.orderconsole.ui.common.RepairText;
import com.orderconsole.app.ProductionGuard;
import com.orderconsole.domain.Operator;
import com.orderconsole.domain.Role;
import com.orderconsole.service.order.OrderQuery;
import com.orderconsole.service.recon.ReconCategory;
import com.orderconsole.service.recon.ReconFinding;
import com.orderconsole.service.recon.ReconProgress;
import com.orderconsole.service.recon.ReconReport;
import com.orderconsole.service.recon.Reconciliation;
import com.orderconsole.service.recon.RepairResult;
import com.orderconsole.ui.common.Background;
import com.orderconsole.ui.common.Command;
import com.orderconsole.ui.common.DialogService;
import com.orderconsole.ui.common.Feedback;
import com.orderconsole.ui.common.Formats;
import javafx.beans.property.BooleanProperty;
import javafx.beans.property.ObjectProperty;
import javafx.beans.property.ReadOnlyDoubleProperty;
import javafx.beans.property.ReadOnlyDoubleWrapper;
import javafx.beans.property.ReadOnlyObjectProperty;
import javafx.beans.property.ReadOnlyObjectWrapper;
import javafx.beans.property.ReadOnlyStringProperty;
import javafx.beans.property.ReadOnlyStringWrapper;
import javafx.beans.property.SimpleBooleanProperty;
import javafx.beans.property.SimpleObjectProperty;
import javafx.collections.FXCollections;
import javafx.collections.ObservableList;

import java.io.BufferedWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import java.util.function.Supplier;

/**
 * Reconciliation by click: compares Redis with MySQL (all orders, or the order table's filter) with
 * progress, rate, ETA and cancel; groups the findings by category; repairs one category after a dry-run
 * count and a confirmation; exports the findings as CSV. After a repair the comparison runs again, so
 * the groups show what is left. One comparison, repair or export runs at a time.
 */
public final class ReconciliationViewModel {
    /** Least time between two progress updates on screen, ms; a run reports after every page. */

    private final Reconciliation reconciliation;
    private final Operator operator;
    private final Background background;
    private final DialogService dialogs;
    private final Supplier<OrderQuery> tableFilter;
    private final BooleanProperty useTableFilter = new SimpleBooleanProperty();
    private final ReadOnlyDoubleWrapper progress = new ReadOnlyDoubleWrapper(0);
    private final ReadOnlyStringWrapper progressText = new ReadOnlyStringWrapper("");
    private final ReadOnlyObjectWrapper<ReconReport> report = new ReadOnlyObjectWrapper<>();
    private final ObservableList<CategoryRow> categories = FXCollections.observableArrayList();
    private final ObjectProperty<ReconCategory> selected = new SimpleObjectProperty<>();
    private final ObservableList<ReconFinding> findings = FXCollections.observableArrayList();
    private final Feedback feedback = new Feedback();
    private final Command runCommand;
    private final Command repairCommand;
    private final Command exportCommand;
    private OrderQuery lastScope;

    /**
     * One group of the results.
     *
     * @param category the kind of disagreement
     * @param count findings in this category
     */
    public record CategoryRow(ReconCategory category, long count) {
    }

    /**
     * @param reconciliation compares, repairs and exports
     * @param operator who repairs; the service refuses roles below ops
     * @param background where comparisons, repairs and exports run
     * @param dialogs asks before a repair and where to export
     * @param tableFilter the order table's current filter, used when {@link #useTableFilterProperty()} is set
     */
    public ReconciliationViewModel(Reconciliation reconciliation, Operator operator, Background background,
                                   DialogService dialogs, Supplier<OrderQuery> tableFilter) {
        this.reconciliation = reconciliation;
        this.operator = operator;
        this.background = background;
        this.dialogs = dialogs;
        this.tableFilter = tableFilter;
        this.runCommand = new Command(background, feedback::error);
        this.repairCommand = runCommand.when(selected.isNotNull());
        this.exportCommand = runCommand.when(report.isNotNull());
        selected.addListener((o, a, c) -> showFindings());
    }

    /** Starts a comparison (read-only) of all orders or of the order table's filter. */
    public void run() {
        if (runCommand.isRunning()) {
            return;
        }
        lastScope = useTableFilter.get() ? tableFilter.get() : null;
        compare(lastScope, null);
    }

    private void compare(OrderQuery scope, String afterRepair) {
        startRun(scope == null ? Messages.get("recon.comparing.all") : Messages.get("recon.comparing.filtered"));
        runCommand.run(Messages.get("recon.compare.action"), j -> reconciliation.run(scope, throttled(System.currentTimeMillis()), j::cancelled), r -> {
            // A cancelled run leaves the bar where it stopped: it did not compare everything.
            if (!r.cancelled()) {
                progress.set(1);
            } else if (progress.get() < 0) {
                progress.set(0);
            }
            report.set(r);
            categories.setAll(Arrays.stream(ReconCategory.values())
                    .map(c -> new CategoryRow(c, r.counts().get(c))).toList());
            selected.set(FindingsFocus.category(r, selected.get()));
            showFindings();
            // The report counts MySQL rows and Redis keys read, so this says "records", not "orders".
            progressText.set(summary(r));
            feedback.ok(afterRepair == null ? "" : afterRepair);
        }, error -> {
            progressText.set("");
            feedback.error(error);
        });
    }

    /**
     * @param r a report
     * @return it in words; a cancelled run never claims that Redis and MySQL agree, e.g.
     *         "Cancelled after checking 1,200 orders in 2 s: 0 findings so far; the rest was not compared."
     */
    /**
     * @param f a finding
     * @return its detail in the language in use, statuses named as the console names them
     */
    public static String detail(ReconFinding f) {
        Object[] args = f.detailArgs().stream().map(a -> a instanceof OrderStatus s ? OrderText.status(s) : a).toArray();
        return Messages.format("recon.detail." + f.detailKey().name(), args);
    }

    /**
     * @param c a category of findings
     * @return its name in the language in use, e.g. "Missing in Redis", "Redis 中缺失"
     */
    public static String label(ReconCategory c) {
        return Messages.get(c.wordsKey());
    }

    static String summary(ReconReport r) {
        String checked = Messages.format(r.filtered() ? "recon.checked.filtered" : "recon.checked", r.ordersCompared(),
                Formats.elapsed(r.millis()));
        if (r.cancelled()) {
            return Messages.format("recon.summary.cancelled", checked, r.total());
        }
        return r.total() == 0 ? Messages.format("recon.summary.agree", checked) : Messages.format("recon.summary.found", checked, r.total());
    }

    /** Asks the running comparison or repair to stop; it keeps what it found so far. */
    public void cancel() {
        runCommand.cancel();
    }

    /**
     * Dry run: how many findings a repair of this category would act on (changes nothing).
     *
     * @return the count, 0 before any run
     */
    public long preview(ReconCategory category) {
        ReconReport r = report.get();
        return r == null ? 0 : reconciliation.preview(r, category);
    }

    /**
     * Dry-runs a repair of the selected category and asks to go ahead ({@link #repair}); when there is
     * nothing to repair, only says so. Nothing changes unless the user confirms.
     */
    public void repairSelected() {
        ReconCategory c = selected.get();
        if (c == null) {
            return;
        }
        long n = preview(c);
        if (n == 0) {
            dialogs.inform(Messages.get("recon.repair.title"), Messages.format("recon.repair.statement", label(c)),
                    c.informational() ? Messages.format("recon.repair.onPurpose", label(c), repairAction(c))
                            : Messages.format("recon.repair.nothing", label(c)));
            return;
        }
        String details = Messages.format("recon.repair.dryRun", n, repairAction(c)) + System.lineSeparator()
                + planText(reconciliation.plan(report.get(), c)) + Messages.get("recon.repair.reread");
        // Every repair changes stored state, so it asks why: the reason is kept on the repair's audit rows.
        dialogs.askReason(Messages.get("recon.repair.title"), Messages.format("recon.repair.statement", label(c))
                + System.lineSeparator() + details, Messages.format("recon.repair.confirm", n))
                .filter(reason -> typedOnProduction(c, n))
                .ifPresent(reason -> repair(c, reason));
    }

    /** On production a repair also asks for the count of findings it acts on to be typed. */
    private boolean typedOnProduction(ReconCategory c, long n) {
        return dialogs.confirmCount(ProductionGuard.Action.REPAIR, n, Messages.get("recon.repair.title"),
                Messages.format("recon.repair.statement", label(c)));
    }

    /** Steps of a dry run shown in a confirmation; more than this are counted, not listed. */
    static final int PLAN_LINES = 12;

    /**
     * @param steps a dry run's steps
     * @return one line per step, e.g. "o-1: MySQL → Redis, resulting PAID v2", then "… and 30 more", each line ended
     */
    static String planText(List<Reconciliation.RepairStep> steps) {
        StringBuilder b = new StringBuilder();
        for (Reconciliation.RepairStep st : steps.subList(0, Math.min(PLAN_LINES, steps.size()))) {
            b.append(st.orderId().isEmpty() ? "" : st.orderId() + ": ").append(RepairText.plan(st.direction()))
                    .append(st.resulting() == null || st.resulting().isEmpty() ? "" : Messages.format("recon.plan.resulting", RepairText.plan(st.resulting()))).append('\n');
        }
        if (steps.size() > PLAN_LINES) {
            b.append(Messages.format("recon.plan.more", steps.size() - PLAN_LINES)).append('\n');
        }
        return b.toString();
    }

    /** Asks where to save the last report's findings, then writes them there ({@link #exportCsv}). */
    public void exportFindings() {
        if (report.get() != null) {
            dialogs.askSaveFile(Messages.get("recon.export.title"), "reconciliation.csv", Messages.get("recon.export.filter"), "*.csv").ifPresent(this::exportCsv);
        }
    }

    /**
     * Repairs one category of the last report (ops and up), then compares again with the same scope.
     *
     * @param category what to repair
     */
    public void repair(ReconCategory category) {
        repair(category, "");
    }

    /**
     * As {@link #repair(ReconCategory)}, with a reason kept in the audit trail (required to copy Redis-only
     * orders into MySQL, an admin override).
     */
    public void repair(ReconCategory category, String reason) {
        ReconReport r = report.get();
        if (r == null || runCommand.isRunning()) {
            return;
        }
        startRun(Messages.format("recon.repairing", label(category)));
        runCommand.run(Messages.format("recon.repair.action", label(category)), j -> reconciliation.repair(operator, r, category, reason,
                throttled(System.currentTimeMillis()), j::cancelled), res -> compare(lastScope, repairText(res)));
    }

    /**
     * Writes the last report's findings as CSV.
     *
     * @param file destination; overwritten
     */
    public void exportCsv(Path file) {
        ReconReport r = report.get();
        if (r == null) {
            return;
        }
        runCommand.run(Messages.get("recon.export.action"), j -> {
            try (BufferedWriter w = Files.newBufferedWriter(file, StandardCharsets.UTF_8)) {
                reconciliation.exportCsv(r, w);
            }
            return file;
        }, f -> feedback.ok(Messages.format("recon.exported", r.total(), f)));
    }

    /**
     * @param c a category
     * @return what its repair does, in words, completing "It will ..."
     */
    public static String repairAction(ReconCategory c) {
        return switch (c) {
            case MISSING_IN_REDIS -> Messages.get("recon.action.MISSING_IN_REDIS");
            case MALFORMED_IN_REDIS -> Messages.get("recon.action.MALFORMED_IN_REDIS");
            case MISSING_IN_MYSQL -> Messages.get("recon.action.MISSING_IN_MYSQL");
            case STATE_MISMATCH -> Messages.get("recon.action.STATE_MISMATCH");
            case REDIS_UNEXPLAINED -> Messages.get("recon.action.REDIS_UNEXPLAINED");
            case WAIT_PAY_WITHOUT_QUEUE -> Messages.get("recon.action.WAIT_PAY_WITHOUT_QUEUE");
            case QUEUE_REMOVED_ON_PURPOSE -> Messages.get("recon.action.QUEUE_REMOVED_ON_PURPOSE");
            case QUEUE_ENTRY_NOT_WAIT_PAY -> Messages.get("recon.action.QUEUE_ENTRY_NOT_WAIT_PAY");
            case COUNTERS_DRIFT -> Messages.get("recon.action.COUNTERS_DRIFT");
            case SYNC_PENDING -> Messages.get("recon.action.SYNC_PENDING");
        };
    }

    /**
     * @param r a repair outcome
     * @return it in words, e.g. "Missing in Redis: repaired 3 of 3." plus failures
     */
    public static String repairText(RepairResult r) {
        StringBuilder b = new StringBuilder(Messages.format("recon.repaired", label(r.category()), r.repaired(), r.attempted()));
        if (r.failed() > 0) {
            b.append(Messages.format("recon.repaired.failed", r.failed(), r.errors().stream().map(RepairText::error).collect(java.util.stream.Collectors.joining("; "))));
        }
        if (r.cancelled()) {
            b.append(Messages.get("recon.repaired.stopped"));
        }
        return b.toString();
    }

    private void startRun(String text) {
        progress.set(-1);
        progressText.set(text);
        feedback.clear();
    }

    private void showFindings() {
        ReconReport r = report.get();
        findings.setAll(r == null || selected.get() == null ? List.of() : r.findings(selected.get()));
    }

    /** Progress for the screen: at most every 100 ms, with rate and ETA from the start of the run. */
    private ReconProgress throttled(long startMs) {
        ProgressThrottle throttle = ProgressThrottle.standard();
        return (phase, done, total) -> {
            long now = System.currentTimeMillis();
            if (!throttle.due(now, done >= total)) {
                return;
            }
            String text = progressLine(RepairText.phase(phase), done, total, now - startMs);
            double fraction = total <= 0 ? -1 : Math.min(1.0, (double) done / total);
            background.fx(() -> {
                progress.set(fraction);
                progressText.set(text);
            });
        };
    }

    /**
     * @param phase what is being compared
     * @param done items so far
     * @param total items expected
     * @param elapsedMs time since the start, ms
     * @return e.g. "MySQL vs Redis: 12,000 of 40,000 records · 8,000/s · about 4 s left"
     */
    static String progressLine(String phase, long done, long total, long elapsedMs) {
        double rate = elapsedMs <= 0 ? 0 : done * 1000.0 / elapsedMs;
        String eta = rate <= 0 || total <= done ? "" : Messages.format("recon.progress.eta", Formats.duration((long) ((total - done) / rate * 1000)));
        // The service counts records over both passes (MySQL rows, then Redis keys), not orders: say so, so the
        // bar's total and the summary's order count do not seem to disagree.
        return Messages.format("recon.progress", phase, done, total, Math.round(rate), eta);
    }

    /** @return true to compare only the orders matching the order table's filter */
    public BooleanProperty useTableFilterProperty() {
        return useTableFilter;
    }

    /** @return compares, repairs and exports one at a time; running while any of them runs */
    public Command runCommand() {
        return runCommand;
    }

    /** @return executable while a category is selected and nothing runs */
    public Command repairCommand() {
        return repairCommand;
    }

    /** @return executable while there is a report and nothing runs */
    public Command exportCommand() {
        return exportCommand;
    }

    /** @return 0..1, or -1 while the total is unknown */
    public ReadOnlyDoubleProperty progressProperty() {
        return progress.getReadOnlyProperty();
    }

    /** @return phase, counts, rate and ETA while running; a summary afterwards */
    public ReadOnlyStringProperty progressTextProperty() {
        return progressText.getReadOnlyProperty();
    }

    /** @return the last report, null before the first run */
    public ReadOnlyObjectProperty<ReconReport> reportProperty() {
        return report.getReadOnlyProperty();
    }

    /** @return one row per category with its count */
    public ObservableList<CategoryRow> categories() {
        return categories;
    }

    /** @return the category whose findings are listed */
    public ObjectProperty<ReconCategory> selectedProperty() {
        return selected;
    }

    /** @return findings of the selected category */
    public ObservableList<ReconFinding> findings() {
        return findings;
    }

    /** @return true when the operator may repair (ops and up) */
    public boolean canRepair() {
        return operator.role().includes(Role.OPS);
    }

    /** @return the last outcome or error in words */
    public Feedback feedback() {
        return feedback;
    }
}
