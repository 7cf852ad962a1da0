package com.orderconsole.soak;

import com.orderconsole.domain.Operator;
import com.orderconsole.domain.OrderStatus;
import com.orderconsole.domain.ResultCode;
import com.orderconsole.domain.Role;
import com.orderconsole.domain.TransitionRequest;
import com.orderconsole.domain.TransitionResult;
import com.orderconsole.app.Services;

import java.time.Duration;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Random;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.ScheduledThreadPoolExecutor;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.locks.ReentrantReadWriteLock;

/**
 * The soak's clients: threads of the test JVM that create orders with payment timeouts of a few seconds
 * (so the sweepers cancel many) and pay, ship and finish others, some paying right at the deadline to race
 * the sweepers. Every ACKNOWLEDGED applied outcome (code 1, or the creation itself) is recorded; only
 * those count. Calls that fail (Redis or MySQL unavailable, timeout) are retried a few times and are never
 * counted as acknowledged, even if they were applied after all.
 *
 * <p>Each order's plan (which steps, when) is drawn from a seeded {@link Random} by the one creator thread.
 */
final class SoakClients implements AutoCloseable {
    /**
     * An acknowledged applied outcome.
     *
     * @param orderId the order
     * @param version its version after the step
     * @param target the status it moved to (WAIT_PAY for the creation, version 1)
     * @param atMs when the acknowledgement arrived, epoch ms (this machine's clock, which Redis shares)
     * @param segment the Redis data-set segment it was acknowledged in (see {@link #fence()})
     */
    record Ack(String orderId, long version, OrderStatus target, long atMs, int segment) {
    }

    private record Step(OrderStatus target, long delayMs) {
    }

    private record Plan(String orderId, List<Step> steps) {
    }

    private static final Operator CLIENT = new Operator("soak-client", Role.SUPPORT);
    private static final int MAX_ATTEMPTS = 4;

    private final Services services;
    private final long t0;
    private final Random random;
    private final double ordersPerSecond;
    private final ScheduledThreadPoolExecutor pool;
    private final ConcurrentLinkedQueue<Ack> acks = new ConcurrentLinkedQueue<>();
    private final ReentrantReadWriteLock fence = new ReentrantReadWriteLock(true);
    private final AtomicInteger segment = new AtomicInteger();
    private final Map<String, Long> unpaid = new ConcurrentHashMap<>();
    private final AtomicInteger chains = new AtomicInteger();
    private final AtomicLong created = new AtomicLong();
    private final AtomicLong createFailed = new AtomicLong();
    private final AtomicLong calls = new AtomicLong();
    private final AtomicLong callFailed = new AtomicLong();
    private final Map<ResultCode, AtomicLong> rejected = new ConcurrentHashMap<>();
    private final Map<ResultCode, ConcurrentLinkedQueue<String>> rejectedExamples = new ConcurrentHashMap<>();
    private final ConcurrentLinkedQueue<String> clientErrors = new ConcurrentLinkedQueue<>();
    private volatile boolean creating;
    private long seq;

    /**
     * @param services the clients' own engine (no background jobs)
     * @param seed plans are drawn from this
     * @param ordersPerSecond creation rate
     * @param threads client threads
     * @param t0 start of the soak, epoch ms (for "t+seconds" in examples)
     */
    SoakClients(Services services, long seed, double ordersPerSecond, int threads, long t0) {
        this.services = services;
        this.t0 = t0;
        this.random = new Random(seed);
        this.ordersPerSecond = ordersPerSecond;
        this.pool = new ScheduledThreadPoolExecutor(threads, r -> {
            Thread t = new Thread(r, "soak-client");
            t.setDaemon(true);
            return t;
        });
    }

    /** Starts creating orders (creations every 100 ms, in small groups matching the rate). */
    void start() {
        creating = true;
        pool.scheduleWithFixedDelay(this::createTick, 0, 100, TimeUnit.MILLISECONDS);
    }

    /** Stops creating new orders; steps of existing orders go on. */
    void stopCreating() {
        creating = false;
    }

    /**
     * Waits until every order's plan has finished (or given up).
     *
     * @return true when idle within the timeout
     */
    boolean awaitIdle(long timeoutMs) {
        long end = System.currentTimeMillis() + timeoutMs;
        while (chains.get() > 0 && System.currentTimeMillis() < end) {
            Soak.sleep(100);
        }
        return chains.get() == 0;
    }

    /**
     * Client calls hold the read side; a fault that must know on which side of it each acknowledgement
     * fell (the restart that loses Redis's data) takes the write side, so no call is in flight then.
     */
    ReentrantReadWriteLock fence() {
        return fence;
    }

    /** The data-set segment: bumped (under the write side of the fence) when Redis loses its data. */
    AtomicInteger segment() {
        return segment;
    }

    /**
     * @param minLeftMs at least this long before its deadline
     * @param maxLeftMs at most this long before its deadline
     * @return an order no client will touch again (left for the sweeper) whose deadline is that far, or null
     */
    String unpaidOrderDueIn(long minLeftMs, long maxLeftMs) {
        long now = System.currentTimeMillis();
        unpaid.values().removeIf(deadline -> deadline < now);
        List<String> fit = new ArrayList<>();
        unpaid.forEach((id, deadline) -> {
            if (deadline - now >= minLeftMs && deadline - now <= maxLeftMs) {
                fit.add(id);
            }
        });
        return fit.isEmpty() ? null : fit.get(ThreadLocalRandom.current().nextInt(fit.size()));
    }

