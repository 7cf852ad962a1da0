package com.orderconsole.service.recon;

import com.orderconsole.domain.Operator;
import com.orderconsole.domain.OrderStatus;
import com.orderconsole.domain.Role;
import com.orderconsole.redis.CancelQueueStore;
import com.orderconsole.redis.OrderStateStore;
import com.orderconsole.redis.RedisConnection;
import com.orderconsole.redis.RedisKeys;
import com.orderconsole.redis.StatsStore;
import com.orderconsole.service.Access;
import com.orderconsole.service.AuditTrail;
import com.orderconsole.service.follower.Follower;
import com.orderconsole.service.follower.FollowerStatus;
import com.orderconsole.service.follower.TerminalRetention;
import com.orderconsole.service.order.OrderPage;
import com.orderconsole.service.order.OrderQuery;
import com.orderconsole.service.order.OrderRebuilder;
import com.orderconsole.service.order.OrderService;
import com.orderconsole.service.order.OrderSummary;
import com.orderconsole.store.Database;
import org.apache.commons.csv.CSVFormat;
import org.apache.commons.csv.CSVPrinter;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.io.Writer;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.BooleanSupplier;

/**
 * Compares Redis with MySQL for every order, streaming: MySQL in keyset pages of 1,000 joined with
 * pipelined Redis reads, then Redis by SCAN (orders MySQL lacks), then each cancel queue in pages.
 * Memory stays flat at any number of orders; findings kept are capped per category. Repairs are dispatched:
 * each category's lives in a small class of its own ({@link Repair}), which reaches the follower only through
 * {@link ReconFollower}.
 */
public final class ReconciliationService implements Reconciliation {
    private static final Logger log = LoggerFactory.getLogger(ReconciliationService.class);
    /** Findings kept per category; counts go on beyond it. */
    public static final int MAX_FINDINGS_KEPT = 100_000;
    private static final int PAGE = 1000;

    private final OrderStateStore states;
    private final CancelQueueStore queue;
    private final Database db;
    private final OrderService orders;
    private final OrderRebuilder rebuilder;
    private final ReconFollower follower;
    private final Access access;
    private final AuditTrail audit;
    private final LiveCounters counters;
    private final RedisAheadCheck redisAhead;
    private final QueueCompare queues;
    /** Each category's repair: {@link #repairOf} names them all. */
    private final Map<ReconCategory, Repair> repairs = new EnumMap<>(ReconCategory.class);
    /** The last complete, unfiltered compare of this process (the metrics' findings gauges), or null. */
    private volatile ReconReport lastFull;

    /**
     * Built by the wiring ({@code app.Services}); {@code clock} gives Redis {@code TIME}. With a {@code retention}
     * terminal orders leave Redis after it, so Redis' counters of terminal statuses are not compared (null: they stay).
     */
    public ReconciliationService(RedisConnection clock, OrderStateStore states, CancelQueueStore queue, StatsStore stats, Database db,
                                 OrderService orders, OrderRebuilder rebuilder, Follower follower, Access access, AuditTrail audit,
                                 TerminalRetention retention) {
        this.audit = audit;
        this.states = states;
        this.queue = queue;
        this.db = db;
        this.orders = orders;
        this.rebuilder = rebuilder;
        this.follower = ReconFollower.of(follower);
        this.access = access;
        this.counters = new LiveCounters(states, stats, retention);
        this.redisAhead = new RedisAheadCheck(db, this.follower);
        this.queues = new QueueCompare(states, queue, db);
        for (ReconCategory c : ReconCategory.values()) {
            repairs.put(c, repairOf(c, clock));
        }
    }

