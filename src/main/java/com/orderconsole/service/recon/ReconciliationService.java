package com.orderconsole.service.recon;

import com.orderconsole.domain.Operator;
import com.orderconsole.domain.OrderState;
import com.orderconsole.domain.OrderStatus;
import com.orderconsole.domain.Role;
import com.orderconsole.redis.CancelQueueStore;
import com.orderconsole.redis.OrderStateStore;
import com.orderconsole.redis.QueueEntry;
import com.orderconsole.redis.RedisConnection;
import com.orderconsole.redis.RedisKeys;
import com.orderconsole.service.Access;
import com.orderconsole.service.follower.Follower;
import com.orderconsole.service.follower.FollowerStatus;
import com.orderconsole.service.order.OrderPage;
import com.orderconsole.service.order.OrderQuery;
import com.orderconsole.service.order.OrderService;
import com.orderconsole.service.order.OrderSummary;
import com.orderconsole.store.Database;
import com.orderconsole.store.OrderRow;
import org.apache.commons.csv.CSVFormat;
import org.apache.commons.csv.CSVPrinter;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.io.Writer;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.BooleanSupplier;

/**
 * Compares Redis with MySQL for every order, streaming: MySQL in keyset pages of 1,000 joined with
 * pipelined Redis reads, then Redis by SCAN (orders MySQL lacks), then each cancel queue in pages.
 * Memory stays flat at any number of orders; findings kept are capped per category.
 */
public final class ReconciliationService {
    private static final Logger log = LoggerFactory.getLogger(ReconciliationService.class);
    /** Findings kept per category; counts go on beyond it. */
    public static final int MAX_FINDINGS_KEPT = 100_000;
    private static final int PAGE = 1000;

    private final RedisConnection redis;
    private final OrderStateStore states;
    private final CancelQueueStore queue;
    private final Database db;
    private final OrderService orders;
    private final Follower sync;
    private final Access access;

    /** Built by {@link com.orderconsole.service.Services}. */
    public ReconciliationService(RedisConnection redis, OrderStateStore states, CancelQueueStore queue, Database db, OrderService orders, Follower sync, Access access) {
        this.redis = redis;
        this.states = states;
        this.queue = queue;
        this.db = db;
        this.orders = orders;
        this.sync = sync;
        this.access = access;
    }

