package com.orderconsole.ui.common;

import javafx.application.Platform;
import javafx.concurrent.Task;

import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Consumer;

/**
 * {@link Background} for the running console: each piece of work is a {@link Task} on a pool of
 * daemon threads, so a slow or dead server never freezes the window and never keeps the JVM alive.
 */
public final class FxBackground implements Background, AutoCloseable {
    private final ExecutorService pool;

    /** @param threads worker threads; a few suffice since every call is bounded by the engine's command timeout */
    public FxBackground(int threads) {
        AtomicInteger n = new AtomicInteger();
        pool = Executors.newFixedThreadPool(threads, r -> {
            Thread t = new Thread(r, "console-io-" + n.incrementAndGet());
            t.setDaemon(true);
            return t;
        });
    }

    @Override
    public <T> Job run(String what, Work<T> work, Consumer<? super T> onSuccess, Consumer<String> onError) {
        Job job = new Job();
        Task<T> task = new Task<>() {
            @Override
            protected T call() throws Exception {
                return work.call(job);
            }
        };
        task.setOnSucceeded(e -> onSuccess.accept(task.getValue()));
        task.setOnFailed(e -> onError.accept(ErrorText.couldNot(what, task.getException())));
        pool.execute(task);
        return job;
    }

    @Override
    public void fx(Runnable update) {
        if (Platform.isFxApplicationThread()) {
            update.run();
        } else {
            Platform.runLater(update);
        }
    }

    @Override
    public void close() {
        pool.shutdownNow();
        try {
            pool.awaitTermination(3, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