    /** The one place that says which class repairs which category (the switch fails to compile when one is missing). */
    private Repair repairOf(ReconCategory c, RedisConnection clock) {
        return switch (c) {
            case MISSING_IN_REDIS -> new RebuildRedisRepair(states, rebuilder);
            case MALFORMED_IN_REDIS, REDIS_UNEXPLAINED -> new RestoreRedisRepair(states, rebuilder, db, counters);
            case MISSING_IN_MYSQL -> new CopyToMysqlRepair(clock, states, queue, db, orders);
            case STATE_MISMATCH -> new StateMismatchRepair(states, db, rebuilder, follower);
            case WAIT_PAY_WITHOUT_QUEUE -> new RequeueRepair(clock, queue, db);
            case QUEUE_REMOVED_ON_PURPOSE -> new LeaveAloneRepair();
            case QUEUE_ENTRY_NOT_WAIT_PAY -> new DequeueRepair(states, queue);
            case COUNTERS_DRIFT -> new RecountRepair(counters, audit);
            case SYNC_PENDING -> new CatchUpRepair(follower);
        };
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
        CompareRun c = new CompareRun(db.read(t -> t.orders().countAll()) * (filter == null ? 2 : 1), progress, cancelled);
        compareMySqlRows(c, filter == null ? OrderQuery.all() : filter);
        if (filter == null && !c.stop) {
            compareRedisOnlyOrders(c);
            queues.compareQueues(c);
        }
        redisAhead.classify(c);
        addSyncPending(c);
        c.compared += c.counts.get(ReconCategory.MISSING_IN_MYSQL);
        ReconReport r = new ReconReport(c.counts, c.kept, c.compared, System.currentTimeMillis() - start, c.stop, filter != null);
        log.info("reconciliation compared {} orders in {} ms: {}{}", c.compared, r.millis(), c.counts, c.stop ? " (cancelled)" : "");
        if (!c.stop && filter == null) {
            lastFull = r;
        }
        return r;
    }

