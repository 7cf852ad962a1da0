package com.orderconsole.service.queue;

import com.orderconsole.domain.Operator;
import com.orderconsole.domain.OrderId;
import com.orderconsole.domain.OrderStatus;
import com.orderconsole.domain.ResultCode;
import com.orderconsole.domain.Role;
import com.orderconsole.domain.TransitionRequest;
import com.orderconsole.domain.TransitionResult;
import com.orderconsole.redis.CancelQueueStore;
import com.orderconsole.redis.DataSetStore;
import com.orderconsole.redis.QueueEntry;
import com.orderconsole.redis.RedisConnection;
import com.orderconsole.redis.RedisKeys;
import com.orderconsole.redis.RedisUnavailableException;
import com.orderconsole.service.Access;
import com.orderconsole.service.AuditTrail;
import com.orderconsole.service.DaemonScheduler;
import com.orderconsole.service.LogLimiter;
import com.orderconsole.service.MalformedIds;
import com.orderconsole.service.transition.TransitionService;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.lang.management.ManagementFactory;
import java.time.Duration;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Cancels unpaid orders whose payment deadline passed: reads due entries of each bucket's cancel
 * queue (ZSET, score = expiry in epoch ms, Redis clock) in bounded batches and cancels each through
 * transition.lua. The script removes the entry when the order leaves WAIT_PAY, so an order paid in time
 * loses its entry and a cancelled one is never cancelled twice, however many sweepers run.
 */
public final class CancelSweeper implements AutoCloseable {
    private static final Logger log = LoggerFactory.getLogger(CancelSweeper.class);
    /** Operator name written to the history for timeout cancels. */
    public static final String ACTOR = Operator.CANCEL_SWEEPER;

    private final RedisConnection redis;
    private final CancelQueueStore queue;
    private final DataSetStore marker;
    private final TransitionService transitions;
    private final Fence fence;
    private final RecordedDeadlines recorded;
    private final Access access;
    private final AuditTrail audit;
    private final MalformedIds malformed;
    private final int batchSize;
    private final int maxBatchesPerTick;
    private final Operator self = Operator.system(ACTOR);
    private final String processName = ManagementFactory.getRuntimeMXBean().getName();
    private final AtomicLong cancelled = new AtomicLong();
    private final LogLimiter failures = new LogLimiter(60_000);
    private final Deque<long[]> recent = new ArrayDeque<>();
    private ScheduledExecutorService scheduler;
    private ScheduledFuture<?> task;

    /**
     * The data-set fence the sweeper checks before it cancels in a bucket (issue 25): the follower's
     * {@link com.orderconsole.service.follower.Follower#fenceHolds}.
     */
    @FunctionalInterface
    public interface Fence {
        /**
         * @param bucket the bucket about to be swept
         * @param epoch the data-set marker read this tick
         * @return false when Redis is behind MySQL (then nothing in it may be cancelled)
         */
        boolean holds(int bucket, String epoch);
    }

    /** The payment deadlines MySQL records: the record a due cancel must not come before. */
    @FunctionalInterface
    public interface RecordedDeadlines {
        /**
         * @param ids well-formed order ids, each once
         * @return MySQL's payment deadline (epoch ms) of those of {@code ids} whose row records one
         * @throws com.orderconsole.store.DatabaseUnavailableException when MySQL does not answer
         */
        Map<String, Long> of(List<String> ids);
    }

