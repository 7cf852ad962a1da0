package com.orderconsole.ui.bulk;

import com.orderconsole.app.ProgressThrottle;
import com.orderconsole.app.Messages;
import com.orderconsole.app.ProductionGuard;
import com.orderconsole.domain.Operator;
import com.orderconsole.domain.OrderStatus;
import com.orderconsole.domain.ResultCode;
import com.orderconsole.domain.Role;
import com.orderconsole.service.bulk.BulkBatch;
import com.orderconsole.service.bulk.BulkCounts;
import com.orderconsole.service.bulk.BulkPreview;
import com.orderconsole.service.bulk.BulkProgress;
import com.orderconsole.service.bulk.BulkScope;
import com.orderconsole.service.bulk.Bulk;
import com.orderconsole.service.bulk.TargetCount;
import com.orderconsole.service.order.OrderQuery;
import com.orderconsole.ui.common.Background;
import com.orderconsole.ui.common.Command;
import com.orderconsole.ui.common.DialogService;
import com.orderconsole.ui.common.Feedback;
import com.orderconsole.ui.common.OrderText;
import com.orderconsole.ui.common.Formats;
import com.orderconsole.ui.common.Refreshable;
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
import javafx.beans.property.SimpleStringProperty;
import javafx.beans.property.StringProperty;
import javafx.collections.FXCollections;
import javafx.collections.ObservableList;

import java.util.List;
import java.util.Map;
import java.util.function.Supplier;

/**
 * The Bulk moves page: orders chosen in the order table (a selection, or its filter), a target, a read-only
 * preview (what each target would do, a sample of ids), one reason, a confirmation stating the count (typed
 * on production, {@link ProductionGuard}), then the move with progress, rate, ETA and cancel; the
 * per-order results and the list of recorded batches, both exportable. One preview, move or export at a time.
 * This model owns choosing, previewing and moving; the recorded batches are {@link BulkRecordViewModel}'s.
 */
public final class BulkViewModel implements Refreshable {
    private final Bulk bulk;
    private final Operator operator;
    private final Background background;
    private final DialogService dialogs;
    private final Supplier<OrderQuery> tableFilter;

    private final ReadOnlyObjectWrapper<BulkScope> scope = new ReadOnlyObjectWrapper<>();
    private final ObjectProperty<OrderStatus> target = new SimpleObjectProperty<>();
    private final BooleanProperty override = new SimpleBooleanProperty();
    private final StringProperty reason = new SimpleStringProperty("");
    private final ReadOnlyObjectWrapper<BulkPreview> preview = new ReadOnlyObjectWrapper<>();
    private final ReadOnlyStringWrapper scopeText = new ReadOnlyStringWrapper(Messages.get("bulk.scope.none"));
    private final ReadOnlyStringWrapper previewText = new ReadOnlyStringWrapper("");
    private final ObservableList<TargetCount> perTarget = FXCollections.observableArrayList();
    private final ReadOnlyDoubleWrapper progress = new ReadOnlyDoubleWrapper(0);
    private final ReadOnlyStringWrapper progressText = new ReadOnlyStringWrapper("");
    private final Feedback feedback = new Feedback();
    private final Command runCommand;
    private final Command previewCommand;
    private final Command applyCommand;
    private final BulkRecordViewModel record;
    /** True while a preview runs: changing the choice abandons it (its answer would be for the old choice). */
    private boolean previewing;