    /** Phase 1: every MySQL row (of the filter) with its Redis state and, while unpaid, its cancel-queue entry. */
    private void compareMySqlRows(CompareRun c, OrderQuery q) {
        String cursor = null;
        do {
            OrderPage page = orders.page(q, cursor, PAGE);
            List<String> waitPay = new ArrayList<>();
            List<String> noState = page.rows().stream().filter(o -> o.redisStatus() == null).map(OrderSummary::orderId).toList();
            Map<String, String> malformed = noState.isEmpty() ? Map.of() : states.getAllChecked(noState).malformed();
            for (OrderSummary o : page.rows()) {
                if (malformed.containsKey(o.orderId())) {
                    c.add(CompareRun.finding(ReconCategory.MALFORMED_IN_REDIS, o, malformed.get(o.orderId())));
                } else if (o.retired()) {
                    continue; // a terminal order that left Redis after its retention: rebuilt on access, not missing
                } else if (o.redisStatus() == null) {
                    c.recheck.add(CompareRun.finding(ReconCategory.MISSING_IN_REDIS, o, "no Redis state", FindingDetail.NO_REDIS_STATE));
                } else if (o.disagrees()) {
                    long diff = o.redisVersion() - o.mysqlVersion();
                    if (diff > 0) {
                        // Maybe only lag: checked once the follower has applied everything up to now.
                        if (c.redisAhead.size() < MAX_FINDINGS_KEPT) {
                            c.redisAhead.add(o);
                        }
                    } else if (diff < 0) {
                        c.add(CompareRun.finding(ReconCategory.STATE_MISMATCH, o, "MySQL ahead by " + (-diff) + " version"
                                + (diff == -1 ? "" : "s"), FindingDetail.MYSQL_AHEAD, -diff));
                    } else {
                        c.add(CompareRun.finding(ReconCategory.REDIS_UNEXPLAINED, o, "same version " + o.redisVersion()
                                + ", but MySQL's record is " + o.mysqlStatus(), FindingDetail.SAME_VERSION, o.redisVersion(), o.mysqlStatus()));
                    }
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
                        c.recheck.add(CompareRun.finding(ReconCategory.WAIT_PAY_WITHOUT_QUEUE, byId.get(id), "no cancel-queue entry", FindingDetail.NO_QUEUE_ENTRY));
                    }
                });
            }
            // Read again after the page, not at the end: memory stays flat however many there are.
            queues.confirm(c);
            c.recheck.clear();
            c.done += page.rows().size();
            c.compared += page.rows().size();
            c.progress.update("MySQL vs Redis", c.done, c.total);
            cursor = page.nextCursor();
            c.stop = c.cancelled.getAsBoolean();
        } while (cursor != null && !c.stop);
    }

    /** Phase 2: Redis orders MySQL does not have, in one SCAN pass over every bucket's order keys; then the live counters. */
    private void compareRedisOnlyOrders(CompareRun c) {
        Map<Integer, Map<Integer, Long>> counted = new HashMap<>();
        states.scan(PAGE * 4, page -> {
            if (c.stop) {
                return;
            }
            List<String> ids = List.copyOf(page.states().keySet());
            Set<String> known = new HashSet<>();
            db.read(t -> t.orders().findAll(ids)).forEach(r -> known.add(r.orderId));
            page.states().forEach((id, st) -> {
                if (st != null) {
                    counted.computeIfAbsent(RedisKeys.bucket(id), b -> new HashMap<>()).merge(st.status().code(), 1L, Long::sum);
                }
                if (known.contains(id)) {
                    return; // compared in phase 1
                }
                if (st != null) {
                    c.add(new ReconFinding(ReconCategory.MISSING_IN_MYSQL, id, null, 0,
                            st.status(), st.version(), "no MySQL row", FindingDetail.NO_MYSQL_ROW, List.of()));
                } else if (page.malformed().containsKey(id)) {
                    c.add(new ReconFinding(ReconCategory.MALFORMED_IN_REDIS, id, null, 0, null, 0,
                            page.malformed().get(id) + "; no MySQL row either", FindingDetail.MALFORMED_NO_ROW, List.of(page.malformed().get(id))));
                }
            });
            c.done += ids.size();
            c.progress.update("Redis vs MySQL", c.done, c.total);
            c.stop = c.cancelled.getAsBoolean();
        });
        if (!c.stop) {
            reportDrift(counted, c);
        }
    }

    /** Phase 5: changes Redis accepted that MySQL has not received yet (phase 4, Redis ahead, is {@link RedisAheadCheck}). */
    private void addSyncPending(CompareRun c) {
        FollowerStatus s = follower.status();
        if (s.pending() > 0) {
            c.counts.put(ReconCategory.SYNC_PENDING, s.pending());
            c.kept.computeIfAbsent(ReconCategory.SYNC_PENDING, k -> new ArrayList<>()).add(new ReconFinding(
                    ReconCategory.SYNC_PENDING, "", null, 0, null, 0, "changes waiting in the outbox: " + s.pending()
                    + (s.pendingCapped() ? "+" : "") + ", the oldest " + (s.oldestPendingAgeMs() == null ? 0 : s.oldestPendingAgeMs()) + " ms old",
                    FindingDetail.SYNC_PENDING, List.of(s.pending() + (s.pendingCapped() ? "+" : ""), s.oldestPendingAgeMs() == null ? 0 : s.oldestPendingAgeMs())));
        }
    }

    /**
     * @return the last compare of every order this process ran to its end (a cancelled or filtered one
     *     says nothing about the whole), or empty when none ran
     */
    public java.util.Optional<ReconReport> lastFullReport() {
        return java.util.Optional.ofNullable(lastFull);
    }

    /** Reports the buckets whose live counters differ from the counted orders, twice in a row ({@link LiveCounters#confirmedDrift}). */
    private void reportDrift(Map<Integer, Map<Integer, Long>> firstCount, CompareRun c) {
        counters.confirmedDrift(firstCount).forEach((b, d) -> c.add(new ReconFinding(ReconCategory.COUNTERS_DRIFT, "",
                null, 0, null, 0, "bucket " + b + ": " + d, FindingDetail.DRIFT, List.of(b, String.valueOf(d)))));
    }

    /**
     * Dry run of a repair.
     *
     * @return how many findings a repair of this category would act on
     */
    public long preview(ReconReport report, ReconCategory category) {
        return category.informational() ? 0 : category == ReconCategory.SYNC_PENDING ? report.counts().get(category)
                : report.findings(category).size();
    }

    /** {@link #repair(Operator, ReconReport, ReconCategory, String, ReconProgress, BooleanSupplier)} with no reason. */
    public RepairResult repair(Operator operator, ReconReport report, ReconCategory category, ReconProgress progress,
                               BooleanSupplier cancelled) {
        return repair(operator, report, category, "", progress, cancelled);
    }

    /**
     * Repairs the findings of one category of a report (role ops; copying Redis-only orders into MySQL
     * is an admin override and needs a reason). Each repair re-reads the current state first, so a finding
     * that resolved itself meanwhile is left alone; every repair of an order is recorded in the audit trail
     * with the state before and after. A repair never writes a state no recorded transition explains into
     * MySQL: Redis follows MySQL.
     *
     * @param operator who repairs
     * @param report a report from {@link #run}
     * @param category which category
     * @param reason why (required for MISSING_IN_MYSQL)
     * @param progress told after every finding
     * @param cancelled polled after every finding
     * @return what was done
     */
    public RepairResult repair(Operator operator, ReconReport report, ReconCategory category, String reason,
                               ReconProgress progress, BooleanSupplier cancelled) {
        access.require(operator, Role.OPS, "repair reconciliation findings");
        if (category.informational()) {
            return new RepairResult(category, 0, 0, 0, List.of(), false); // what was done on purpose is not undone
        }
        Repair repair = repairs.get(category);
        long found = report.counts().getOrDefault(category, 0L);
        authorize(operator, category, reason, found);
        RepairResult result = repair instanceof Repair.Whole whole
                ? new RepairResult(category, found, whole.applyAll(operator, reason, found), 0, List.of(), false)
                : repairEach((Repair.OneByOne) repair, operator, report.findings(category), category, reason, progress, cancelled);
        log.info("{} repaired {} of {} findings in category {} ({} failed)", operator.name(), result.repaired(), result.attempted(),
                category, result.failed());
        return result;
    }

    /**
     * The category's own policy, checked before anything changes: its role, and its reason where it needs one. With
     * nothing found there is nothing to act on, and ops (checked by the caller) suffices.
     */
    private void authorize(Operator operator, ReconCategory category, String reason, long found) {
        if (found == 0) {
            return;
        }
        access.require(operator, category.repairRole(), "repair \"" + category.label() + "\" findings");
        if (!category.mayRepair(operator.role(), reason)) {
            throw new IllegalArgumentException("repairing \"" + category.label() + "\" needs a reason: no recorded transition explains "
                    + "these orders, so the reason is what their history will say");
        }
    }

    /** Repairs the findings one by one, each recorded in the audit trail; one that fails does not stop the others. */
    private RepairResult repairEach(Repair.OneByOne repair, Operator operator, List<ReconFinding> todo, ReconCategory category,
                                    String reason, ReconProgress progress, BooleanSupplier cancelled) {
        repair.prepare();
        List<String> errors = new ArrayList<>();
        long repaired = 0;
        long failed = 0;
        long attempted = 0;
        boolean stop = false;
        for (ReconFinding f : todo) {
            if (cancelled.getAsBoolean()) {
                stop = true;
                break;
            }
            attempted++;
            try {
                String done = repair.apply(f, operator, reason);
                if (done != null) {
                    audit.record(operator, "reconciliation", AuditTrail.REPAIR, f.orderId(), reason == null ? "" : reason,
                            category.label() + ": " + done);
                }
                repaired++;
            } catch (RuntimeException e) {
                failed++;
                if (errors.size() < 20) {
                    errors.add(f.orderId() + ": " + e.getMessage());
                }
            }
            progress.update("repairing " + category.label(), attempted, todo.size());
        }
        String finished = repair.finish();
        if (finished != null) {
            audit.record(operator, "reconciliation", AuditTrail.REPAIR, null, reason == null ? "" : reason, category.label() + ": " + finished);
        }
        return new RepairResult(category, attempted, repaired, failed, errors, stop);
    }

    /**
     * Dry run of a repair, per finding: the direction and the resulting state (changes nothing).
     *
     * @return the steps a repair of this category would take, in report order
     */
    public List<RepairStep> plan(ReconReport report, ReconCategory category) {
        Repair repair = repairs.get(category);
        return report.findings(category).stream().map(repair::plan).toList();
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
                    // A side without the order has neither status nor version: both cells empty, not "0".
                    p.printRecord(c.name(), f.orderId(), f.mysqlStatus() == null ? "" : f.mysqlStatus().name(),
                            f.mysqlStatus() == null ? "" : f.mysqlVersion(), f.redisStatus() == null ? "" : f.redisStatus().name(),
                            f.redisStatus() == null ? "" : f.redisVersion(), f.detail());
                }
            }
        } catch (IOException e) {
            throw new UncheckedIOException("cannot write the reconciliation CSV: " + e.getMessage(), e);
        }
    }
}
