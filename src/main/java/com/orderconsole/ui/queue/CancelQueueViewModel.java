package com.orderconsole.ui.queue;

import com.orderconsole.app.Messages;
import com.orderconsole.domain.Operator;
import com.orderconsole.domain.Role;
import com.orderconsole.domain.TransitionResult;
import com.orderconsole.service.queue.CancelSweeper;
import com.orderconsole.service.queue.QueueItem;
import com.orderconsole.service.queue.QueueService;
import com.orderconsole.service.queue.QueueSummary;
import com.orderconsole.service.queue.SweeperStatus;
import com.orderconsole.ui.common.Background;
import com.orderconsole.ui.common.Command;
import com.orderconsole.ui.common.DialogService;
import com.orderconsole.ui.common.Feedback;
import com.orderconsole.ui.common.Formats;
import com.orderconsole.ui.common.OrderText;
import com.orderconsole.ui.common.Refreshable;
import javafx.beans.property.ObjectProperty;
import javafx.beans.property.ReadOnlyObjectProperty;
import javafx.beans.property.ReadOnlyObjectWrapper;
import javafx.beans.property.SimpleObjectProperty;
import javafx.collections.FXCollections;
import javafx.collections.ObservableList;

import java.time.Duration;
import java.util.List;

/**
 * The cancel-queue monitor: summary, the first entries in expiry order with each order's status,
 * a depth history for the chart, and the ops actions (cancel now, remove, extend, pause/resume sweeper).
 * Cancelling asks for a reason and removing asks for a confirmation before anything changes; one
 * action runs at a time.
 */
public final class CancelQueueViewModel implements Refreshable {
    /** Source written to the audit trail for actions taken here. */
    public static final String SOURCE = "console"; // i18n-ok: machine text, written to the history
    /** Entries shown in the table (the earliest due). */
    public static final int ENTRIES_SHOWN = 200;
    /** Depth samples kept for the chart (one per refresh). */
    public static final int SAMPLES_KEPT = 180;
    /** How much later the deadline of an entry may be moved, offered in this order. */
    public static final List<Duration> EXTENSIONS = List.of(Duration.ofMinutes(15), Duration.ofHours(1), Duration.ofHours(24));
    /** Two readings further apart than this, ms, are not joined in the depth chart (refresh runs every 2 s). */
    static final long GAP_MS = 10_000;
    /** A sweeper that has not ticked for this long, ms, is shown as silent (it ticks every second). */
    static final long SILENT_MS = 10_000;

    private final QueueService queue;
    private final CancelSweeper sweeper;
    private final Operator operator;
    private final DialogService dialogs;
    private final ReadOnlyObjectWrapper<QueueSummary> summary = new ReadOnlyObjectWrapper<>();
    private final ObservableList<QueueItem> entries = FXCollections.observableArrayList();
    private final ObservableList<DepthSample> depthHistory = FXCollections.observableArrayList();
    private final ObjectProperty<QueueItem> selected = new SimpleObjectProperty<>();
    private final ObjectProperty<Duration> extendBy = new SimpleObjectProperty<>(EXTENSIONS.get(0));
    private final Feedback feedback = new Feedback();
    private final Command reading;
    private final Command actions;
    private final Command entryCommand;
    private final Command sweeperCommand;

    /**
     * One point of the depth chart.
     *
     * @param atMs Redis time of the reading, epoch ms
     * @param depth entries in the queue
     * @param overdue entries past their expiry
     */
    public record DepthSample(long atMs, long depth, long overdue) {
    }

    /**
     * @param queue reads the queue and acts on its entries
     * @param sweeper pauses and resumes the cancel sweepers
     * @param operator who acts; the services refuse roles below ops
     * @param background where reads and actions run
     * @param dialogs asks before an entry is cancelled or removed
     */
    public CancelQueueViewModel(QueueService queue, CancelSweeper sweeper, Operator operator, Background background,
                                DialogService dialogs) {
        this.queue = queue;
        this.sweeper = sweeper;
        this.operator = operator;
        this.dialogs = dialogs;
        this.reading = new Command(background, feedback::error);
        this.actions = new Command(background, feedback::error);
        this.entryCommand = actions.when(selected.isNotNull());
        this.sweeperCommand = actions.when(summary.isNotNull());
    }