    /**
     * @param fence asked once per bucket and tick before the bucket's first cancel
     * @param recorded asked once per round of due orders: an order MySQL records a later deadline for is queued again at
     *     that deadline instead of cancelled
     * @param batchSize entries read per ZRANGEBYSCORE and cancelled per pipelined round, e.g. 500
     * @param maxBatchesPerTick bound on rounds per bucket per tick, so a tick never runs unbounded
     * @param audit where pausing and resuming are recorded
     * @param malformed where an entry whose id breaks the id rule is set aside (it is then taken out of the queue)
     */
    public CancelSweeper(RedisConnection redis, CancelQueueStore queue, DataSetStore marker, TransitionService transitions, Fence fence,
                         RecordedDeadlines recorded, Access access, AuditTrail audit, MalformedIds malformed, int batchSize,
                         int maxBatchesPerTick) {
        this.recorded = recorded;
        this.malformed = malformed;
        this.redis = redis;
        this.queue = queue;
        this.marker = marker;
        this.transitions = transitions;
        this.fence = fence;
        this.access = access;
        this.audit = audit;
        this.batchSize = batchSize;
        this.maxBatchesPerTick = maxBatchesPerTick;
    }

    /**
     * One sweep now, on an operator's request (role ops: it cancels orders).
     *
     * @return orders cancelled
     * @throws com.orderconsole.domain.PermissionDeniedException below ops
     */
    public int sweepNow(Operator operator) {
        access.require(operator, Role.OPS, "run the cancel sweeper");
        return tick();
    }

    /**
     * One sweep over all buckets (does nothing while paused); the background job's own call.
     *
     * @return orders cancelled by this tick
     */
    public int tick() {
        long now = redis.nowMs();
        Map<String, String> state = queue.sweeperState();
        if ("1".equals(state.get("paused"))) {
            heartbeat(now); // obeying the pause is this tick's whole work
            return 0;
        }
        String epoch = marker.epoch();
        if (epoch == null) {
            // Redis lost its data or went back in time: until maintenance has restored the orders from
            // MySQL, a WAIT_PAY seen here may be an order MySQL knows as paid.
            long held = failures.occurrence("no marker");
            if (held >= 0) {
                log.warn("cancel sweeper waits: Redis has no data-set marker until maintenance restores it{}", failures.more(held));
            }
            return 0;
        }
        int done = 0;
        boolean everyBucket = true;
        for (int b = 0; b < RedisKeys.buckets(); b++) {
            try {
                int n = sweep(b, now, epoch);
                if (n < 0) {
                    return done; // Redis is behind MySQL: the data set is fenced now, nothing more is cancelled
                }
                done += n;
            } catch (RedisUnavailableException | com.orderconsole.store.DatabaseUnavailableException e) {
                throw e; // every other bucket would fail the same way (MySQL: the fence cannot be checked)
            } catch (RuntimeException e) {
                // One bucket that cannot be swept must not hold back the other buckets' deadlines.
                everyBucket = false;
                long held = failures.occurrence("bucket");
                if (held >= 0) {
                    log.warn("cancel sweeper could not sweep bucket {}, went on with the others: {}{}", b, e.getMessage(),
                            failures.more(held));
                }
            }
        }
        // Recorded only now: a tick that could not sweep every bucket (MySQL down under the fence, Redis gone, the data set
        // fenced or without its marker, one bucket failing) leaves the last tick time to grow old, so the stalled-sweeper
        // alert can fire.
        if (everyBucket) {
            heartbeat(now);
        }
        if (done > 0) {
            cancelled.addAndGet(done);
            synchronized (recent) {
                recent.addLast(new long[]{System.currentTimeMillis(), done});
            }
            log.info("cancel sweeper cancelled {} unpaid orders", done);
        }
        return done;
    }

    private void heartbeat(long now) {
        queue.sweeperHeartbeat(Map.of("lastTick", Long.toString(now), "lastTickBy", processName));
    }

    /** One bucket's due entries, in bounded rounds. @return orders cancelled, or -1 when the fence stopped the sweep */
    private int sweep(int b, long now, String epoch) {
        int done = 0;
        for (int round = 0; round < maxBatchesPerTick; round++) {
            List<QueueEntry> due = queue.due(b, now, batchSize);
            if (due.isEmpty()) {
                break;
            }
            if (round == 0 && !fence.holds(b, epoch)) {
                return -1;
            }
            done += cancelAll(b, due, now);
            if (due.size() < batchSize) {
                break;
            }
        }
        return done;
    }

