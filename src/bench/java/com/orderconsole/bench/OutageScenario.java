package com.orderconsole.bench;

import com.orderconsole.domain.Operator;
import com.orderconsole.domain.OrderState;
import com.orderconsole.domain.OrderStatus;
import com.orderconsole.domain.TransitionRequest;
import com.orderconsole.domain.TransitionResult;
import com.orderconsole.redis.RedisKeys;
import com.orderconsole.app.Services;

import java.time.Duration;

/**
 * MySQL down for {@code bench.outageSeconds} (default 300) while the service path takes a paced
 * {@code bench.outageRate} transitions/s (default 1,000), the product's follower running: what Redis memory
 * the waiting outbox costs (INFO used_memory before and at the end of the outage, per pending entry), whether
 * transitions keep succeeding, how long the backlog takes to drain once MariaDB is back, and that nothing is
 * lost or applied twice (one history row per applied transition, every order at its last version in MySQL).
 */
final class OutageScenario {
    private static final Operator OPERATOR = Operator.system("bench");
    private final BenchEnv env;
    private final Table table;

    OutageScenario(BenchEnv env, Table table) {
        this.env = env;
        this.table = table;
    }

    void run() {
        int seconds = Integer.getInteger("bench.outageSeconds", 300);
        int rate = Integer.getInteger("bench.outageRate", 1000);
        long count = (long) seconds * rate;
        int orders = (int) Math.max(1, count / 4); // each order walks its four steps, one pass of all orders per step
        Services s = env.fresh();
        long now = env.redis.nowMs();
        long expire = now + BenchEnv.PAYMENT_TIMEOUT.toMillis();
        env.seed(orders, i -> BenchEnv.Seed.both(new OrderState(id(i), OrderStatus.WAIT_PAY, 1, now, now), expire));
        s.follower().start(Duration.ofMillis(200));
        if (!s.follower().awaitCaughtUp(Duration.ofSeconds(60))) {
            throw new IllegalStateException("follower not caught up before the outage");
        }
        long memBefore = usedMemory();
        long kept = outboxLength(); // each bucket keeps its cursor's entry after a trim
        long h0 = history();
        env.mariaDb.stop();
        long outageStart = System.nanoTime();
        LoadResult load;
        long pendingAtEnd;
        long memAfter;
        try {
            load = AsyncLoad.paced(count, rate, TransitionScenarios.WINDOW, seconds * 1000L + 30_000, i -> s.transitions().transitionAsync(OPERATOR,
                    TransitionRequest.of(id(i % orders), OrderStatus.ofCode((int) (i / orders) + 2), "bench", "")).thenApply(TransitionResult::applied));
            pendingAtEnd = outboxLength() - kept;
            memAfter = usedMemory();
        } finally {
            env.mariaDb.start();
        }
        double outageS = (System.nanoTime() - outageStart) / 1e9;
        long t0 = System.nanoTime();
        boolean caughtUp = s.follower().awaitCaughtUp(Duration.ofSeconds(300));
        double drainS = (System.nanoTime() - t0) / 1e9;
        s.follower().close();
        long history = history() - h0;
        long atLast = ((Number) env.sqlValue("SELECT COUNT(*) FROM orders WHERE order_id LIKE 'u%' AND status = 5 AND version = 5")).longValue();
        long perEntry = pendingAtEnd == 0 ? 0 : (memAfter - memBefore) / pendingAtEnd;
        table.add(Row.info("MySQL outage: Redis used_memory before / at the end of " + Table.num(outageS, 0) + " s with MariaDB stopped ("
                + Table.num(pendingAtEnd, 0) + " outbox entries pending)", Table.num(memBefore / 1048576.0, 1) + " / "
                + Table.num(memAfter / 1048576.0, 1), "MiB"));
        table.add(Row.info("MySQL outage: Redis memory per pending outbox entry ((after − before) / pending; a day at 1,000/s ≈ "
                + Table.num(perEntry * 86_400_000.0 / 1e9, 1) + " GB)", Table.num(perEntry, 0), "bytes"));
        table.add(Row.judged("MySQL outage: transitions during it, paced at " + Table.num(rate, 0) + "/s (" + Table.num(load.done(), 0)
                        + " issued, " + Table.num(load.errors(), 0) + " errors; p50 / p99 " + Table.num(load.ms(50), 2) + " / "
                        + Table.num(load.ms(99), 2) + " ms)", Table.num(load.ok(), 0), "applied",
                "every one applied", load.done() == 0 ? "" : Table.num(100.0 * load.ok() / load.done(), 1) + " %",
                load.errors() == 0 && load.ok() == count));
        table.add(Row.info("MySQL outage: backlog drained after MariaDB came back (follower at product settings, "
                + Table.num(pendingAtEnd / Math.max(drainS, 0.001), 0) + " changes/s incl. reconnecting)", Table.num(drainS, 1), "s"));
        table.add(Row.judged("MySQL outage: history rows written for the transitions applied during it / orders at their last version",
                Table.num(history, 0) + " / " + Table.num(atLast, 0), "rows / orders", "= " + Table.num(load.ok(), 0) + " / "
                        + Table.num(orders, 0) + ", nothing lost or twice", caughtUp ? "" : "not caught up",
                caughtUp && history == load.ok() && (load.ok() != count || atLast == orders)));
    }

    private static String id(long n) {
        return String.format("u%08d", n);
    }

    private long usedMemory() {
        return Long.parseLong(env.info("memory").get("used_memory"));
    }

    private long history() {
        return ((Number) env.sqlValue("SELECT COUNT(*) FROM order_history")).longValue();
    }

    private long outboxLength() {
        long n = 0;
        for (int b = 0; b < RedisKeys.buckets(); b++) {
            n += env.redis.await(env.raw.xlen(RedisKeys.outbox(b)), "XLEN");
        }
        return n;
    }
}
