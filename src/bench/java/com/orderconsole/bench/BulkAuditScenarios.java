package com.orderconsole.bench;

import com.orderconsole.domain.Operator;
import com.orderconsole.domain.OrderState;
import com.orderconsole.domain.OrderStatus;
import com.orderconsole.domain.ResultCode;
import com.orderconsole.domain.Role;
import com.orderconsole.domain.TransitionRequest;
import com.orderconsole.app.Services;
import com.orderconsole.service.audit.AuditFilter;
import com.orderconsole.service.audit.MoveKind;
import com.orderconsole.service.bulk.BulkBatch;
import com.orderconsole.service.bulk.BulkPreview;
import com.orderconsole.service.bulk.BulkProgress;
import com.orderconsole.service.bulk.BulkScope;
import com.orderconsole.service.bulk.BulkService;
import com.orderconsole.service.order.OrderQuery;
import org.HdrHistogram.ConcurrentHistogram;
import org.HdrHistogram.Histogram;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Set;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * Issue 13: a 100,000-order bulk move (preview and apply, with single moves running meanwhile and their p99
 * compared with the same load alone), and the audit view's first page at 1,000,000 history rows (&lt; 200 ms).
 */
final class BulkAuditScenarios {
    private static final Operator OP = new Operator("bench", Role.ADMIN);
    /** Clients making single moves while the bulk move runs (the console's and the payment callbacks' kind of load). */
    private static final int SINGLE_CLIENTS = 4;

    private final BenchEnv env;
    private final Table table;

    BulkAuditScenarios(BenchEnv env, Table table) {
        this.env = env;
        this.table = table;
    }

    private static String bulkId(int i) {
        return String.format("bk%08d", i);
    }

    private static String singleId(int i) {
        return String.format("sg%08d", i);
    }