    private int cancelAll(int bucket, List<QueueEntry> all, long now) {
        List<QueueEntry> wellFormed = new ArrayList<>(all.size());
        for (QueueEntry e : all) {
            if (OrderId.isValid(e.orderId())) {
                wellFormed.add(e);
            } else {
                setAside(bucket, e);
            }
        }
        List<QueueEntry> due = dueByTheRecord(wellFormed, now);
        List<CompletableFuture<TransitionResult>> fs = new ArrayList<>(due.size());
        for (QueueEntry e : due) {
            // Only while still unpaid: a payment that lands after the queue was read wins, whatever the rules allow.
            fs.add(transitions.transitionAsync(self, TransitionRequest.of(e.orderId(), OrderStatus.CANCELLED, "sweeper",
                    "payment timeout").onlyFrom(OrderStatus.WAIT_PAY)));
        }
        int n = 0;
        RuntimeException firstFailure = null;
        for (int i = 0; i < fs.size(); i++) {
            String id = due.get(i).orderId();
            TransitionResult r;
            try {
                r = redis.await(fs.get(i), "cancel " + id);
            } catch (RedisUnavailableException e) {
                throw e; // Redis is gone: the rest of this tick would fail the same way
            } catch (RuntimeException e) {
                // One order that cannot be cancelled must not hold back the others' deadlines.
                firstFailure = firstFailure == null ? e : firstFailure;
                continue;
            }
            if (r.applied()) {
                n++;
            } else if (r.code() == ResultCode.STATE_MISSING || r.code() == ResultCode.MALFORMED
                    || r.code() == ResultCode.NOT_ALLOWED && r.from() == OrderStatus.WAIT_PAY) {
                // Unknown order, a record set aside for ops, or rules that forbid cancelling: retrying every
                // second would never succeed.
                queue.dequeue(id);
                log.warn("removed cancel-queue entry of order {}: {}", id, r.code().description());
            }
        }
        if (firstFailure != null) {
            log.warn("cancel sweeper could not cancel some due orders, will retry: {}", firstFailure.getMessage());
        }
        return n;
    }

    /**
     * MySQL's deadline is the record the follower checks a sweeper's cancel against. An order whose recorded deadline is
     * later than Redis' queue entry (moved in MySQL alone, as by a direct call of {@code order_console_set_expiry}) is
     * queued again at the recorded deadline instead of cancelled, so Redis and MySQL agree on it and the cancel, when it
     * comes, is one MySQL takes.
     *
     * @return the entries due by MySQL's record too
     */
    private List<QueueEntry> dueByTheRecord(List<QueueEntry> entries, long now) {
        if (entries.isEmpty() || recorded == null) {
            return entries;
        }
        Map<String, Long> deadlines = recorded.of(entries.stream().map(QueueEntry::orderId).toList());
        List<QueueEntry> due = new ArrayList<>(entries.size());
        for (QueueEntry e : entries) {
            Long at = deadlines.get(e.orderId());
            if (at == null || at <= now) {
                due.add(e);
            } else if (queue.requeue(e.orderId(), at) == 1) {
                log.info("order {}: MySQL records a later payment deadline ({}) than its cancel-queue entry ({}); queued again "
                        + "at MySQL's deadline, not cancelled", e.orderId(), java.time.Instant.ofEpochMilli(at),
                        java.time.Instant.ofEpochMilli(e.expireAtMs()));
            }
        }
        return due;
    }