    /**
     * @param bulk previews, applies, lists and exports
     * @param operator who acts; the service refuses below support (admin for an override)
     * @param background where the work runs
     * @param dialogs asks for the confirmation and where to export
     * @param tableFilter the order table's filter as its boxes show it, for {@link #useTableFilter()}; null when they cannot
     *     make one
     */
    public BulkViewModel(Bulk bulk, Operator operator, Background background, DialogService dialogs,
                         Supplier<OrderQuery> tableFilter) {
        this.bulk = bulk;
        this.operator = operator;
        this.background = background;
        this.dialogs = dialogs;
        this.tableFilter = tableFilter;
        this.runCommand = new Command(background, feedback::error);
        this.previewCommand = runCommand.when(scope.isNotNull().and(target.isNotNull()));
        // "Move…" is offered only when it would do something: a preview with orders that would move, and a reason
        // (issue 34: enabled with an empty reason, it did nothing visible).
        this.applyCommand = runCommand.when(javafx.beans.binding.Bindings.createBooleanBinding(
                () -> preview.get() != null && preview.get().wouldApply() > 0 && reason.get() != null && !reason.get().isBlank(),
                preview, reason));
        this.record = new BulkRecordViewModel(bulk, operator, background, dialogs, runCommand, feedback);
        // A preview belongs to its scope, target and override: change one and it must be made again.
        target.addListener((o, a, b) -> clearPreview());
        override.addListener((o, a, b) -> clearPreview());
    }

    /** Chooses exactly these orders (the order table's selection). */
    public void useSelection(List<String> orderIds) {
        try {
            setScope(BulkScope.of(orderIds));
        } catch (IllegalArgumentException e) {
            feedback.error(e.getMessage());
        }
    }

    /** Chooses the orders matching a filter. */
    public void useFilter(OrderQuery filter) {
        setScope(BulkScope.of(filter));
    }

    /** Chooses the orders matching the order table's current filter. */
    public void useTableFilter() {
        OrderQuery q = tableFilter.get();
        if (q == null) {
            // The order table's boxes cannot make a filter (it says why there).
            feedback.error(Messages.get("bulk.error.tableFilter"));
            return;
        }
        useFilter(q);
    }

    private void setScope(BulkScope s) {
        scope.set(s);
        scopeText.set(s.isSelection() ? Messages.format("bulk.scope.selection", s.orderIds().size())
                : Messages.format("bulk.scope.filter", s.describe().replaceFirst("^filter: ", "")));
        clearPreview();
        feedback.clear();
    }

    private void clearPreview() {
        if (previewing) {
            previewing = false;
            runCommand.abandon(); // a preview under way for the old choice
        }
        preview.set(null);
        perTarget.clear();
        previewText.set("");
    }

    /** Reads the chosen orders and shows what a move to the target would do; changes nothing. */
    public void preview() {
        BulkScope s = scope.get();
        OrderStatus t = target.get();
        if (s == null || t == null) {
            String missing = s == null ? "bulk.error.noScope" : "bulk.error.noTarget";
            feedback.error(Messages.get(missing));
            return;
        }
        boolean ov = override.get();
        startRun(Messages.get("bulk.progress.reading"));
        long start = System.currentTimeMillis();
        previewing = true;
        runCommand.run(Messages.get("bulk.do.preview"), j -> bulk.preview(s, t, ov, throttled(start, "bulk.progress.read"), j::cancelled),
                p -> {
                    previewing = false;
                    progress.set(1);
                    progressText.set("");
                    preview.set(p);
                    perTarget.setAll(p.perTarget());
                    previewText.set(previewSummary(p));
                }, error -> {
                    previewing = false;
                    progress.set(0);
                    progressText.set("");
                    feedback.error(error);
                });
    }

    /**
     * @param p a preview
     * @return it in words, e.g. "1,234 orders match. To WAIT_SHIP: 1,200 would move, 34 would be rejected (…)."
     */
    static String previewSummary(BulkPreview p) {
        StringBuilder b = new StringBuilder(Messages.format("bulk.preview.summary", p.matched(), p.target().name(), p.wouldApply(),
                p.wouldRejectTotal(), p.rulesVersion()));
        for (Map.Entry<ResultCode, Integer> e : p.wouldReject().entrySet()) {
            b.append('\n').append(Messages.format("bulk.preview.reject", e.getValue(), e.getKey().code(), codeText(e.getKey())));
        }
        if (!p.sample().isEmpty()) {
            b.append('\n').append(Messages.format("bulk.preview.sample", String.join(", ", p.sample())));
        }
        if (!p.unknownIds().isEmpty()) {
            b.append('\n').append(Messages.format("bulk.preview.unknown", p.unknownIds().size(), String.join(", ",
                    p.unknownIds().subList(0, Math.min(10, p.unknownIds().size())))));
        }
        return b.toString();
    }