    /** Preview and apply of {@code n} PAID orders to WAIT_SHIP, single PAY moves on other orders meanwhile. */
    void bulk(int n) throws Exception {
        Services s = env.fresh();
        env.sql("TRUNCATE TABLE bulk_item", "TRUNCATE TABLE bulk_plan", "DELETE FROM bulk_batch");
        int singles = 200_000;
        long now = System.currentTimeMillis();
        System.out.println("== bulk: seeding " + n + " PAID orders and " + singles + " WAIT_PAY orders");
        env.seed(n + singles, i -> i < n
                ? BenchEnv.Seed.both(new OrderState(bulkId(i), OrderStatus.PAID, 2, now - 3_600_000, now - 7_200_000), null)
                : BenchEnv.Seed.both(new OrderState(singleId(i - n), OrderStatus.WAIT_PAY, 1, now - 60_000, now - 60_000),
                now + 3_600_000));
        s.follower().start(Duration.ofMillis(200)); // history rows are written while it runs, as in the product
        BulkService bulk = s.bulk().withMaxOrders(Math.max(n, BulkService.DEFAULT_MAX_ORDERS));

        AtomicInteger next = new AtomicInteger();
        // The single-move load alone first, for its p99 without a bulk move.
        Histogram alone = singleMoves(s, next, Duration.ofSeconds(5), null);

        // The single moves pay other orders meanwhile: the batch is the "bk" orders in PAID.
        OrderQuery paid = new OrderQuery(null, "bk", Set.of(OrderStatus.PAID), false, null, null, false, false);
        long t0 = System.nanoTime();
        BulkPreview p = bulk.preview(BulkScope.of(paid), OrderStatus.WAIT_SHIP, false, BulkProgress.NONE, () -> false);
        double previewS = (System.nanoTime() - t0) / 1e9;
        if (p.matched() != n || p.wouldApply() != n) {
            throw new IllegalStateException("preview matched " + p.matched() + ", would apply " + p.wouldApply() + ", expected " + n);
        }
        table.add(Row.info("Bulk preview: " + Table.num(n, 0) + " PAID orders to WAIT_SHIP, keyset pages of 1,000 (MySQL) + Redis state, "
                + Table.num(previewS, 2) + " s", Table.num(n / previewS, 0), "orders/s"));

        AtomicBoolean done = new AtomicBoolean();
        Histogram during = new ConcurrentHistogram(3);
        Thread load = new Thread(() -> singleMoves(s, next, Duration.ofMinutes(10), done, during), "singles");
        load.start();
        t0 = System.nanoTime();
        BulkBatch b = bulk.apply(OP, p, "bench", "bench", BulkProgress.NONE, () -> false);
        double applyS = (System.nanoTime() - t0) / 1e9;
        done.set(true);
        load.join();
        if (b.counts().applied() != n) {
            throw new IllegalStateException("bulk applied " + b.counts() + " of " + n);
        }
        table.add(Row.info("Bulk apply: " + Table.num(n, 0) + " orders through transition.lua with compare-and-set, " + "chunks of 500 in flight"
                + ", results committed per chunk, " + Table.num(applyS, 2) + " s", Table.num(n / applyS, 0), "orders/s"));
        double p99Alone = alone.getValueAtPercentile(99) / 1000.0;
        double p99During = during.getValueAtPercentile(99) / 1000.0;
        table.add(Row.info("Single moves (" + SINGLE_CLIENTS + " clients, sync) p50 / p99 alone: " + Table.num(alone.getValueAtPercentile(50) / 1000.0, 2)
                + " / " + Table.num(p99Alone, 2) + " ms; during the bulk apply p50 " + Table.num(during.getValueAtPercentile(50) / 1000.0, 2)
                + " ms, " + Table.num(during.getTotalCount(), 0) + " moves", Table.num(p99During, 2), "ms p99"));
        boolean caughtUp = s.follower().awaitCaughtUp(Duration.ofSeconds(180));
        Object history = env.sqlValue("SELECT COUNT(*) FROM order_history WHERE source = 'bulk'");
        table.add(Row.judged("Bulk apply: every applied move in MySQL's history (follower caught up: " + caughtUp + ")", String.valueOf(history),
                "rows", "= " + Table.num(n, 0), "", caughtUp && ((Number) history).longValue() == n));
        s.follower().close();
    }

    private Histogram singleMoves(Services s, AtomicInteger next, Duration max, AtomicBoolean stop) {
        Histogram h = new ConcurrentHistogram(3);
        singleMoves(s, next, max, stop, h);
        return h;
    }