    @Override
    public void refresh() {
        reading.run(Messages.get("queue.read.action"), job -> new Reading(queue.summary(), queue.entries(0, ENTRIES_SHOWN)), r -> {
            summary.set(r.summary());
            entries.setAll(r.entries());
            // The selection is kept by order id across readings, with the entry as now read (or none once it left).
            QueueItem was = selected.get();
            selected.set(was == null ? null : r.entries().stream()
                    .filter(i -> i.orderId().equals(was.orderId())).findFirst().orElse(null));
            // A reading long after the last one (page hidden, refresh paused) starts the chart afresh
            // rather than drawing a straight line across the time nobody looked.
            if (!depthHistory.isEmpty() && r.summary().nowMs() - depthHistory.get(depthHistory.size() - 1).atMs() > GAP_MS) {
                depthHistory.clear();
            }
            depthHistory.add(new DepthSample(r.summary().nowMs(), r.summary().depth(), r.summary().overdue()));
            if (depthHistory.size() > SAMPLES_KEPT) {
                depthHistory.remove(0, depthHistory.size() - SAMPLES_KEPT);
            }
        });
    }

    /** Asks for a reason, then cancels the selected entry's order now ({@link #cancelNow}); nothing when declined. */
    public void cancelSelected() {
        QueueItem item = selected.get();
        if (item == null) {
            return;
        }
        String title = Messages.get("queue.cancel.title");
        String statement = Messages.format("queue.cancel.statement", item.orderId());
        // A forced move: on production the order id is typed as well.
        dialogs.askReason(title, statement, Messages.get("queue.cancel.confirm"))
                .filter(reason -> dialogs.confirmOnProduction(title, statement, item.orderId()))
                .ifPresent(reason -> cancelNow(item.orderId(), reason));
    }

    /** Asks for a reason, then removes the selected entry ({@link #remove}); nothing when declined. */
    public void removeSelected() {
        QueueItem item = selected.get();
        if (item == null) {
            return;
        }
        dialogs.askReason(Messages.get("queue.remove.title"), Messages.format("queue.remove.statement", item.orderId()),
                Messages.get("queue.remove.confirm")).ifPresent(reason -> remove(item.orderId(), reason));
    }

    /** Asks for a reason, then moves the selected entry's deadline later by {@link #extendByProperty()} ({@link #extend}). */
    public void extendSelected() {
        QueueItem item = selected.get();
        Duration by = extendBy.get();
        if (item == null || by == null) {
            return;
        }
        dialogs.askReason(Messages.get("queue.extend.title"), Messages.format("queue.extend.statement", item.orderId(),
                Formats.duration(by)), Messages.format("queue.extend.confirm", Formats.duration(by)))
                .ifPresent(reason -> extend(item.orderId(), by, reason));
    }

    /** Pauses a running sweeper or resumes a paused one, as the last reading shows it. */
    public void toggleSweeper() {
        QueueSummary s = summary.get();
        if (s != null) {
            setSweeperPaused(!s.sweeper().paused());
        }
    }

    /**
     * Cancels an unpaid order now through the transition script.
     *
     * @param orderId the entry's order
     * @param reason why, kept in the history
     */
    public void cancelNow(String orderId, String reason) {
        act(Messages.format("queue.cancel.action", orderId), () -> {
            TransitionResult r = queue.cancelNow(operator, orderId, reason);
            return new Outcome(r.applied() ? Messages.format("queue.cancelled", orderId, r.version())
                    : Messages.format("queue.cancel.refused", orderId, OrderText.result(r)), r.applied());
        });
    }