    /** @return a result code in words, from the bundle */
    static String codeText(ResultCode c) {
        return Messages.get("bulk.code." + c.name());
    }

    /**
     * Checks role and reason, asks for a confirmation stating the count (typed where required), then moves the
     * previewed orders with progress; afterwards shows the batch's results and lists it with the batches.
     */
    public void apply() {
        BulkPreview p = preview.get();
        if (p == null || runCommand.isRunning()) {
            return;
        }
        String why;
        try {
            why = bulk.check(operator, p, reason.get());
        } catch (RuntimeException e) {
            feedback.error(e.getMessage());
            return;
        }
        if (p.wouldApply() == 0) {
            feedback.error(Messages.format("bulk.error.nothing", p.matched(), OrderText.status(p.target())));
            return;
        }
        String count = String.format(Messages.locale(), "%,d", p.matched());
        String title = Messages.get("bulk.confirm.title");
        String statement = Messages.format("bulk.confirm.statement", p.matched(), OrderText.status(p.target()));
        String details = Messages.format("bulk.confirm.details", p.wouldApply(), p.wouldRejectTotal(), why)
                + (p.override() ? "\n" + Messages.get("bulk.confirm.override") : "");
        String label = Messages.format("bulk.confirm.button", p.matched());
        boolean yes = new ProductionGuard(dialogs.environment()).needsCount(ProductionGuard.Action.BULK, p.matched())
                ? dialogs.confirmTyped(title, statement, details, count, label)
                : dialogs.confirm(title, statement, details, label);
        if (!yes) {
            return;
        }
        startRun(Messages.get("bulk.progress.starting"));
        long start = System.currentTimeMillis();
        runCommand.run(Messages.get("bulk.do.apply"), j -> bulk.apply(operator, p, why, "console", throttled(start, "bulk.progress.moved"),
                j::cancelled), b -> {
            progressText.set(batchSummary(b));
            if (b.state() == BulkBatch.State.DONE) {
                progress.set(1);
            }
            // The seen versions are spent: a second move needs a new preview.
            preview.set(null);
            perTarget.clear();
            previewText.set("");
            reason.set("");
            feedback.ok(Messages.format("bulk.done", b.id()));
            record.shown(b);
            record.refresh();
        });
    }

    /**
     * @param b a batch
     * @return it in words: state, counts, and what was not run
     */
    static String batchSummary(BulkBatch b) {
        BulkCounts c = b.counts();
        return Messages.format("bulk.batch.summary", b.id(), stateText(b.state()), c.applied(), c.rejected(), c.conflicts(), c.failed(),
                b.notRun());
    }

    /** @return a batch state in words, from the bundle */
    static String stateText(BulkBatch.State s) {
        return Messages.get("bulk.state." + s.name());
    }

    /** Asks the running preview or move to stop: a move stops before its next chunk, and its record says so. */
    public void cancel() {
        runCommand.cancel();
    }

    /** Reloads the list of batches (newest first); the selected one stays selected. */
    @Override
    public void refresh() {
        record.refresh();
    }

    private void startRun(String text) {
        progress.set(-1);
        progressText.set(text);
        feedback.clear();
    }

