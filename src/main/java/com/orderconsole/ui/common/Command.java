package com.orderconsole.ui.common;

import javafx.beans.property.ReadOnlyBooleanProperty;
import javafx.beans.property.ReadOnlyBooleanWrapper;
import javafx.beans.value.ObservableBooleanValue;

import java.util.function.Consumer;

/**
 * One thing a page does in the background (a load, an action), in the spirit of mvvmFX's Command: the
 * view binds {@code button.disableProperty().bind(command.executableProperty().not())} and the view
 * model never writes busy flags by hand. Work runs through {@link Background}; the answer is handed to
 * the caller on the UI thread, a failure to the error handler (usually {@link Feedback#error}).
 *
 * <p>Commands made with {@link #when} share one lane: at most one of them runs at a time, so the
 * buttons of actions that must not overlap (cancel, remove, extend an entry) are disabled together.
 * Use on the UI thread only.
 */
public final class Command {
    private final Lane lane;
    private final ReadOnlyBooleanWrapper executable = new ReadOnlyBooleanWrapper();

    /**
     * @param background where the work runs
     * @param onError receives a failure in words on the UI thread, unless a run names its own handler
     */
    public Command(Background background, Consumer<String> onError) {
        this(new Lane(background, onError), null);
    }

    private Command(Lane lane, ObservableBooleanValue condition) {
        this.lane = lane;
        executable.bind(condition == null ? lane.running.not() : lane.running.not().and(condition));
    }

    /**
     * @param condition what else must hold for the button to be enabled, e.g. "an entry is selected"
     * @return a command on this command's lane, executable while this one is and {@code condition} holds
     */
    public Command when(ObservableBooleanValue condition) {
        return new Command(lane, executable.and(condition));
    }

    /**
     * Starts work unless the lane is already running (a second click, a refresh tick during a slow load).
     * The condition of {@link #when} only guides the view; callers pass what the work needs explicitly.
     *
     * @param what the work in words, e.g. "load orders"; prefixes the error text
     * @param work the blocking call; runs on a worker thread
     * @param onSuccess receives the result on the UI thread
     * @return false when skipped because the lane was running
     */
    public <T> boolean run(String what, Background.Work<T> work, Consumer<? super T> onSuccess) {
        return run(what, work, onSuccess, lane.onError);
    }

    /** As {@link #run(String, Background.Work, Consumer)}, with its own error handler. */
    public <T> boolean run(String what, Background.Work<T> work, Consumer<? super T> onSuccess, Consumer<String> onError) {
        if (lane.running.get()) {
            return false;
        }
        lane.start(what, work, onSuccess, onError);
        return true;
    }

    /**
     * Starts work now; a run of this lane still under way is superseded: it is asked to stop and its
     * answer, success or failure, is dropped, so a slow old answer never replaces a newer one (order A
     * looked up before order B, answering after it). The lane stays running until the latest answers.
     *
     * @param what the work in words; prefixes the error text
     * @param work the blocking call; runs on a worker thread
     * @param onSuccess receives the result on the UI thread, only if no later run was started meanwhile
     */
    public <T> void runLatest(String what, Background.Work<T> work, Consumer<? super T> onSuccess) {
        runLatest(what, work, onSuccess, lane.onError);
    }

    /** As {@link #runLatest(String, Background.Work, Consumer)}, with its own error handler. */
    public <T> void runLatest(String what, Background.Work<T> work, Consumer<? super T> onSuccess, Consumer<String> onError) {
        lane.start(what, work, onSuccess, onError);
    }

    /** Asks the running work to stop at its next check (cooperative, see {@link Job}); nothing when idle. */
    public void cancel() {
        if (lane.job != null) {
            lane.job.cancel();
        }
    }

    /**
     * Forgets the run under way, e.g. when the page it would fill is cleared: it is asked to stop, its
     * answer is dropped, and the lane is idle at once.
     */
    public void abandon() {
        cancel();
        lane.latest++;
        lane.job = null;
        lane.running.set(false);
    }

    /** @return true while work of this lane runs */
    public boolean isRunning() {
        return lane.running.get();
    }

    /** @return true while work of this lane runs */
    public ReadOnlyBooleanProperty runningProperty() {
        return lane.running.getReadOnlyProperty();
    }

    /** @return true while the lane is idle and every condition of {@link #when} holds */
    public ReadOnlyBooleanProperty executableProperty() {
        return executable.getReadOnlyProperty();
    }

    /** What commands made with {@link #when} share: the running flag, the latest run and its job. */
    private static final class Lane {
        private final Background background;
        private final Consumer<String> onError;
        private final ReadOnlyBooleanWrapper running = new ReadOnlyBooleanWrapper();
        /** Counts runs; only the answer of the latest is delivered. */
        private long latest;
        private Job job;

        Lane(Background background, Consumer<String> onError) {
            this.background = background;
            this.onError = onError;
        }

        <T> void start(String what, Background.Work<T> work, Consumer<? super T> onSuccess, Consumer<String> onFailure) {
            long mine = ++latest;
            if (job != null) {
                job.cancel();
            }
            running.set(true);
            Job started = background.run(what, work, result -> {
                if (finish(mine)) {
                    onSuccess.accept(result);
                }
            }, error -> {
                if (finish(mine)) {
                    onFailure.accept(error);
                }
            });
            // A synchronous background has answered already, and its handler may have started a later run.
            if (mine == latest && running.get()) {
                job = started;
            }
        }

        /** @return true when this run is the latest: the lane is idle again and the answer counts */
        private boolean finish(long run) {
            if (run != latest) {
                return false;
            }
            running.set(false);
            job = null;
            return true;
        }
    }
}
