package com.orderconsole.bench;

import com.orderconsole.domain.Operator;
import com.orderconsole.domain.OrderState;
import com.orderconsole.domain.OrderStatus;
import com.orderconsole.domain.TransitionRequest;
import com.orderconsole.app.Services;
import org.HdrHistogram.ConcurrentHistogram;
import org.HdrHistogram.Histogram;

import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicIntegerArray;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;

/**
 * The case the source article is about: many requests racing on the same orders. {@value #CLIENTS}
 * clients send PAY, CANCEL and a duplicate PAY callback for each of {@value #ORDERS} hot WAIT_PAY orders,
 * {@value #ATTEMPTS} attempts per order, the orders interleaved so that an order's attempts arrive from
 * different clients at about the same time. Redis path: the service's transitionAsync with
 * {@value #CLIENTS} in flight. MySQL-only path: {@value #CLIENTS} connections, each attempt one transaction
 * ({@code SELECT ... FOR UPDATE}, conditional UPDATE, history row when applied, durable commit:
 * innodb_flush_log_at_trx_commit=1). Both are checked: exactly one attempt per order wins.
 */
final class HotRowsScenario {
    static final int CLIENTS = 64;
    static final int ORDERS = 1000;
    static final int ATTEMPTS = 30;
    private static final Operator OPERATOR = Operator.system("bench");

    private final BenchEnv env;
    private final Table table;

    HotRowsScenario(BenchEnv env, Table table) {
        this.env = env;
        this.table = table;
    }

    /** Attempt i: which order (spread so that neighbours in time hit different orders, each order ATTEMPTS times). */
    private static int order(long i) {
        return (int) (i % ORDERS);
    }

    /** Attempt i: PAY, CANCEL or the duplicate PAY callback, in turn per order. */
    private static OrderStatus target(long i) {
        return (i / ORDERS) % 3 == 1 ? OrderStatus.CANCELLED : OrderStatus.PAID;
    }

    private static String id(String prefix, int n) {
        return String.format("%s%06d", prefix, n);
    }

    void run() {
        Services s = env.fresh();
        long now = env.redis.nowMs();
        long expire = now + BenchEnv.PAYMENT_TIMEOUT.toMillis();
        env.seed(2 * ORDERS, i -> BenchEnv.Seed.both(new OrderState(id(i < ORDERS ? "h" : "k", i % ORDERS), OrderStatus.WAIT_PAY, 1, now, now), expire));
        long count = (long) ORDERS * ATTEMPTS;

        AtomicIntegerArray winners = new AtomicIntegerArray(ORDERS);
        LoadResult redis = AsyncLoad.run(count, CLIENTS, 60_000, i -> s.transitions().transitionAsync(OPERATOR,
                TransitionRequest.of(id("h", order(i)), target(i), "bench", "")).thenApply(r -> {
                    if (r.applied()) {
                        winners.incrementAndGet(order(i));
                    }
                    return true;
                }));
        String redisCheck = check(winners, redis.done() == count);
        if (redis.errors() > 0) {
            redisCheck = redis.errors() + " errors (first: " + redis.firstError() + ")";
        }
        table.add(Row.judged("Hot rows, Redis path: " + CLIENTS + " clients racing PAY / CANCEL / duplicate PAY on " + ORDERS
                        + " orders (" + Table.num(redis.done(), 0) + " attempts; p50 / p99 " + Table.num(redis.ms(50), 2) + " / "
                        + Table.num(redis.ms(99), 2) + " ms; " + redisCheck + ")", Table.num(redis.opsPerSecond(), 0), "attempts/s",
                "one winner per order", "", redisCheck.startsWith("exactly")));

        AtomicIntegerArray mysqlWinners = new AtomicIntegerArray(ORDERS);
        env.sql("SET GLOBAL innodb_flush_log_at_trx_commit = 1");
        LoadResult mysql;
        try {
            mysql = runMysql(count, mysqlWinners);
        } finally {
            env.sql("SET GLOBAL innodb_flush_log_at_trx_commit = 2");
        }
        String mysqlCheck = mysql.errors() > 0 ? mysql.errors() + " errors (first: " + mysql.firstError() + ")"
                : check(mysqlWinners, mysql.done() == count);
        table.add(Row.judged("Hot rows, MySQL-only path: the same race as SELECT ... FOR UPDATE + conditional UPDATE + history row, "
                        + "durable commits, " + CLIENTS + " connections (p50 / p99 " + Table.num(mysql.ms(50), 2) + " / "
                        + Table.num(mysql.ms(99), 2) + " ms; " + mysqlCheck + ")", Table.num(mysql.opsPerSecond(), 0), "attempts/s",
                "one winner per order", "", mysqlCheck.startsWith("exactly")));
        table.add(Row.info("Hot rows: Redis path vs MySQL-only path, throughput / p99", Table.num(redis.opsPerSecond() / mysql.opsPerSecond(), 1)
                + "× / " + Table.num(mysql.ms(99) / Math.max(0.001, redis.ms(99)), 1) + "× lower", ""));
    }