    private void singleMoves(Services s, AtomicInteger next, Duration max, AtomicBoolean stop, Histogram h) {
        long end = System.nanoTime() + max.toNanos();
        List<Thread> threads = new ArrayList<>();
        for (int c = 0; c < SINGLE_CLIENTS; c++) {
            Thread t = new Thread(() -> {
                while (System.nanoTime() < end && (stop == null || !stop.get())) {
                    int i = next.getAndIncrement();
                    long t0 = System.nanoTime();
                    s.transitions().transition(OP, TransitionRequest.of(singleId(i), OrderStatus.PAID, "bench", ""));
                    h.recordValue((System.nanoTime() - t0) / 1000);
                }
            });
            t.start();
            threads.add(t);
        }
        for (Thread t : threads) {
            try {
                t.join();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }
    }

    /** The audit view's first page (and a few filtered first pages) at {@code rows} history rows; target &lt; 200 ms. */
    void audit(int rows) throws Exception {
        Services s = env.fresh();
        System.out.println("== audit: seeding " + rows + " history rows");
        long t0 = System.nanoTime();
        seedHistory(rows);
        env.sql("ANALYZE TABLE order_history");
        System.out.println("   seeded in " + Table.num((System.nanoTime() - t0) / 1e9, 1) + " s");
        record Case(String name, AuditFilter filter) {
        }
        List<Case> cases = List.of(
                new Case("no filter", AuditFilter.all()),
                new Case("actor (1 of 20 people)", new AuditFilter("user07", null, null, null, null, null, null)),
                new Case("source bulk (1 % of rows)", new AuditFilter(null, "bulk", null, null, null, null, null)),
                new Case("result -3 (0.5 % of rows)", new AuditFilter(null, null, null, ResultCode.VERSION_CONFLICT, null, null, null)),
                new Case("overrides (0.2 % of rows)", new AuditFilter(null, null, MoveKind.OVERRIDE, null, null, null, null)),
                new Case("order id prefix", new AuditFilter(null, null, null, null, null, null, "h0042")),
                new Case("one day, page 10 of the source console", null));
        for (Case c : cases) {
            double[] ms = new double[15];
            String plan;
            if (c.filter() == null) {
                AuditFilter f = new AuditFilter(null, "console", null, null, System.currentTimeMillis() - 86_400_000L * 30,
                        System.currentTimeMillis() - 86_400_000L * 29, null);
                plan = String.join("; ", s.audit().explainFirstPage(f, 100));
                for (int r = 0; r < ms.length; r++) {
                    long a = System.nanoTime();
                    String cur = null;
                    for (int page = 0; page < 10; page++) {
                        cur = s.audit().page(f, cur, 100).nextCursor();
                        if (cur == null) {
                            break;
                        }
                    }
                    ms[r] = (System.nanoTime() - a) / 1e6 / 10; // per page
                }
            } else {
                plan = String.join("; ", s.audit().explainFirstPage(c.filter(), 100));
                for (int r = 0; r < ms.length; r++) {
                    long a = System.nanoTime();
                    s.audit().page(c.filter(), null, 100);
                    ms[r] = (System.nanoTime() - a) / 1e6;
                }
            }
            Arrays.sort(ms);
            double median = ms[ms.length / 2];
            double worst = ms[ms.length - 1];
            table.add(Row.judged("Audit first page of 100 at " + Table.num(rows, 0) + " history rows, " + c.name() + " (median of 15, worst "
                    + Table.num(worst, 1) + " ms; plan: " + plan + ")", Table.num(median, 1), "ms", "< 200 ms", "", worst < 200));
        }
    }

    private void seedHistory(int rows) throws Exception {
        long now = System.currentTimeMillis();
        String[] sources = {"console", "cli", "sweeper", "import", "simulator", "repair"};
        try (Connection c = env.db.dataSource().getConnection()) {
            c.setAutoCommit(false);
            try (PreparedStatement ps = c.prepareStatement("INSERT INTO order_history (order_id, from_status, to_status, version, result_code, "
                    + "actor, source, reason, at_ms, event_key) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)")) {
                for (int i = 0; i < rows; i++) {
                    // 10 history rows per order over 60 days, newest last; 1 % bulk, 0.5 % conflicts, 0.2 % overrides.
                    int order = i / 10;
                    int step = i % 10;
                    boolean bulk = i % 100 == 7;
                    boolean conflict = i % 200 == 3;
                    boolean override = i % 500 == 11;
                    ps.setString(1, String.format("h%07d", order));
                    if (override) {
                        ps.setInt(2, 1);
                        ps.setInt(3, 5);
                    } else {
                        ps.setInt(2, 2);
                        ps.setInt(3, 3);
                    }
                    ps.setLong(4, step + 1);
                    ps.setInt(5, conflict ? -3 : override || step % 3 == 0 ? 1 : 0);
                    ps.setString(6, "user" + String.format("%02d", i % 20));
                    ps.setString(7, bulk ? "bulk" : sources[i % sources.length]);
                    ps.setString(8, "bench");
                    ps.setLong(9, now - (long) (rows - i) * (60L * 86_400_000L / rows));
                    ps.setString(10, "bench/" + i);
                    ps.addBatch();
                    if (i % 5000 == 4999) {
                        ps.executeBatch();
                        c.commit();
                    }
                }
                ps.executeBatch();
                c.commit();
            }
        }
    }
}
