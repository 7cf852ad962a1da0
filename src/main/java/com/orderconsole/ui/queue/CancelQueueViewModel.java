package com.orderconsole.ui.queue;

import com.orderconsole.app.Messages;
import com.orderconsole.app.ProductionGuard;
import com.orderconsole.domain.Operator;
import com.orderconsole.domain.Role;
import com.orderconsole.domain.TransitionResult;
import com.orderconsole.service.queue.QueueItem;
import com.orderconsole.service.queue.CancelQueue;
import com.orderconsole.service.queue.QueueSummary;
import com.orderconsole.service.queue.SweeperStatus;
import com.orderconsole.ui.common.Background;
import com.orderconsole.ui.common.Command;
import com.orderconsole.ui.common.DialogService;
import com.orderconsole.ui.common.Feedback;
import com.orderconsole.ui.common.Formats;
import com.orderconsole.ui.common.KeysetPager;
import com.orderconsole.ui.common.OrderText;
import com.orderconsole.ui.common.Refreshable;
import javafx.beans.property.ObjectProperty;
import javafx.beans.property.ReadOnlyBooleanProperty;
import javafx.beans.property.ReadOnlyBooleanWrapper;
import javafx.beans.property.ReadOnlyObjectProperty;
import javafx.beans.property.ReadOnlyObjectWrapper;
import javafx.beans.property.ReadOnlyStringProperty;
import javafx.beans.property.SimpleObjectProperty;
import javafx.beans.property.StringProperty;
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
    /** Entries per page of the table (earliest due first; Next and Previous page through the whole queue). */
    public static final int PAGE_SIZE = 200;
    /** Depth samples kept for the chart (one per refresh). */
    public static final int SAMPLES_KEPT = 180;
    /** How much later the deadline of an entry may be moved, offered in this order. */
    public static final List<Duration> EXTENSIONS = List.of(Duration.ofMinutes(15), Duration.ofHours(1), Duration.ofHours(24));
    /** Two readings further apart than this, ms, are not joined in the depth chart (refresh runs every 2 s). */
    static final long GAP_MS = 10_000;
    /** A sweeper that has not ticked for this long, ms, is shown as silent (it ticks every second). */
    static final long SILENT_MS = 10_000;

    private final CancelQueue queue;
    private final Operator operator;
    private final DialogService dialogs;
    private final ReadOnlyObjectWrapper<QueueSummary> summary = new ReadOnlyObjectWrapper<>();
    /** True while the summary shown is older than the last reading tried (that one failed). */
    private final ReadOnlyBooleanWrapper stale = new ReadOnlyBooleanWrapper();
    /** True while the feedback shows a failed reading (the next good reading takes it back). */
    private boolean readError;
    private final QueueEntries list;
    private final ObservableList<DepthSample> depthHistory = FXCollections.observableArrayList();
    private final ObjectProperty<Duration> extendBy = new SimpleObjectProperty<>(EXTENSIONS.get(0));
    private final Feedback feedback = new Feedback();
    private final Feedback sweeperFeedback = new Feedback();
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
     * @param queue reads the queue, acts on its entries, and pauses and resumes the cancel sweepers
     * @param operator who acts; the services refuse roles below ops
     * @param background where reads and actions run
     * @param dialogs asks before an entry is cancelled or removed
     */
    public CancelQueueViewModel(CancelQueue queue, Operator operator, Background background,
                                DialogService dialogs) {
        this.queue = queue;
        this.operator = operator;
        this.dialogs = dialogs;
        this.reading = new Command(background, this::readFailed);
        this.actions = new Command(background, feedback::error);
        this.list = new QueueEntries(queue, background, feedback, summary::get, this::readFailed);
        this.entryCommand = actions.when(list.pager().selectedProperty().isNotNull());
        this.sweeperCommand = actions.when(summary.isNotNull());
    }

    @Override
    public void refresh() {
        list.refresh();
        reading.run(Messages.get("queue.read.action"), job -> queue.summary(), r -> {
            summary.set(r);
            stale.set(false);
            // The error of a failed reading goes with the next good one (an action's outcome stays).
            if (readError) {
                readError = false;
                feedback.clear();
            }
            list.showCount();
            // A reading long after the last one (page hidden, refresh paused) starts the chart afresh
            // rather than drawing a straight line across the time nobody looked.
            if (!depthHistory.isEmpty() && r.nowMs() - depthHistory.get(depthHistory.size() - 1).atMs() > GAP_MS) {
                depthHistory.clear();
            }
            depthHistory.add(new DepthSample(r.nowMs(), r.depth(), r.overdue()));
            if (depthHistory.size() > SAMPLES_KEPT) {
                depthHistory.remove(0, depthHistory.size() - SAMPLES_KEPT);
            }
        });
    }

    /**
     * A reading that failed (Redis stalled or down): said in words, and the tiles are marked as an old reading rather
     * than going on saying "last tick 0 s ago" as if it were now (issue 34).
     */
    private void readFailed(String error) {
        readError = true;
        stale.set(summary.get() != null);
        feedback.error(error);
    }

    /**
     * Asks for a reason, then (on production, {@link ProductionGuard.Action#QUEUE_CANCEL}) for the order id typed, then cancels
     * the selected entry's order now ({@link #cancelNow}); nothing when declined.
     */
    public void cancelSelected() {
        QueueItem item = list.selected();
        if (item == null) {
            return;
        }
        String title = Messages.get("queue.cancel.title");
        String statement = Messages.format("queue.cancel.statement", item.orderId());
        dialogs.askReason(title, statement, Messages.get("queue.cancel.confirm"))
                .filter(reason -> dialogs.confirmGuarded(ProductionGuard.Action.QUEUE_CANCEL, title, statement, item.orderId()))
                .ifPresent(reason -> cancelNow(item.orderId(), reason));
    }

    /**
     * Asks for a reason, then (on production) for the order id typed, then removes the selected entry ({@link #remove}):
     * the order is then never cancelled by its deadline, as heavy as a cancel. Nothing when declined.
     */
    public void removeSelected() {
        QueueItem item = list.selected();
        if (item == null) {
            return;
        }
        String title = Messages.get("queue.remove.title");
        String statement = Messages.format("queue.remove.statement", item.orderId());
        dialogs.askReason(title, statement, Messages.get("queue.remove.confirm"))
                .filter(reason -> dialogs.confirmGuarded(ProductionGuard.Action.QUEUE_REMOVE, title, statement, item.orderId()))
                .ifPresent(reason -> remove(item.orderId(), reason));
    }

    /** Asks for a reason, then moves the selected entry's deadline later by {@link #extendByProperty()} ({@link #extend}). */
    public void extendSelected() {
        QueueItem item = list.selected();
        Duration by = extendBy.get();
        if (item == null || by == null) {
            return;
        }
        dialogs.askReason(Messages.get("queue.extend.title"), Messages.format("queue.extend.statement", item.orderId(),
                Formats.duration(by)), Messages.format("queue.extend.confirm", Formats.duration(by)))
                .ifPresent(reason -> extend(item.orderId(), by, reason));
    }

    /**
     * Pauses a running sweeper or resumes a paused one, as the last reading shows it, after a reason and (on production)
     * the environment's name typed: pausing stops every sweeper of the environment, serve's included, and resuming
     * lets it cancel a backlog of overdue orders at once. Nothing when declined.
     */
    public void toggleSweeper() {
        QueueSummary s = summary.get();
        if (s == null) {
            return;
        }
        boolean pause = !s.sweeper().paused();
        String env = dialogs.environment().name();
        String title = Messages.get(pause ? "queue.pause.title" : "queue.resume.title");
        String statement = pause ? Messages.format("queue.pause.statement", env)
                : Messages.format("queue.resume.statement", env, s.overdue());
        dialogs.askReason(title, statement, Messages.get(pause ? "queue.pause" : "queue.resume"))
                .filter(reason -> dialogs.confirmGuarded(pause ? ProductionGuard.Action.SWEEPER_PAUSE : ProductionGuard.Action.SWEEPER_RESUME, title, statement, env))
                .ifPresent(reason -> setSweeperPaused(pause, reason));
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

    /**
     * Pauses or resumes every cancel sweeper; the outcome is told beside the sweeper's button ({@link #sweeperFeedback()}).
     *
     * @param reason why, kept in the audit trail; required
     */
    public void setSweeperPaused(boolean paused, String reason) {
        if (reason == null || reason.isBlank()) {
            sweeperFeedback.error(Messages.get("queue.reasonRequired"));
            return;
        }
        act(sweeperFeedback, paused ? Messages.get("queue.pause.action") : Messages.get("queue.resume.action"), () -> {
            queue.setPaused(operator, paused, SOURCE, reason.strip());
            return new Outcome(paused ? Messages.get("queue.paused") : Messages.get("queue.resumed"), true);
        });
    }

    /** Runs one entry action, shows its outcome under the entry buttons and reads the queue again, whatever happened. */
    private void act(String what, Action action) {
        act(feedback, what, action);
    }

    /**
     * Runs one action and reads the queue again, whatever happened. The outcome goes to {@code where} (beside the
     * button used) and the other line is emptied: one result on the page, the latest, where the user acted.
     */
    private void act(Feedback where, String what, Action action) {
        Feedback other = where == feedback ? sweeperFeedback : feedback;
        actions.run(what, job -> action.run(), outcome -> {
            other.clear();
            if (outcome.ok()) {
                where.ok(outcome.text());
            } else {
                where.error(outcome.text());
            }
            refresh();
        }, error -> {
            other.clear();
            where.error(error);
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


    /** @return true when the operator may act on the queue (ops and up) */
    public boolean canAct() {
        return operator.role().includes(Role.OPS);
    }

    /** @return the last reading, null before the first */
    public ReadOnlyObjectProperty<QueueSummary> summaryProperty() {
        return summary.getReadOnlyProperty();
    }

    /** @return true while the tiles show an old reading because the last one failed */
    public ReadOnlyBooleanProperty staleProperty() {
        return stale.getReadOnlyProperty();
    }

    /**
     * Lists the entry of the order in the id field, or the whole queue again when the field is empty; an id no order
     * can have is refused in words and the table is left as it was.
     */
    public void search() {
        list.search();
    }

    /** Lists the whole queue again from its first page (the id field is emptied). */
    public void showAll() {
        list.showAll();
    }

    /** @return the earliest-due entries */
    public ObservableList<QueueItem> entries() {
        return list.pager().rows();
    }

    /** @return Previous / Next over the whole queue, keyset on (deadline, order id) */
    public KeysetPager<QueueItem> pager() {
        return list.pager();
    }

    /** @return the id typed into the search field */
    public StringProperty idTextProperty() {
        return list.idTextProperty();
    }

    /** @return which entries the table shows out of how many, in words */
    public ReadOnlyStringProperty countTextProperty() {
        return list.countTextProperty();
    }

    /** @return the order id searched for, null while the whole queue is listed */
    public ReadOnlyStringProperty searchedProperty() {
        return list.searchedProperty();
    }

    /** @return the depth samples of the chart, oldest first */
    public ObservableList<DepthSample> depthHistory() {
        return depthHistory;
    }

    /** @return the entry the actions apply to, null when none is selected */
    public ObjectProperty<QueueItem> selectedProperty() {
        return list.pager().selectedProperty();
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

    /** @return the last entry action's outcome or error in words (and read errors), under the entry buttons */
    public Feedback feedback() {
        return feedback;
    }

    /** @return the last pause or resume's outcome or error in words, beside the sweeper's button */
    public Feedback sweeperFeedback() {
        return sweeperFeedback;
    }
}