    private static String check(AtomicIntegerArray winners, boolean complete) {
        int none = 0;
        int many = 0;
        for (int i = 0; i < winners.length(); i++) {
            if (winners.get(i) == 0) {
                none++;
            } else if (winners.get(i) > 1) {
                many++;
            }
        }
        if (!complete) {
            return "stopped by its time bound";
        }
        return none == 0 && many == 0 ? "exactly one winner for each of " + winners.length() + " orders"
                : many + " orders with more than one winner, " + none + " with none";
    }

    private LoadResult runMysql(long count, AtomicIntegerArray winners) {
        Histogram hist = new ConcurrentHistogram(3);
        AtomicLong next = new AtomicLong();
        AtomicLong done = new AtomicLong();
        AtomicLong errors = new AtomicLong();
        AtomicReference<String> error = new AtomicReference<>();
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
        List<Thread> threads = new ArrayList<>();
        long start = System.nanoTime();
        for (int t = 0; t < CLIENTS; t++) {
            Thread th = new Thread(() -> {
                try (Connection c = DriverManager.getConnection(env.mariaDb.jdbcUrl(), "root", "");
                     PreparedStatement lock = c.prepareStatement("SELECT status, version FROM orders WHERE order_id = ? FOR UPDATE");
                     PreparedStatement upd = c.prepareStatement(
                             "UPDATE orders SET status = ?, version = version + 1, status_since_ms = ? WHERE order_id = ? AND status = 1");
                     PreparedStatement hs = c.prepareStatement("INSERT INTO order_history (order_id, from_status, to_status, version, "
                             + "result_code, actor, source, reason, at_ms, event_key) VALUES (?, 1, ?, ?, 1, 'bench', 'bench', '', ?, ?)")) {
                    c.setAutoCommit(false);
                    for (long i = next.getAndIncrement(); i < count && System.nanoTime() < deadline; i = next.getAndIncrement()) {
                        long t0 = System.nanoTime();
                        String oid = id("k", order(i));
                        int to = target(i).code();
                        lock.setString(1, oid);
                        int status;
                        long version;
                        try (ResultSet rs = lock.executeQuery()) {
                            rs.next();
                            status = rs.getInt(1);
                            version = rs.getLong(2);
                        }
                        if (status == 1) {
                            long at = System.currentTimeMillis();
                            upd.setInt(1, to);
                            upd.setLong(2, at);
                            upd.setString(3, oid);
                            if (upd.executeUpdate() == 1) {
                                hs.setString(1, oid);
                                hs.setInt(2, to);
                                hs.setLong(3, version + 1);
                                hs.setLong(4, at);
                                hs.setString(5, "hot:" + oid);
                                hs.executeUpdate();
                                winners.incrementAndGet(order(i));
                            }
                        }
                        c.commit();
                        hist.recordValue((System.nanoTime() - t0) / 1000);
                        done.incrementAndGet();
                    }
                } catch (SQLException e) {
                    errors.incrementAndGet();
                    error.compareAndSet(null, e.getMessage());
                }
            }, "hot-mysql-" + t);
            threads.add(th);
            th.start();
        }
        for (Thread th : threads) {
            try {
                th.join();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new IllegalStateException(e);
            }
        }
        return new LoadResult(done.get(), done.get(), errors.get(), 0, error.get(), System.nanoTime() - start, hist);
    }
}