    /**
     * An entry whose id breaks the id rule: no transition can cancel it, and at every tick it stood first in its bucket.
     * It leaves the queue once its dead letter is written (which keeps the id and the deadline); with MySQL away it
     * stays until a later tick, and the others are cancelled all the same.
     */
    private void setAside(int bucket, QueueEntry e) {
        String where = "the cancel queue of bucket " + bucket + " (payment deadline " + e.expireAtMs() + " epoch ms)";
        if (malformed.setAside(e.orderId(), where, "The sweeper took the entry out of the cancel queue and goes on with the "
                + "other orders: no transition can run on this id, so the product cannot cancel or move it. Its Redis record and "
                + "MySQL row, if any, stay as they are; discard this letter once the order is dealt with.")) {
            queue.dequeue(e.orderId());
        }
    }

    /** Starts ticking every {@code interval} on a daemon thread. */
    public synchronized void start(Duration interval) {
        if (scheduler != null) {
            return;
        }
        scheduler = DaemonScheduler.create("cancel-sweeper");
        task = scheduler.scheduleWithFixedDelay(() -> {
            try {
                tick();
            } catch (RuntimeException e) {
                long held = failures.occurrence("tick");
                if (held >= 0) {
                    log.warn("cancel sweeper tick failed, will retry every second: {}{}", e.getMessage(), failures.more(held));
                }
            }
        }, 0, interval.toMillis(), TimeUnit.MILLISECONDS);
    }

    /**
     * Pauses or resumes every sweeper (a flag in Redis), role ops or higher, and records it in the audit trail with who,
     * from where and why. The flag is set first: pausing is what an on-call engineer reaches for during an incident,
     * possibly with MySQL down, so it is not held back by the record; when the record cannot be written the error
     * says that the sweeper was paused (or resumed) all the same.
     *
     * @param paused true to pause
     * @param source where it was done: console, cli…
     * @param reason the operator's reason ("" when none was asked)
     * @throws IllegalStateException when the audit trail could not record it (the flag is set), in words
     */
    public void setPaused(Operator operator, boolean paused, String source, String reason) {
        access.require(operator, Role.OPS, paused ? "pause the cancel sweeper" : "resume the cancel sweeper");
        boolean was = "1".equals(queue.sweeperState().get("paused"));
        queue.sweeperHeartbeat(Map.of("paused", paused ? "1" : "0"));
        log.info("{} {} the cancel sweeper", operator.name(), paused ? "paused" : "resumed");
        try {
            audit.record(operator, source, paused ? AuditTrail.SWEEPER_PAUSE : AuditTrail.SWEEPER_RESUME, null, reason,
                    "cancel sweeper " + (was ? "paused" : "running") + " → " + (paused ? "paused" : "running"));
        } catch (RuntimeException e) {
            log.warn("{} {} the cancel sweeper, but the audit trail could not record it: {}", operator.name(),
                    paused ? "paused" : "resumed", e.getMessage());
            throw new IllegalStateException("the cancel sweeper is " + (paused ? "paused" : "running")
                    + ", but the audit trail could not record it: " + e.getMessage(), e);
        }
    }

    /** @return the sweepers' state */
    public SweeperStatus status() {
        Map<String, String> s = queue.sweeperState();
        long cutoff = System.currentTimeMillis() - 60_000;
        long perMinute = 0;
        synchronized (recent) {
            while (!recent.isEmpty() && recent.peekFirst()[0] < cutoff) {
                recent.removeFirst();
            }
            for (long[] r : recent) {
                perMinute += r[1];
            }
        }
        String last = s.get("lastTick");
        boolean runningHere;
        synchronized (this) {
            runningHere = scheduler != null;
        }
        return new SweeperStatus(runningHere, "1".equals(s.get("paused")), last == null ? null : Long.parseLong(last),
                s.get("lastTickBy"), perMinute, cancelled.get());
    }

    @Override
    public synchronized void close() {
        if (task != null) {
            task.cancel(false);
        }
        if (scheduler != null) {
            scheduler.shutdown();
            try {
                scheduler.awaitTermination(5, TimeUnit.SECONDS);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
            scheduler = null;
        }
    }
}