    /**
     * Runs a comparison (read-only: changes nothing).
     *
     * @param filter only orders matching this (MySQL side), or null for all orders, Redis-only orders and the queues
     * @param progress told after every page
     * @param cancelled polled after every page; when it returns true the run stops and returns what it found so far
     * @return the report
     */
    public ReconReport run(OrderQuery filter, ReconProgress progress, BooleanSupplier cancelled) {
        long start = System.currentTimeMillis();
        Map<ReconCategory, Long> counts = ReconReport.zeroCounts();
        Map<ReconCategory, List<ReconFinding>> kept = new EnumMap<>(ReconCategory.class);
        long total = db.read(t -> t.orders().countAll()) * (filter == null ? 2 : 1);
        long done = 0;
        long compared = 0;
        boolean stop = false;

        // 1. MySQL rows with their Redis state.
        String cursor = null;
        OrderQuery q = filter == null ? OrderQuery.all() : filter;
        do {
            OrderPage page = orders.page(q, cursor, PAGE);
            List<String> waitPay = new ArrayList<>();
            for (OrderSummary o : page.rows()) {
                if (o.redisStatus() == null) {
                    add(counts, kept, finding(ReconCategory.MISSING_IN_REDIS, o, "no Redis state"));
                } else if (o.disagrees()) {
                    long diff = o.redisVersion() - o.mysqlVersion();
                    String side = diff > 0 ? "Redis ahead by " + diff + " version" + (diff == 1 ? "" : "s")
                            : diff < 0 ? "MySQL ahead by " + (-diff) + " version" + (diff == -1 ? "" : "s")
                            : "same version, different status";
                    add(counts, kept, finding(ReconCategory.STATE_MISMATCH, o, side));
                }
                if (o.redisStatus() == OrderStatus.WAIT_PAY) {
                    waitPay.add(o.orderId());
                }
            }
            if (!waitPay.isEmpty()) {
                Map<String, OrderSummary> byId = new java.util.HashMap<>();
                page.rows().forEach(o -> byId.put(o.orderId(), o));
                queue.scores(waitPay).forEach((id, score) -> {
                    if (score == null) {
                        add(counts, kept, finding(ReconCategory.WAIT_PAY_WITHOUT_QUEUE, byId.get(id), "no cancel-queue entry"));
                    }
                });
            }
            done += page.rows().size();
            compared += page.rows().size();
            progress.update("MySQL vs Redis", done, total);
            cursor = page.nextCursor();
            stop = cancelled.getAsBoolean();
        } while (cursor != null && !stop);

        if (filter == null && !stop) {
            // 2. Redis orders MySQL does not have: one SCAN pass over every bucket's order keys.
            long[] seen = {done};
            boolean[] stopped = {false};
            states.scan(PAGE * 4, page -> {
                if (stopped[0]) {
                    return;
                }
                List<String> ids = page.stream().map(OrderState::orderId).toList();
                Set<String> known = new HashSet<>();
                db.read(t -> t.orders().findAll(ids)).forEach(r -> known.add(r.orderId));
                for (OrderState st : page) {
                    if (!known.contains(st.orderId())) {
                        add(counts, kept, new ReconFinding(ReconCategory.MISSING_IN_MYSQL, st.orderId(), null, 0,
                                st.status(), st.version(), "no MySQL row"));
                    }
                }
                seen[0] += page.size();
                progress.update("Redis vs MySQL", seen[0], total);
                stopped[0] = cancelled.getAsBoolean();
            });
            done = seen[0];
            stop = stopped[0];
            // 3. Queue entries of orders that are not waiting for payment.
            for (int b = 0; b < RedisKeys.BUCKETS && !stop; b++) {
                for (long off = 0; ; off += PAGE) {
                    List<QueueEntry> entries = queue.entries(b, off, PAGE);
                    if (entries.isEmpty()) {
                        break;
                    }
                    Map<String, OrderState> byId = states.getAll(entries.stream().map(QueueEntry::orderId).toList());
                    for (QueueEntry e : entries) {
                        OrderState st = byId.get(e.orderId());
                        if (st == null || st.status() != OrderStatus.WAIT_PAY) {
                            add(counts, kept, new ReconFinding(ReconCategory.QUEUE_ENTRY_NOT_WAIT_PAY, e.orderId(), null, 0,
                                    st == null ? null : st.status(), st == null ? 0 : st.version(),
                                    st == null ? "order has no Redis state" : "order is " + st.status()));
                        }
                    }
                    if (entries.size() < PAGE) {
                        break;
                    }
                }
                progress.update("cancel queues", done, total);
                stop = cancelled.getAsBoolean();
            }
        }
        // 4. Changes Redis accepted that MySQL has not received yet.
        FollowerStatus s = sync.status();
        if (s.pending() > 0) {
            counts.put(ReconCategory.SYNC_PENDING, s.pending());
            kept.computeIfAbsent(ReconCategory.SYNC_PENDING, k -> new ArrayList<>()).add(new ReconFinding(
                    ReconCategory.SYNC_PENDING, "", null, 0, null, 0, s.pending() + (s.pendingCapped() ? "+" : "")
                    + " changes waiting in the outbox, oldest " + (s.oldestPendingAgeMs() == null ? 0 : s.oldestPendingAgeMs()) + " ms old"));
        }
        compared += counts.get(ReconCategory.MISSING_IN_MYSQL);
        ReconReport r = new ReconReport(counts, kept, compared, System.currentTimeMillis() - start, stop, filter != null);
        log.info("reconciliation compared {} orders in {} ms: {}{}", compared, r.millis(), counts, stop ? " (cancelled)" : "");
        return r;
    }

    private static ReconFinding finding(ReconCategory c, OrderSummary o, String detail) {
        return new ReconFinding(c, o.orderId(), o.mysqlStatus(), o.mysqlVersion(), o.redisStatus(), o.redisVersion(), detail);
    }

    private static void add(Map<ReconCategory, Long> counts, Map<ReconCategory, List<ReconFinding>> kept, ReconFinding f) {
        counts.merge(f.category(), 1L, Long::sum);
        List<ReconFinding> l = kept.computeIfAbsent(f.category(), k -> new ArrayList<>());
        if (l.size() < MAX_FINDINGS_KEPT) {
            l.add(f);
        }
    }

    /**
     * Dry run of a repair.
     *
     * @return how many findings a repair of this category would act on
     */
    public long preview(ReconReport report, ReconCategory category) {
        return category == ReconCategory.SYNC_PENDING ? report.counts().get(category) : report.findings(category).size();
    }