    /** Progress for the screen: at most every 100 ms, with rate and ETA from the start. */
    private BulkProgress throttled(long startMs, String key) {
        ProgressThrottle throttle = ProgressThrottle.standard();
        return (done, total, counts) -> {
            long now = System.currentTimeMillis();
            if (!throttle.due(now, total >= 0 && done >= total)) {
                return;
            }
            String text = progressLine(key, done, total, counts, now - startMs);
            double fraction = total <= 0 ? -1 : Math.min(1.0, (double) done / total);
            background.fx(() -> {
                progress.set(fraction);
                progressText.set(text);
            });
        };
    }

    /**
     * @param key bulk.progress.read or bulk.progress.moved
     * @param done orders so far
     * @param total orders expected, -1 while unknown
     * @param elapsedMs since the start, ms
     * @return e.g. "Moved 12,000 of 40,000 orders · 8,000/s · about 4 s left · 11,900 applied, 80 rejected, 20 conflicts"
     */
    static String progressLine(String key, int done, int total, BulkCounts counts, long elapsedMs) {
        double rate = elapsedMs <= 0 ? 0 : done * 1000.0 / elapsedMs;
        String eta = rate <= 0 || total <= done ? "" : Messages.format("bulk.progress.eta", Formats.duration((long) ((total - done) / rate * 1000)));
        String of = total < 0 ? Messages.format("bulk.progress.count", done) : Messages.format("bulk.progress.of", done, total);
        String line = Messages.format(key, of, Math.round(rate)) + eta;
        if (counts.handled() > 0) {
            line += Messages.format("bulk.progress.counts", counts.applied(), counts.rejected(), counts.conflicts(), counts.failed());
        }
        return line;
    }

    /** @return true when this operator may override the rules in bulk (admin) */
    public boolean canOverride() {
        return operator.role().includes(Role.ADMIN);
    }

    /** @return true when this operator may move orders (support and up); previews are open to all */
    public boolean canApply() {
        return operator.role().includes(Role.SUPPORT);
    }

    /** @return the most orders one batch may hold */
    public int maxOrders() {
        return bulk.maxOrders();
    }

    public ReadOnlyObjectProperty<BulkScope> scopeProperty() {
        return scope.getReadOnlyProperty();
    }

    /** @return the chosen orders in words */
    public ReadOnlyStringProperty scopeTextProperty() {
        return scopeText.getReadOnlyProperty();
    }

    public ObjectProperty<OrderStatus> targetProperty() {
        return target;
    }

    /** @return true to move regardless of the rules (admin) */
    public BooleanProperty overrideProperty() {
        return override;
    }

    /** @return the one reason for the whole batch */
    public StringProperty reasonProperty() {
        return reason;
    }

    /** @return the last preview; null before one and after a move (its versions are spent) */
    public ReadOnlyObjectProperty<BulkPreview> previewProperty() {
        return preview.getReadOnlyProperty();
    }

    /** @return the preview in words */
    public ReadOnlyStringProperty previewTextProperty() {
        return previewText.getReadOnlyProperty();
    }

    /** @return what every target would do, by the rules in force at the preview */
    public ObservableList<TargetCount> perTarget() {
        return perTarget;
    }

    /** @return 0..1, or -1 while the total is unknown */
    public ReadOnlyDoubleProperty progressProperty() {
        return progress.getReadOnlyProperty();
    }

    /** @return counts, rate and ETA while running; a summary afterwards */
    public ReadOnlyStringProperty progressTextProperty() {
        return progressText.getReadOnlyProperty();
    }

    /** @return previews, moves, exports and closes, one at a time */
    public Command runCommand() {
        return runCommand;
    }

    /** @return executable with a scope and a target while nothing runs */
    public Command previewCommand() {
        return previewCommand;
    }

    /** @return executable with a preview where some order would move, and a reason, while nothing runs */
    public Command applyCommand() {
        return applyCommand;
    }

    /** @return the record half of the page: recorded batches, their results, exports and closing */
    public BulkRecordViewModel record() {
        return record;
    }

    /** @return the last outcome or error in words */
    public Feedback feedback() {
        return feedback;
    }
}
