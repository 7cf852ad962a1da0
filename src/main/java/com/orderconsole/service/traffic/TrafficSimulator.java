package com.orderconsole.service.traffic;

import com.orderconsole.domain.Operator;
import com.orderconsole.domain.OrderStatus;
import com.orderconsole.domain.Role;
import com.orderconsole.domain.TransitionRequest;
import com.orderconsole.domain.TransitionResult;
import com.orderconsole.service.Access;
import com.orderconsole.service.order.OrderService;
import com.orderconsole.service.transition.TransitionService;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.util.Locale;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ScheduledThreadPoolExecutor;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Consumer;

/**
 * Live traffic for demos: creates orders at a chosen rate and drives them through their life, only
 * through {@link OrderService#create} and {@link TransitionService} (so the transition script is the
 * only thing that changes a status, and every move is in the history and the counters).
 *
 * <p>Each new order (id {@code sim-<start time base 36>-<n>}, source "simulator", actor the operator
 * who started it) draws its fate: with probability payShare it pays after 10-70 % of the payment
 * timeout; with probability latePayShare it pays 2-3 s after the deadline, when the cancel sweeper
 * (ticking every second) has cancelled it, so the payment is rejected with -2; otherwise it never pays
 * and the sweeper cancels it. A paid order moves on to WAIT_SHIP, SHIPPED and FINISHED, each step
 * 1-4 s after the one before. Without a running sweeper unpaid orders stay in WAIT_PAY and late
 * payments are applied.
 *
 * <p>Stopping ends creation and drops the steps not yet taken: orders stay where they are (unpaid ones
 * are still cancelled by the sweeper).
 */
public final class TrafficSimulator implements AutoCloseable {
    private static final Logger log = LoggerFactory.getLogger(TrafficSimulator.class);
    /** Source written to the history of simulated moves. */
    public static final String SOURCE = "simulator";
    private static final long TICK_MS = 100;

    private final OrderService orders;
    private final TransitionService transitions;
    private final Access access;
    private final AtomicLong created = new AtomicLong();
    private final AtomicLong paid = new AtomicLong();
    private final AtomicLong latePays = new AtomicLong();
    private final AtomicLong shipped = new AtomicLong();
    private final AtomicLong finished = new AtomicLong();
    /** Non-null while running; volatile so status() never waits for a stop() in progress. */
    private volatile ScheduledThreadPoolExecutor scheduler;
    private final AtomicLong lastFailureLog = new AtomicLong();
    /** Transitions sent and not yet answered. */
    private final AtomicInteger inFlight = new AtomicInteger();

    public TrafficSimulator(OrderService orders, TransitionService transitions, Access access) {
        this.orders = orders;
        this.transitions = transitions;
        this.access = access;
    }

    /**
     * Starts the simulation (restarts it with the new settings when it runs); counters start at zero.
     *
     * @param op who runs it (role ops or higher); their name is the actor of every simulated move
     * @param s rate, shares and payment timeout
     * @throws com.orderconsole.domain.PermissionDeniedException when the role is below ops
     */
    public synchronized void start(Operator op, SimulatorSettings s) {
        start(op, s, Long.MAX_VALUE);
    }

    /**
     * As {@link #start(Operator, SimulatorSettings)}, creating at most {@code maxOrders} orders (a bounded run,
     * e.g. the {@code traffic} command); creation stops there, the created orders go on living until stopped.
     *
     * @param maxOrders most orders to create, at least 1
     * @throws IllegalArgumentException when {@code maxOrders} is below 1
     */
    public synchronized void start(Operator op, SimulatorSettings s, long maxOrders) {
        access.require(op, Role.OPS, "run the traffic simulator");
        if (maxOrders < 1) {
            throw new IllegalArgumentException("the simulator must be allowed at least 1 order, got " + maxOrders);
        }
        if (s == null) {
            throw new IllegalArgumentException("simulator settings are missing");
        }
        stop();
        for (AtomicLong c : new AtomicLong[]{created, paid, latePays, shipped, finished}) {
            c.set(0);
        }
        // Not DaemonScheduler: stop() relies on delayed steps being dropped at shutdown, a policy only
        // ScheduledThreadPoolExecutor exposes (the default would run every pending step first).
        ScheduledThreadPoolExecutor ex = new ScheduledThreadPoolExecutor(1, r -> {
            Thread t = new Thread(r, "traffic-simulator");
            t.setDaemon(true);
            return t;
        });
        ex.setRemoveOnCancelPolicy(true);
        ex.setExecuteExistingDelayedTasksAfterShutdownPolicy(false);
        String prefix = "sim-" + Long.toString(System.currentTimeMillis(), 36) + "-";
        Creator creator = new Creator(ex, op, s, prefix, maxOrders);
        ex.scheduleWithFixedDelay(creator::tick, 0, TICK_MS, TimeUnit.MILLISECONDS);
        scheduler = ex;
        log.info("{} started the traffic simulator: {}", op.name(), s);
    }

