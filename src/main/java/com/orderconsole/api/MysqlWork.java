package com.orderconsole.api;

import java.time.Duration;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Supplier;

/**
 * Work that waits on MySQL, on bounded threads and a bounded queue: a hung MySQL turns requests into 503s in words
 * after the timeout, never into a pile-up of the server's threads. The request holds no thread while it waits.
 */
final class MysqlWork implements AutoCloseable {
    private final ThreadPoolExecutor pool;
    private final Duration timeout;

    /** @param timeout how long a request waits for its work before it is answered 503, e.g. 5 s */
    MysqlWork(Duration timeout) {
        AtomicInteger n = new AtomicInteger();
        this.pool = new ThreadPoolExecutor(8, 8, 30, TimeUnit.SECONDS, new ArrayBlockingQueue<>(256), r -> {
            Thread t = new Thread(r, "api-mysql-" + n.incrementAndGet());
            t.setDaemon(true);
            return t;
        });
        this.timeout = timeout;
    }

    Duration timeout() {
        return timeout;
    }

    /**
     * @return the work's result; failed with a {@link TimeoutException} after the timeout (the work goes on), or with a
     *     503 {@link ApiProblem} when the queue is full (the work never started)
     */
    <T> CompletableFuture<T> supply(Supplier<T> work) {
        try {
            return CompletableFuture.supplyAsync(work, pool).orTimeout(timeout.toMillis(), TimeUnit.MILLISECONDS);
        } catch (RejectedExecutionException e) {
            return CompletableFuture.failedFuture(ApiProblem.unavailable("too many requests wait on MySQL now: this one was "
                    + "refused before it started, so nothing was done and nothing was stored; send it again in "
                    + ApiProblem.RETRY_AFTER_SECONDS + " s"));
        }
    }

    /**
     * Runs MySQL-bound work and answers the call with its result, or with its failure in words: after the timeout a 503
     * saying what became of the request ({@code late}).
     *
     * @param status the answer's status when the work succeeds, e.g. 200
     * @param work what to run; it returns the answer's JSON document
     * @param late what became of the request when it did not finish in time, e.g. "nothing was changed; ask again"
     */
    void answer(ApiCall call, int status, Supplier<?> work, String late) {
        long t0 = System.nanoTime();
        call.future(() -> supply(work).handle((doc, e) -> {
            if (e == null) {
                call.json(status, doc);
            } else if (isTimeout(e)) {
                call.answer(ApiProblem.unavailable("MySQL or Redis did not answer within " + waited(t0) + "; " + late));
            } else {
                call.answer(HttpMapping.problem(e));
            }
            return null;
        }));
    }

    /** @return true when a future failed because its work took longer than the timeout */
    static boolean isTimeout(Throwable e) {
        return com.orderconsole.domain.Failures.unwrap(e) instanceof TimeoutException;
    }

    /** @return the time since {@code t0} ({@link System#nanoTime}) in words, e.g. "2.0 s": what a 503 says it waited */
    static String waited(long t0) {
        return String.format(java.util.Locale.ROOT, "%.1f s", (System.nanoTime() - t0) / 1e9);
    }

    @Override
    public void close() {
        pool.shutdownNow();
    }
}
