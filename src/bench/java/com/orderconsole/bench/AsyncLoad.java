package com.orderconsole.bench;

import org.HdrHistogram.ConcurrentHistogram;
import org.HdrHistogram.Histogram;

import java.util.concurrent.CompletionStage;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.LongFunction;
import java.util.function.LongUnaryOperator;

/** Drives an asynchronous operation closed-loop with a fixed number in flight, bounded in count and time. */
final class AsyncLoad {
    private AsyncLoad() {
    }

    /**
     * Issues op(0), op(1), ... keeping at most {@code window} in flight; stops issuing after {@code count}
     * operations or {@code maxMs}, then waits for the ones in flight.
     *
     * @param op starts operation i; its stage completes with true when it did what it should
     * @return the outcome; latency in microseconds from issue to completion
     */
    static LoadResult run(long count, int window, long maxMs, LongFunction<CompletionStage<Boolean>> op) {
        return run(count, window, maxMs, op, null);
    }

    /** @param dueAt when operation i was due (System.nanoTime), or null to measure from its issue */
    private static LoadResult run(long count, int window, long maxMs, LongFunction<CompletionStage<Boolean>> op, LongUnaryOperator dueAt) {
        Semaphore permits = new Semaphore(window);
        Histogram hist = new ConcurrentHistogram(3);
        AtomicLong done = new AtomicLong();
        AtomicLong ok = new AtomicLong();
        AtomicLong errors = new AtomicLong();
        AtomicLong busy = new AtomicLong();
        AtomicReference<String> firstError = new AtomicReference<>();
        long start = System.nanoTime();
        long deadline = start + TimeUnit.MILLISECONDS.toNanos(maxMs);
        try {
            for (long i = 0; i < count && System.nanoTime() < deadline; i++) {
                if (!permits.tryAcquire(30, TimeUnit.SECONDS)) {
                    throw new IllegalStateException("no completion within 30 s");
                }
                long t0 = dueAt == null ? System.nanoTime() : dueAt.applyAsLong(i);
                CompletionStage<Boolean> f;
                try {
                    f = op.apply(i);
                } catch (RuntimeException e) {
                    permits.release();
                    throw e;
                }
                f.whenComplete((applied, err) -> {
                    hist.recordValue((System.nanoTime() - t0) / 1000);
                    done.incrementAndGet();
                    if (err != null) {
                        errors.incrementAndGet();
                        String m = String.valueOf(rootMessage(err));
                        if (m.startsWith("BUSY")) {
                            busy.incrementAndGet();
                        }
                        firstError.compareAndSet(null, m);
                    } else if (Boolean.TRUE.equals(applied)) {
                        ok.incrementAndGet();
                    }
                    permits.release();
                });
            }
            if (!permits.tryAcquire(window, 30, TimeUnit.SECONDS)) {
                throw new IllegalStateException("operations still in flight after 30 s");
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
        return new LoadResult(done.get(), ok.get(), errors.get(), busy.get(), firstError.get(), System.nanoTime() - start, hist);
    }

    /**
     * Open loop: issues op(i) at {@code perSecond} evenly spaced instants (never more than {@code window}
     * in flight), stopping after {@code count} operations or {@code maxMs}. Latency is measured from when
     * each operation was due, so a stalled client or server shows in the percentiles.
     */
    static LoadResult paced(long count, int perSecond, int window, long maxMs, LongFunction<CompletionStage<Boolean>> op) {
        long start = System.nanoTime();
        long period = 1_000_000_000L / perSecond;
        return run(count, window, maxMs, i -> {
            long due = start + i * period;
            while (System.nanoTime() < due) {
                java.util.concurrent.locks.LockSupport.parkNanos(Math.min(due - System.nanoTime(), 200_000));
            }
            return op.apply(i);
        }, i -> start + i * period);
    }

    static String rootMessage(Throwable t) {
        Throwable r = t;
        while (r.getCause() != null && r.getCause() != r) {
            r = r.getCause();
        }
        return r.getMessage() == null ? r.getClass().getSimpleName() : r.getMessage();
    }
}