    private void createTick() {
        try {
            if (!creating) {
                return;
            }
            // Poisson-ish: the expected number per 100 ms tick, rounded at random.
            double expected = ordersPerSecond / 10;
            int n = (int) expected + (random.nextDouble() < expected - (int) expected ? 1 : 0);
            for (int i = 0; i < n && creating; i++) {
                createOne();
            }
        } catch (RuntimeException e) {
            clientErrors.add("creator: " + e);
        }
    }

    private void createOne() {
        String id = "s" + (++seq);
        long expireMs = 2500 + random.nextInt(3500);
        double kind = random.nextDouble();
        List<Step> steps = new ArrayList<>();
        boolean leftUnpaid = kind < 0.30;
        if (!leftUnpaid) {
            // 20 % pay right at the deadline (either side), racing the sweepers; the rest pay in time.
            long payAt = kind < 0.50 ? expireMs + random.nextInt(801) - 400 : 100 + random.nextInt(1400);
            steps.add(new Step(OrderStatus.PAID, payAt));
            if (random.nextDouble() < 0.05) {
                steps.add(new Step(OrderStatus.PAID, 50)); // a repeated payment callback
            }
            for (OrderStatus next : List.of(OrderStatus.WAIT_SHIP, OrderStatus.SHIPPED, OrderStatus.FINISHED)) {
                if (random.nextDouble() < 0.15) {
                    break;
                }
                steps.add(new Step(next, 100 + random.nextInt(500)));
            }
        }
        Plan plan = new Plan(id, steps);
        fence.readLock().lock();
        try {
            int seg = segment.get();
            services.orders().create(CLIENT, id, null, Duration.ofMillis(expireMs));
            acks.add(new Ack(id, 1, OrderStatus.WAIT_PAY, System.currentTimeMillis(), seg));
            created.incrementAndGet();
        } catch (RuntimeException e) {
            // Not acknowledged; the MySQL row may stand ("Redis pending") and maintenance finishes it.
            createFailed.incrementAndGet();
            return;
        } finally {
            fence.readLock().unlock();
        }
        if (leftUnpaid) {
            unpaid.put(id, System.currentTimeMillis() + expireMs);
        }
        if (!steps.isEmpty()) {
            chains.incrementAndGet();
            schedule(plan, 0, 1, steps.get(0).delayMs());
        }
    }

    private void schedule(Plan plan, int step, int attempt, long delayMs) {
        try {
            pool.schedule(() -> run(plan, step, attempt), delayMs, TimeUnit.MILLISECONDS);
        } catch (RuntimeException e) {
            chains.decrementAndGet(); // pool shut down
        }
    }

    private void run(Plan plan, int step, int attempt) {
        boolean next = false;
        try {
            Step s = plan.steps().get(step);
            TransitionResult r;
            fence.readLock().lock();
            try {
                int seg = segment.get();
                calls.incrementAndGet();
                r = services.transitions().transition(CLIENT, TransitionRequest.of(plan.orderId(), s.target(), "soak", "soak step"));
                if (r.applied()) {
                    acks.add(new Ack(plan.orderId(), r.version(), r.target(), System.currentTimeMillis(), seg));
                }
            } catch (RuntimeException e) {
                callFailed.incrementAndGet();
                if (attempt < MAX_ATTEMPTS) {
                    schedule(plan, step, attempt + 1, 500 + ThreadLocalRandom.current().nextInt(500));
                    return;
                }
                chains.decrementAndGet();
                return;
            } finally {
                fence.readLock().unlock();
            }
            if (r.code() == ResultCode.APPLIED || r.code() == ResultCode.ALREADY_IN_STATUS) {
                // ALREADY_IN_STATUS: an earlier attempt that failed on our side was applied after all.
                next = step + 1 < plan.steps().size();
            } else {
                if (rejected.computeIfAbsent(r.code(), c -> new AtomicLong()).incrementAndGet() <= 3) {
                    rejectedExamples.computeIfAbsent(r.code(), c -> new ConcurrentLinkedQueue<>()).add(plan.orderId() + " "
                            + s.target() + " from " + r.from() + String.format(Locale.ROOT, " at t+%.1f s", (r.timeMs() - t0) / 1000.0));
                }
            }
        } catch (RuntimeException e) {
            clientErrors.add(plan.orderId() + ": " + e);
        }
        if (next) {
            schedule(plan, step + 1, 1, plan.steps().get(step + 1).delayMs());
        } else {
            chains.decrementAndGet();
        }
    }

    /** @return every acknowledged applied outcome so far */
    List<Ack> acks() {
        return new ArrayList<>(acks);
    }

    long created() {
        return created.get();
    }

    long createFailed() {
        return createFailed.get();
    }

    long calls() {
        return calls.get();
    }

    long callFailed() {
        return callFailed.get();
    }

    /** @return rejections by result code (not-allowed after a cancel, terminal, ...) */
    Map<ResultCode, Long> rejected() {
        Map<ResultCode, Long> m = new EnumMap<>(ResultCode.class);
        rejected.forEach((k, v) -> m.put(k, v.get()));
        return m;
    }

    /** @return the first three rejections of each code: order, target, from status, when (Redis clock) */
    Map<ResultCode, List<String>> rejectedExamples() {
        Map<ResultCode, List<String>> m = new EnumMap<>(ResultCode.class);
        rejectedExamples.forEach((k, v) -> m.put(k, List.copyOf(v)));
        return m;
    }

    /** @return unexpected client-side errors (bugs in the soak or unexpected exceptions), first ones */
    List<String> clientErrors() {
        return clientErrors.stream().limit(20).toList();
    }

    @Override
    public void close() {
        creating = false;
        pool.shutdownNow();
        try {
            pool.awaitTermination(5, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
