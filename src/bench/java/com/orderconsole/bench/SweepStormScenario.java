package com.orderconsole.bench;

import com.orderconsole.domain.Operator;
import com.orderconsole.domain.OrderState;
import com.orderconsole.domain.OrderStatus;
import com.orderconsole.domain.TransitionRequest;
import com.orderconsole.redis.RedisKeys;
import com.orderconsole.service.Services;
import com.orderconsole.service.queue.BenchSweepers;
import com.orderconsole.service.queue.CancelSweeper;
import io.lettuce.core.Range;
import io.lettuce.core.RedisFuture;
import org.HdrHistogram.Histogram;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;
import java.util.concurrent.locks.LockSupport;

/**
 * Sweep storm: {@code storm} unpaid orders all expire within the same second while other customers
 * pay at a steady rate. Measures the time from that second until every one is cancelled by the
 * product's sweeper (started as the engine starts it: one tick per second) and the latency of the
 * concurrent PAY transitions, corrected for coordinated omission (measured from when each PAY was due).
 */
final class SweepStormScenario {
    /** PAY transitions per second on other orders during the storm. */
    static final int PAY_RATE = 2000;
    /** Batch size of the what-if sweeper: the earlier default, 500 scripts queued ahead of a PAY instead of 100. */
    static final int WHAT_IF_BATCH = 500;
    private static final Operator CUSTOMER = Operator.system("bench-pay");

    private final BenchEnv env;
    private final Table table;
    private volatile boolean stopPay;

    SweepStormScenario(BenchEnv env, Table table) {
        this.env = env;
        this.table = table;
    }

