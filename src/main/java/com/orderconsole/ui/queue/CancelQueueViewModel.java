package com.orderconsole.ui.queue;

import com.orderconsole.domain.Role;
import com.orderconsole.domain.TransitionResult;
import com.orderconsole.service.queue.QueueItem;
import com.orderconsole.service.queue.QueueSummary;
import com.orderconsole.service.queue.SweeperStatus;
import com.orderconsole.ui.ConsoleContext;
import com.orderconsole.ui.common.Formats;
import com.orderconsole.ui.common.Refreshable;
import com.orderconsole.ui.order.OrderDetailViewModel;
import javafx.beans.property.ReadOnlyBooleanProperty;
import javafx.beans.property.ReadOnlyBooleanWrapper;
import javafx.beans.property.ReadOnlyObjectProperty;
import javafx.beans.property.ReadOnlyObjectWrapper;
import javafx.beans.property.ReadOnlyStringProperty;
import javafx.beans.property.ReadOnlyStringWrapper;
import javafx.collections.FXCollections;
import javafx.collections.ObservableList;

import java.time.Duration;
import java.util.List;

/**
 * The cancel-queue monitor: summary, the first entries in expiry order with each order's status,
 * a depth history for the chart, and the ops actions (cancel now, remove, extend, pause/resume sweeper).
 */
public final class CancelQueueViewModel implements Refreshable {
    /** Entries shown in the table (the earliest due). */
    public static final int ENTRIES_SHOWN = 200;
    /** Depth samples kept for the chart (one per refresh). */
    public static final int SAMPLES_KEPT = 180;
    /** A sweeper that has not ticked for this long, ms, is shown as silent (it ticks every second). */
    static final long SILENT_MS = 10_000;

    private final ConsoleContext ctx;
    private final ReadOnlyObjectWrapper<QueueSummary> summary = new ReadOnlyObjectWrapper<>();
    private final ObservableList<QueueItem> entries = FXCollections.observableArrayList();
    private final ObservableList<DepthSample> depthHistory = FXCollections.observableArrayList();
    private final ReadOnlyBooleanWrapper busy = new ReadOnlyBooleanWrapper();
    private final ReadOnlyStringWrapper message = new ReadOnlyStringWrapper("");
    private final ReadOnlyBooleanWrapper messageIsError = new ReadOnlyBooleanWrapper();
    private boolean loading;

    /**
     * One point of the depth chart.
     *
     * @param atMs Redis time of the reading, epoch ms
     * @param depth entries in the queue
     * @param overdue entries past their expiry
     */
    public record DepthSample(long atMs, long depth, long overdue) {
    }

    public CancelQueueViewModel(ConsoleContext ctx) {
        this.ctx = ctx;
    }

    @Override
    public void refresh() {
        if (loading) {
            return;
        }
        loading = true;
        ctx.background().run("read the cancel queue", job -> new Reading(ctx.services().queue().summary(),
                ctx.services().queue().entries(0, ENTRIES_SHOWN)), r -> {
            loading = false;
            summary.set(r.summary());
            entries.setAll(r.entries());
            depthHistory.add(new DepthSample(r.summary().nowMs(), r.summary().depth(), r.summary().overdue()));
            if (depthHistory.size() > SAMPLES_KEPT) {
                depthHistory.remove(0, depthHistory.size() - SAMPLES_KEPT);
            }
        }, error -> {
            loading = false;
            showError(error);
        });
    }

    /**
     * Cancels an unpaid order now through the transition script.
     *
     * @param orderId the entry's order
     * @param reason why, kept in the history
     */
    public void cancelNow(String orderId, String reason) {
        act("cancel order " + orderId, () -> {
            TransitionResult r = ctx.services().queue().cancelNow(ctx.operator(), orderId, reason);
            return new Outcome(r.applied() ? "Order " + orderId + " cancelled (version " + r.version() + ")."
                    : "Order " + orderId + ": " + OrderDetailViewModel.resultText(r), r.applied());
        });
    }

    /** Removes an order's entry: the timeout will no longer cancel it. */
    public void remove(String orderId) {
        act("remove the entry of order " + orderId, () -> ctx.services().queue().remove(ctx.operator(), orderId)
                ? new Outcome("Removed the queue entry of order " + orderId + ".", true)
                : new Outcome("Order " + orderId + " had no queue entry.", false));
    }

    /**
     * Moves an unpaid order's payment deadline later.
     *
     * @param by added to the current expiry, positive
     */
    public void extend(String orderId, Duration by) {
        act("extend the deadline of order " + orderId, () -> {
            long expiry = ctx.services().queue().extend(ctx.operator(), orderId, by);
            return new Outcome("Order " + orderId + " now expires at " + Formats.dateTime(expiry) + ".", true);
        });
    }

    /** Pauses or resumes every cancel sweeper. */
    public void setSweeperPaused(boolean paused) {
        act(paused ? "pause the sweeper" : "resume the sweeper", () -> {
            ctx.services().sweeper().setPaused(ctx.operator(), paused);
            return new Outcome(paused ? "Cancel sweeper paused: overdue orders stay unpaid until it is resumed."
                    : "Cancel sweeper resumed.", true);
        });
    }

    private void act(String what, Action action) {
        busy.set(true);
        ctx.background().run(what, job -> action.run(), outcome -> {
            busy.set(false);
            message.set(outcome.text());
            messageIsError.set(!outcome.ok());
            refresh();
        }, error -> {
            busy.set(false);
            showError(error);
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
            return "Sweeper PAUSED";
        }
        if (sw.lastTickMs() == null) {
            return "No sweeper has run yet: overdue orders are not cancelled";
        }
        long silent = nowMs - sw.lastTickMs();
        String who = sw.runningHere() ? "this console" : sw.lastTickBy();
        if (silent > SILENT_MS) {
            return "Sweeper silent for " + Formats.duration(silent) + " (last: " + who + ")";
        }
        return "Sweeper running (" + who + ")";
    }

    private void showError(String text) {
        message.set(text);
        messageIsError.set(true);
    }

    private record Reading(QueueSummary summary, List<QueueItem> entries) {
    }

    /** @return true when the operator may act on the queue (ops and up) */
    public boolean canAct() {
        return ctx.can(Role.OPS);
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

    public ReadOnlyBooleanProperty busyProperty() {
        return busy.getReadOnlyProperty();
    }

    /** @return the last action's outcome or error in words */
    public ReadOnlyStringProperty messageProperty() {
        return message.getReadOnlyProperty();
    }

    public ReadOnlyBooleanProperty messageIsErrorProperty() {
        return messageIsError.getReadOnlyProperty();
    }
}