    /**
     * Removes an order's entry: the timeout will no longer cancel it. Recorded with who and why.
     *
     * @param reason why, kept in the audit trail
     */
    public void remove(String orderId, String reason) {
        act(Messages.format("queue.remove.action", orderId), () -> queue.remove(operator, orderId, SOURCE, reason)
                ? new Outcome(Messages.format("queue.removed", orderId), true)
                : new Outcome(Messages.format("queue.noEntry", orderId), false));
    }

    /**
     * Moves an unpaid order's payment deadline later.
     *
     * @param by added to the current expiry, positive
     * @param reason why, kept in the audit trail
     */
    public void extend(String orderId, Duration by, String reason) {
        act(Messages.format("queue.extend.action", orderId), () -> {
            long expiry = queue.extend(operator, orderId, by, SOURCE, reason);
            return new Outcome(Messages.format("queue.extended", orderId, Formats.dateTime(expiry)), true);
        });
    }

    /** Pauses or resumes every cancel sweeper. */
    public void setSweeperPaused(boolean paused) {
        act(paused ? Messages.get("queue.pause.action") : Messages.get("queue.resume.action"), () -> {
            sweeper.setPaused(operator, paused, SOURCE, "");
            return new Outcome(paused ? Messages.get("queue.paused") : Messages.get("queue.resumed"), true);
        });
    }

    /** Runs one action, shows its outcome and reads the queue again, whatever happened. */
    private void act(String what, Action action) {
        actions.run(what, job -> action.run(), outcome -> {
            if (outcome.ok()) {
                feedback.ok(outcome.text());
            } else {
                feedback.error(outcome.text());
            }
            refresh();
        }, error -> {
            feedback.error(error);
            refresh();
        });
    }

    private interface Action {
        Outcome run();
    }

    private record Outcome(String text, boolean ok) {
    }

    /**
     * @param sw the sweepers' state
     * @param nowMs Redis time of the reading, epoch ms
     * @return e.g. "Sweeper PAUSED", "Sweeper running (this console)", "No sweeper has run yet",
     *         "Sweeper silent for 2 min (last: 1234@host)"
     */
    public static String sweeperText(SweeperStatus sw, long nowMs) {
        if (sw.paused()) {
            return Messages.get("queue.sweeper.paused");
        }
        if (sw.lastTickMs() == null) {
            return Messages.get("queue.sweeper.never");
        }
        long silent = nowMs - sw.lastTickMs();
        String who = sw.runningHere() ? Messages.get("queue.sweeper.here") : sw.lastTickBy();
        if (silent > SILENT_MS) {
            return Messages.format("queue.sweeper.silent", Formats.duration(silent), who);
        }
        return Messages.format("queue.sweeper.running", who);
    }

    private record Reading(QueueSummary summary, List<QueueItem> entries) {
    }

    /** @return true when the operator may act on the queue (ops and up) */
    public boolean canAct() {
        return operator.role().includes(Role.OPS);
    }

    /** @return the last reading, null before the first */
    public ReadOnlyObjectProperty<QueueSummary> summaryProperty() {
        return summary.getReadOnlyProperty();
    }

    /** @return the earliest-due entries */
    public ObservableList<QueueItem> entries() {
        return entries;
    }

    /** @return depth over time, oldest first */
    public ObservableList<DepthSample> depthHistory() {
        return depthHistory;
    }

    /** @return the entry the actions apply to, null when none is selected */
    public ObjectProperty<QueueItem> selectedProperty() {
        return selected;
    }

    /** @return how much later {@link #extendSelected()} moves the deadline; one of {@link #EXTENSIONS} */
    public ObjectProperty<Duration> extendByProperty() {
        return extendBy;
    }

    /** @return cancel, remove and extend the selected entry: executable while an entry is selected and no action runs */
    public Command entryCommand() {
        return entryCommand;
    }

    /** @return pause or resume the sweeper: executable after the first reading while no action runs */
    public Command sweeperCommand() {
        return sweeperCommand;
    }

    /** @return the last action's outcome or error in words */
    public Feedback feedback() {
        return feedback;
    }
}