    /**
     * @param storm orders expiring in the same second
     * @param batchSize null for the product's sweeper (as Services builds it), else a what-if sweeper
     *                  with this batch size and the product's other bounds
     */
    void run(int storm, Integer batchSize) {
        Services s = env.fresh();
        CancelSweeper sweeper = batchSize == null ? s.sweeper() : BenchSweepers.create(env.stores, env.db, s.transitions(), s.follower(), batchSize, 20);
        String label = batchSize == null ? "Sweep storm" : "Sweep storm what-if, sweeper batch " + batchSize + " (the earlier default; the product now uses 100)";
        long now = env.redis.nowMs();
        int payers = PAY_RATE * 30; // enough for 30 s of PAY load, the loop's time bound
        long payExpire = now + BenchEnv.PAYMENT_TIMEOUT.toMillis();
        // Storm orders first without queue entries, then all queued for one second at once below.
        env.seedRedis(storm + payers, i -> i < storm
                ? BenchEnv.Seed.both(new OrderState(String.format("s%08d", i), OrderStatus.WAIT_PAY, 1, now, now), null)
                : BenchEnv.Seed.both(new OrderState(String.format("p%08d", i - storm), OrderStatus.WAIT_PAY, 1, now, now), payExpire));
        long second = (env.redis.nowMs() / 1000 + 3) * 1000;
        List<RedisFuture<Long>> fs = new ArrayList<>(storm);
        for (int i = 0; i < storm; i++) {
            String oid = String.format("s%08d", i);
            fs.add(env.raw.zadd(RedisKeys.cancelQueue(RedisKeys.bucket(oid)), second + i % 1000, oid));
        }
        fs.forEach(f -> env.redis.await(f, "ZADD"));

        // PAY load: one request every 1/PAY_RATE s, starting 1 s before the storm second.
        long[] dueAt = new long[payers];
        long[] latencyMicros = new long[payers];
        AtomicLong payErrors = new AtomicLong();
        AtomicLong busy = new AtomicLong();
        AtomicLong notApplied = new AtomicLong();
        AtomicLong completed = new AtomicLong();
        AtomicReference<String> firstError = new AtomicReference<>();
        long[] issued = {0};
        stopPay = false;
        long loadStartMs = second - 1000;
        Thread payLoad = new Thread(() -> {
            long startNs = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(loadStartMs - System.currentTimeMillis());
            long periodNs = 1_000_000_000L / PAY_RATE;
            int k = 0;
            for (; k < payers && !stopPay; k++) {
                long due = startNs + k * periodNs;
                while (System.nanoTime() < due) {
                    LockSupport.parkNanos(Math.min(due - System.nanoTime(), 200_000));
                }
                int idx = k;
                dueAt[idx] = loadStartMs + k * 1000L / PAY_RATE;
                s.transitions().transitionAsync(CUSTOMER, TransitionRequest.of(String.format("p%08d", k), OrderStatus.PAID, "bench", ""))
                        .whenComplete((r, e) -> {
                            latencyMicros[idx] = (System.nanoTime() - due) / 1000;
                            if (e != null) {
                                payErrors.incrementAndGet();
                                String m = AsyncLoad.rootMessage(e);
                                if (m.startsWith("BUSY")) {
                                    busy.incrementAndGet();
                                }
                                firstError.compareAndSet(null, m);
                            } else if (!r.applied()) {
                                notApplied.incrementAndGet();
                            }
                            completed.incrementAndGet();
                        });
            }
            issued[0] = k;
        }, "pay-load");
        payLoad.start();
        sweeper.start(Duration.ofSeconds(1));

        // Done when no storm entry is due any more (entries are removed by the cancel itself).
        long doneAt = -1;
        long limit = System.currentTimeMillis() + 120_000;
        while (System.currentTimeMillis() < limit) {
            long nowMs = env.redis.nowMs();
            if (nowMs >= second + 1000 && overdue(second + 999) == 0) {
                doneAt = nowMs;
                break;
            }
            sleep(20);
        }
        sleep(1000); // PAY latency just after the storm too
        stopPay = true;
        join(payLoad);
        long waitUntil = System.currentTimeMillis() + 10_000;
        while (completed.get() < issued[0] && System.currentTimeMillis() < waitUntil) {
            sleep(10);
        }
        sweeper.close();
        if (doneAt < 0) {
            throw new IllegalStateException("sweeper did not cancel the storm within 120 s; overdue " + overdue(second + 999));
        }
        // Redis' own count of applied cancels: since issue 16 the graph's CANCELLED count is MySQL's, kept
        // between background recounts, so it read 0 here while all 100,000 were cancelled in Redis.
        long cancelled = s.monitor().appliedByEdge().entrySet().stream()
                .filter(e -> e.getKey().to() == OrderStatus.CANCELLED).mapToLong(java.util.Map.Entry::getValue).sum();
        Histogram during = new Histogram(3);
        for (int k = 0; k < issued[0]; k++) {
            if (dueAt[k] >= second && dueAt[k] <= doneAt) {
                during.recordValue(latencyMicros[k]);
            }
        }
        double seconds = (doneAt - second) / 1000.0;
        double p99 = during.getValueAtPercentile(99) / 1000.0;
        table.add(Row.info(label + ": time from the expiry second until all " + Table.num(storm, 0) + " are cancelled ("
                + Table.num(cancelled, 0) + " cancelled)", Table.num(seconds, 2), "s"));
        table.add(Row.info(label + ": cancels per second over that time", Table.num(storm / seconds, 0), "orders/s"));
        table.add(judged(batchSize == null, label + ": PAY p99 on other orders meanwhile (" + PAY_RATE + " PAY/s, " + during.getTotalCount()
                + " PAYs; p50 " + Table.num(during.getValueAtPercentile(50) / 1000.0, 2) + " ms, max "
                + Table.num(during.getMaxValue() / 1000.0, 1) + " ms)", Table.num(p99, 2), "ms", "< 20 ms", "", p99 < 20));
        table.add(judged(batchSize == null, label + ": BUSY errors / other PAY errors / PAYs not applied", busy.get() + " / "
                + (payErrors.get() - busy.get()) + " / " + notApplied.get(), "count", "0 BUSY", "", busy.get() == 0 && payErrors.get() == 0
                && cancelled >= storm));
        if (firstError.get() != null) {
            System.out.println("  first PAY error: " + firstError.get());
        }
    }

    /** The product's sweeper is judged; a what-if run only informs. */
    private static Row judged(boolean judge, String figure, String value, String unit, String target, String ratio, boolean pass) {
        return judge ? Row.judged(figure, value, unit, target, ratio, pass) : Row.info(figure + " (target " + target + ")", value, unit);
    }

    private long overdue(long upTo) {
        List<RedisFuture<Long>> fs = new ArrayList<>();
        for (int b = 0; b < RedisKeys.buckets(); b++) {
            fs.add(env.raw.zcount(RedisKeys.cancelQueue(b), Range.create(Double.NEGATIVE_INFINITY, (double) upTo)));
        }
        long n = 0;
        for (RedisFuture<Long> f : fs) {
            n += env.redis.await(f, "ZCOUNT");
        }
        return n;
    }

    private static void sleep(long ms) {
        try {
            Thread.sleep(ms);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    private static void join(Thread t) {
        try {
            t.join(60_000);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
