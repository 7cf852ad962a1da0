package com.orderconsole.service.follower;

import com.orderconsole.redis.RedisKeys;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.IntUnaryOperator;

/**
 * Runs one piece of work per bucket, on the caller's thread or on up to {@code threads} buckets at once, each on its
 * own MySQL connection (the follower's drain; the benchmark compares 1 to {@value FollowerSettings#THREADS_MAX}).
 */
final class BucketWorkers {
    /** What one round over every bucket did: entries applied, and the first failure (after every bucket was tried). */
    record Outcome(int total, RuntimeException failure) {
    }

    private ExecutorService pool;
    private volatile int threads;
    private boolean closed;

    /** @param threads buckets worked on at once, 1 for the caller's thread alone */
    BucketWorkers(int threads) {
        this.threads = threads;
    }

    /**
     * @param work the work of one bucket, returning entries applied
     * @return the total over every bucket; every bucket is tried even when another fails
     */
    Outcome eachBucket(IntUnaryOperator work) {
        ExecutorService p = threads == 1 ? null : pool();
        if (p == null) { // one thread, or closed: this call finishes on the caller's thread
            int total = 0;
            for (int b = 0; b < RedisKeys.buckets(); b++) {
                total += work.applyAsInt(b);
            }
            return new Outcome(total, null);
        }
        List<Future<Integer>> fs = new ArrayList<>(RedisKeys.buckets());
        for (int b = 0; b < RedisKeys.buckets(); b++) {
            int bucket = b;
            fs.add(p.submit(() -> work.applyAsInt(bucket)));
        }
        int total = 0;
        RuntimeException failure = null;
        for (Future<Integer> f : fs) {
            try {
                total += f.get();
            } catch (ExecutionException e) {
                if (failure == null) {
                    failure = e.getCause() instanceof RuntimeException r ? r : new IllegalStateException(e.getCause());
                }
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                if (failure == null) {
                    failure = new IllegalStateException("interrupted while draining the outbox", e);
                }
            }
        }
        return new Outcome(total, failure);
    }

    /** Changes how many buckets are worked on at once; the next round uses the new count. */
    synchronized void resize(int threads) {
        if (pool != null && threads != this.threads) {
            pool.shutdown();
            pool = null;
        }
        this.threads = threads;
    }

    private synchronized ExecutorService pool() {
        if (closed) {
            return null;
        }
        if (pool == null) {
            AtomicInteger n = new AtomicInteger();
            pool = Executors.newFixedThreadPool(threads, r -> {
                Thread t = new Thread(r, "follower-" + n.incrementAndGet());
                t.setDaemon(true);
                return t;
            });
        }
        return pool;
    }

    synchronized void close() {
        closed = true;
        if (pool != null) {
            pool.shutdown();
        }
    }
}
