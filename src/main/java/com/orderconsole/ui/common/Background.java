package com.orderconsole.ui.common;

import java.util.function.Consumer;

/**
 * Runs service calls off the JavaFX thread and hands the outcome back on it. The console uses
 * {@link FxBackground} (javafx.concurrent.Task on a small pool); view-model tests use a synchronous
 * implementation so they run without a stage.
 */
public interface Background {

    /**
     * Starts one piece of work.
     *
     * @param what the work in words, e.g. "load orders"; prefixes the error text ("Could not load orders: ...")
     * @param work the blocking call; runs on a worker thread
     * @param onSuccess receives the result on the UI thread
     * @param onError receives the failure in words (never a stack trace) on the UI thread
     * @return a handle to ask the work to stop
     */
    <T> Job run(String what, Work<T> work, Consumer<? super T> onSuccess, Consumer<String> onError);

    /**
     * Runs {@code update} on the UI thread: later when called from a worker, used for progress.
     *
     * @param update a short state change (property sets)
     */
    void fx(Runnable update);

    /** Blocking work that may report progress and check for cancellation. */
    @FunctionalInterface
    interface Work<T> {
        T call(Job job) throws Exception;
    }
}
