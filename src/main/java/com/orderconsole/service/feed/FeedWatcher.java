package com.orderconsole.service.feed;

import com.orderconsole.service.DaemonScheduler;
import com.orderconsole.service.LogLimiter;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.TreeMap;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Tells the change feed's long polls when there is something to read: one per API server, it
 * asks MySQL where the feed can go from the cursors that wait, on its own thread, every {@link #DEFAULT_INTERVAL} while
 * anyone waits and soon after a {@link #nudge} (this process's follower committed history rows), and completes the waiters
 * it can serve. A waiter holds no thread and reads nothing while it waits: 300 pollers at the head cost the same few reads
 * per interval as one, and leave the API's MySQL pool to the requests that need it.
 */
public final class FeedWatcher implements AutoCloseable {
    /** How often the head is read while someone waits and nothing nudged: a quiet feed's longest delivery delay. */
    public static final Duration DEFAULT_INTERVAL = Duration.ofMillis(250);
    /** Nudges closer together than this share one read: a busy follower commits far more often than pollers need to hear. */
    private static final long MIN_SPACING_NANOS = TimeUnit.MILLISECONDS.toNanos(25);
    /** Distinct waiting positions probed per round at most; consumers at the head share one position. */
    private static final int MAX_PROBES = 4;
    private static final Logger log = LoggerFactory.getLogger(FeedWatcher.class);

    private final ChangeFeed feed;
    private final Duration interval;
    private final ScheduledExecutorService thread = DaemonScheduler.create("feed-watcher");
    private final LogLimiter quiet = new LogLimiter(60_000);
    /** Waiters by the position they wait past. Guarded by itself. */
    private final TreeMap<Long, Set<CompletableFuture<Boolean>>> waiting = new TreeMap<>();
    /** A probe is queued to run at once. */
    private final AtomicBoolean queued = new AtomicBoolean();
    /** A probe is scheduled for the next interval. */
    private final AtomicBoolean timed = new AtomicBoolean();
    private final AtomicLong reads = new AtomicLong();
    private volatile long lastProbe = System.nanoTime() - MIN_SPACING_NANOS;
    private volatile boolean closed;
    private final List<Runnable> onClose = new java.util.concurrent.CopyOnWriteArrayList<>();

    /**
     * @param feed the feed whose reads the waiters make once woken (its gap state is shared with them)
     * @param interval how often the head is read while someone waits
     */
    public FeedWatcher(ChangeFeed feed, Duration interval) {
        this.feed = feed;
        this.interval = interval;
    }

    /**
     * Waits, without a thread, until a read from the cursor would move (an event committed past it, or a gap or rejected
     * attempts it may pass), or until {@code wait} is over.
     *
     * @param cursor the cursor of the waiter's last (empty) page
     * @param wait how long at most
     * @return completes with true when a read would move, false when the wait is over (or the watcher closed)
     * @throws IllegalArgumentException when the cursor is not one the feed gave
     */
    public CompletableFuture<Boolean> awaitNews(String cursor, Duration wait) {
        long position = ChangeFeed.position(cursor);
        CompletableFuture<Boolean> f = new CompletableFuture<>();
        synchronized (waiting) {
            if (closed) {
                f.complete(false);
                return f;
            }
            waiting.computeIfAbsent(position, p -> new HashSet<>()).add(f);
        }
        f.whenComplete((r, e) -> forget(position, f));
        f.completeOnTimeout(false, Math.max(0, wait.toNanos()), TimeUnit.NANOSECONDS);
        // The waiter read just now: the next look is due an interval from now, unless a commit here nudges sooner.
        arm();
        return f;
    }

    /** Asks for a look at the head soon: called when this process committed history rows. Cheap; nudges coalesce. */
    public void nudge() {
        if (closed || !anyWaiting()) {
            return;
        }
        if (queued.compareAndSet(false, true)) {
            long delay = Math.max(0, lastProbe + MIN_SPACING_NANOS - System.nanoTime());
            thread.schedule(this::probe, delay, TimeUnit.NANOSECONDS);
        }
    }

    /** @return how many reads of the head the watcher made (each one page read of one event at most) */
    public long reads() {
        return reads.get();
    }

    /** @return waiters now */
    public int waiting() {
        synchronized (waiting) {
            return waiting.values().stream().mapToInt(Set::size).sum();
        }
    }

    private boolean anyWaiting() {
        synchronized (waiting) {
            return !waiting.isEmpty();
        }
    }

    private void forget(long position, CompletableFuture<Boolean> f) {
        synchronized (waiting) {
            Set<CompletableFuture<Boolean>> at = waiting.get(position);
            if (at != null && at.remove(f) && at.isEmpty()) {
                waiting.remove(position);
            }
        }
    }

    private void arm() {
        if (!closed && timed.compareAndSet(false, true)) {
            thread.schedule(() -> {
                timed.set(false);
                if (queued.compareAndSet(false, true)) {
                    probe();
                }
            }, interval.toNanos(), TimeUnit.NANOSECONDS);
        }
    }

    /**
     * Reads where the feed goes from the lowest waiting positions and wakes every waiter below it. One read serves all
     * the waiters it passes: a read from p that reaches r means every id in (p, r] may be passed, so any waiter between
     * p and r has something to read too.
     */
    private void probe() {
        queued.set(false);
        lastProbe = System.nanoTime();
        List<Long> positions;
        synchronized (waiting) {
            positions = new ArrayList<>(waiting.keySet());
        }
        long reached = -1;
        int probes = 0;
        try {
            for (long p : positions) {
                if (p >= reached) {
                    if (probes++ == MAX_PROBES) {
                        break;
                    }
                    reads.incrementAndGet();
                    reached = Math.max(reached, ChangeFeed.position(feed.read(ChangeFeed.cursor(p), 1).cursor()));
                }
                if (p < reached) {
                    wake(p);
                }
            }
        } catch (RuntimeException e) {
            // MySQL down or slow: the waiters answer an empty page when their wait is over; the next interval tries again.
            long held = quiet.occurrence("feed head");
            if (held >= 0) {
                log.warn("the change feed cannot read MySQL's history to wake its long polls: {}{}", e.getMessage(), quiet.more(held));
            }
        }
        if (anyWaiting()) {
            arm();
        }
    }

    private void wake(long position) {
        List<CompletableFuture<Boolean>> woken;
        synchronized (waiting) {
            Set<CompletableFuture<Boolean>> at = waiting.remove(position);
            woken = at == null ? List.of() : new ArrayList<>(at);
        }
        woken.forEach(f -> f.complete(true));
    }

    /** @param r run when the watcher closes (e.g. stop the follower's nudges) */
    public void whenClosed(Runnable r) {
        onClose.add(r);
    }

    /** Stops looking; whoever waits is answered at once as if the wait were over. */
    @Override
    public void close() {
        onClose.forEach(Runnable::run);
        List<CompletableFuture<Boolean>> all = new ArrayList<>();
        synchronized (waiting) {
            closed = true;
            waiting.values().forEach(all::addAll);
            waiting.clear();
        }
        thread.shutdownNow();
        all.forEach(f -> f.complete(false));
    }
}