    /**
     * Repairs the findings of one category of a report (role ops). Each repair re-reads the current
     * state first, so a finding that resolved itself meanwhile is left alone and counted as repaired.
     *
     * @param operator who repairs
     * @param report a report from {@link #run}
     * @param category which category
     * @param progress told after every finding
     * @param cancelled polled after every finding
     * @return what was done
     */
    public RepairResult repair(Operator operator, ReconReport report, ReconCategory category, ReconProgress progress,
                               BooleanSupplier cancelled) {
        access.require(operator, Role.OPS, "repair reconciliation findings");
        List<String> errors = new ArrayList<>();
        long repaired = 0;
        long failed = 0;
        long attempted = 0;
        if (category == ReconCategory.SYNC_PENDING || category == ReconCategory.STATE_MISMATCH) {
            sync.drainOnce();
        }
        List<ReconFinding> todo = category == ReconCategory.SYNC_PENDING ? List.of() : report.findings(category);
        boolean stop = false;
        for (ReconFinding f : todo) {
            if (cancelled.getAsBoolean()) {
                stop = true;
                break;
            }
            attempted++;
            try {
                repairOne(f);
                repaired++;
            } catch (RuntimeException e) {
                failed++;
                if (errors.size() < 20) {
                    errors.add(f.orderId() + ": " + e.getMessage());
                }
            }
            progress.update("repairing " + category.label(), attempted, todo.size());
        }
        if (category == ReconCategory.SYNC_PENDING) {
            attempted = report.counts().get(category);
            repaired = sync.status().pending() == 0 ? attempted : 0;
        }
        log.info("{} repaired {} of {} findings in category {} ({} failed)", operator.name(), repaired, attempted, category, failed);
        return new RepairResult(category, attempted, repaired, failed, errors, stop);
    }

    private void repairOne(ReconFinding f) {
        String id = f.orderId();
        switch (f.category()) {
            case MISSING_IN_REDIS -> orders.rebuild(id);
            case MISSING_IN_MYSQL -> {
                OrderState st = states.get(id);
                if (st != null) {
                    Long expiry = st.status() == OrderStatus.WAIT_PAY ? queue.score(id) : null;
                    db.inTransaction(t -> t.orders().insertIgnore(new OrderRow(id, null,
                            st.status().code(), st.version(), st.createTimeMs(), st.updateTimeMs(), expiry, true)));
                }
            }
            case STATE_MISMATCH -> {
                OrderState st = states.get(id);
                OrderRow row = db.read(t -> t.orders().find(id));
                if (st == null || row == null) {
                    throw new IllegalStateException("order disappeared from " + (st == null ? "Redis" : "MySQL"));
                }
                if (st.version() > row.version) {
                    db.inTransaction(t -> t.orders().repairFromRedis(id, st.status().code(),
                            st.version(), st.updateTimeMs()));
                } else if (row.version > st.version() || row.status != st.status().code()) {
                    // MySQL holds the newer record (Redis restored from an older copy): Redis follows it.
                    states.forget(id);
                    orders.rebuild(id);
                }
            }
            case WAIT_PAY_WITHOUT_QUEUE -> {
                OrderRow row = db.read(t -> t.orders().find(id));
                long expiry = row != null && row.expireAtMs != null ? row.expireAtMs : redis.nowMs();
                queue.requeue(id, expiry);
            }
            case QUEUE_ENTRY_NOT_WAIT_PAY -> {
                OrderState st = states.get(id);
                if (st == null || st.status() != OrderStatus.WAIT_PAY) {
                    queue.dequeue(id);
                }
            }
            case SYNC_PENDING -> sync.drainOnce();
        }
    }

    /**
     * Writes the kept findings as CSV: category, order_id, mysql_status, mysql_version, redis_status,
     * redis_version, detail (header line first).
     */
    public void exportCsv(ReconReport report, Writer out) {
        try (CSVPrinter p = CSVFormat.DEFAULT.builder().setHeader("category", "order_id", "mysql_status", "mysql_version",
                "redis_status", "redis_version", "detail").get().print(out)) {
            for (ReconCategory c : ReconCategory.values()) {
                for (ReconFinding f : report.findings(c)) {
                    p.printRecord(c.name(), f.orderId(), f.mysqlStatus() == null ? "" : f.mysqlStatus().name(),
                            f.mysqlVersion(), f.redisStatus() == null ? "" : f.redisStatus().name(), f.redisVersion(), f.detail());
                }
            }
        } catch (IOException e) {
            throw new UncheckedIOException("cannot write the reconciliation CSV: " + e.getMessage(), e);
        }
    }
}