    /**
     * Stops creating orders and drops pending steps; does nothing when not running. Returns once the
     * order being created and the transitions already sent have completed (at most a few seconds), so
     * {@link #status()} then counts everything the simulator did.
     */
    public synchronized void stop() {
        if (scheduler == null) {
            return;
        }
        // shutdown(), not shutdownNow(): interrupting a creation could leave it half done (MySQL row, no Redis state).
        scheduler.shutdown();
        try {
            if (!scheduler.awaitTermination(5, TimeUnit.SECONDS)) {
                log.warn("traffic simulator thread did not finish within 5 s");
            }
            long end = System.nanoTime() + TimeUnit.SECONDS.toNanos(5);
            while (inFlight.get() > 0 && System.nanoTime() < end) {
                Thread.sleep(10);
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        scheduler = null;
        log.info("traffic simulator stopped: {}", status());
    }

    /** @return whether it runs and what it did since the last start */
    public SimulatorStatus status() {
        return new SimulatorStatus(scheduler != null, created.get(), paid.get(), latePays.get(), shipped.get(),
                finished.get());
    }

    @Override
    public void close() {
        stop();
    }

    /** Creates orders at the rate; runs on the simulator thread only. */
    private final class Creator {
        private final ScheduledThreadPoolExecutor ex;
        private final Operator op;
        private final SimulatorSettings s;
        private final String prefix;
        private final long maxOrders;
        private long last = System.nanoTime();
        private double owed;
        private long next;

        Creator(ScheduledThreadPoolExecutor ex, Operator op, SimulatorSettings s, String prefix, long maxOrders) {
            this.maxOrders = maxOrders;
            this.ex = ex;
            this.op = op;
            this.s = s;
            this.prefix = prefix;
        }

        void tick() {
            long now = System.nanoTime();
            // Capped at one second's worth, so a stall (e.g. Redis down) is not followed by a burst.
            owed = Math.min(owed + s.ordersPerSecond() * (now - last) / 1e9, Math.max(1, s.ordersPerSecond()));
            last = now;
            while (owed >= 1 && !ex.isShutdown() && next < maxOrders) {
                owed--;
                createOne();
            }
        }

        private void createOne() {
            String id = prefix + (++next);
            try {
                orders.create(op, id, null, s.paymentTimeout(), SOURCE);
            } catch (RuntimeException e) {
                failed("create " + id, e);
                return;
            }
            created.incrementAndGet();
            double fate = ThreadLocalRandom.current().nextDouble();
            long timeoutMs = s.paymentTimeout().toMillis();
            if (fate < s.payShare()) {
                later(ex, (long) (timeoutMs * between(0.1, 0.7)), () -> pay(ex, op, id, false));
            } else if (fate < s.payShare() + s.latePayShare()) {
                later(ex, timeoutMs + (long) between(2000, 3000), () -> pay(ex, op, id, true));
            }
        }
    }

    private void pay(ScheduledThreadPoolExecutor ex, Operator op, String id, boolean late) {
        move(ex, op, id, OrderStatus.PAID, late ? "simulated late payment" : "simulated payment", r -> {
            if (late) {
                latePays.incrementAndGet();
            }
            if (r.applied()) {
                paid.incrementAndGet();
                step(ex, op, id, OrderStatus.WAIT_SHIP);
            }
        });
    }

    private void step(ScheduledThreadPoolExecutor ex, Operator op, String id, OrderStatus target) {
        later(ex, (long) between(1000, 4000), () -> move(ex, op, id, target, "simulated " + target.label().toLowerCase(Locale.ROOT), r -> {
            if (!r.applied()) {
                return;
            }
            switch (target) {
                case WAIT_SHIP -> step(ex, op, id, OrderStatus.SHIPPED);
                case SHIPPED -> {
                    shipped.incrementAndGet();
                    step(ex, op, id, OrderStatus.FINISHED);
                }
                case FINISHED -> finished.incrementAndGet();
                default -> {
                }
            }
        }));
    }

    private void move(ScheduledThreadPoolExecutor ex, Operator op, String id, OrderStatus target, String reason,
                      Consumer<TransitionResult> then) {
        if (ex.isShutdown()) {
            return;
        }
        inFlight.incrementAndGet();
        try {
            // Asynchronous: the simulator thread never waits for Redis, so creation keeps its rate.
            transitions.transitionAsync(op, TransitionRequest.of(id, target, SOURCE, reason)).whenComplete((r, err) -> {
                try {
                    if (err != null) {
                        failed("move " + id + " to " + target, err);
                    } else {
                        // Counted even after stop(): it happened. Follow-up steps are refused then (see later()).
                        then.accept(r);
                    }
                } finally {
                    inFlight.decrementAndGet();
                }
            });
        } catch (RuntimeException e) {
            inFlight.decrementAndGet();
            failed("move " + id + " to " + target, e);
        }
    }

    private static void later(ScheduledThreadPoolExecutor ex, long delayMs, Runnable r) {
        try {
            ex.schedule(r, delayMs, TimeUnit.MILLISECONDS);
        } catch (RejectedExecutionException stopped) {
            // Stopped meanwhile: the step is dropped, as documented.
        }
    }

    private static double between(double lo, double hi) {
        return ThreadLocalRandom.current().nextDouble(lo, hi);
    }

    private void failed(String what, Throwable e) {
        // At 200 orders/s an outage would otherwise write hundreds of lines a second.
        long now = System.currentTimeMillis();
        long prev = lastFailureLog.get();
        if (now - prev > 10_000 && lastFailureLog.compareAndSet(prev, now)) {
            log.warn("traffic simulator could not {} (further failures muted for 10 s): {}", what, e.getMessage());
        }
    }
}
