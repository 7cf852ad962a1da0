package com.orderconsole.service.recon;

import com.orderconsole.domain.HistoryEntry;
import com.orderconsole.domain.Operator;
import com.orderconsole.domain.OrderState;
import com.orderconsole.domain.OrderStatus;
import com.orderconsole.domain.ResultCode;
import com.orderconsole.domain.Role;
import com.orderconsole.redis.CancelQueueStore;
import com.orderconsole.redis.OrderStateStore;
import com.orderconsole.redis.QueueEntry;
import com.orderconsole.redis.RedisConnection;
import com.orderconsole.redis.RedisKeys;
import com.orderconsole.redis.StatsStore;
import com.orderconsole.service.Access;
import com.orderconsole.service.AuditTrail;
import com.orderconsole.service.follower.Follower;
import com.orderconsole.service.follower.FollowerStatus;
import com.orderconsole.service.order.OrderPage;
import com.orderconsole.service.order.OrderQuery;
import com.orderconsole.service.order.OrderService;
import com.orderconsole.service.order.OrderSummary;
import com.orderconsole.store.Database;
import com.orderconsole.store.HistoryStore;
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
import java.util.HashMap;
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
    /** Outbox entries of one bucket a compare reads to tell lag from drift; beyond it the bucket is not checked. */
    private static final int PENDING_READ_CAP = 20_000;

    private final RedisConnection redis;
    private final OrderStateStore states;
    private final CancelQueueStore queue;
    private final StatsStore stats;
    private final Database db;
    private final OrderService orders;
    private final Follower sync;
    private final Access access;
    private final AuditTrail audit;
    /** Null: terminal orders stay in Redis and their counters are compared too. */
    /** Null: terminal orders stay in Redis. Otherwise they leave it after their retention, so Redis' counters of
     * terminal statuses count nothing meaningful (the state graph takes those counts from MySQL) and are not compared. */
    private final com.orderconsole.service.follower.TerminalRetention retention;
    /** The last complete, unfiltered compare of this process (the metrics' findings gauges), or null. */
    private volatile ReconReport lastFull;

    /** Built by the wiring ({@code app.Services}). */
    public ReconciliationService(RedisConnection redis, OrderStateStore states, CancelQueueStore queue, StatsStore stats, Database db, OrderService orders, Follower sync, Access access,
                                 AuditTrail audit, com.orderconsole.service.follower.TerminalRetention retention) {
        this.retention = retention;
        this.audit = audit;
        this.redis = redis;
        this.states = states;
        this.queue = queue;
        this.stats = stats;
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
        Compare c = new Compare(db.read(t -> t.orders().countAll()) * (filter == null ? 2 : 1), progress, cancelled);
        compareMySqlRows(c, filter == null ? OrderQuery.all() : filter);
        if (filter == null && !c.stop) {
            compareRedisOnlyOrders(c);
            compareQueues(c);
        }
        classifyRedisAhead(c.redisAhead, c.counts, c.kept);
        addSyncPending(c);
        c.compared += c.counts.get(ReconCategory.MISSING_IN_MYSQL);
        ReconReport r = new ReconReport(c.counts, c.kept, c.compared, System.currentTimeMillis() - start, c.stop, filter != null);
        log.info("reconciliation compared {} orders in {} ms: {}{}", c.compared, r.millis(), c.counts, c.stop ? " (cancelled)" : "");
        if (!c.stop && filter == null) {
            lastFull = r;
        }
        return r;
    }

    /** One compare's running state: what it found so far, how far it got, whether it was asked to stop. */
    private static final class Compare {
        final Map<ReconCategory, Long> counts = ReconReport.zeroCounts();
        final Map<ReconCategory, List<ReconFinding>> kept = new EnumMap<>(ReconCategory.class);
        /** Redis ahead of MySQL: maybe only lag, classified at the end (phase 4). */
        final List<OrderSummary> redisAhead = new ArrayList<>();
        /** Seen in one read while traffic flows, they may be a creation or a payment half-way: read again after the page. */
        final List<ReconFinding> recheck = new ArrayList<>();
        final long total;
        final ReconProgress progress;
        final BooleanSupplier cancelled;
        long done;
        long compared;
        boolean stop;

        Compare(long total, ReconProgress progress, BooleanSupplier cancelled) {
            this.total = total;
            this.progress = progress;
            this.cancelled = cancelled;
        }
    }

    /** Phase 1: every MySQL row (of the filter) with its Redis state and, while unpaid, its cancel-queue entry. */
    private void compareMySqlRows(Compare c, OrderQuery q) {
        Map<ReconCategory, Long> counts = c.counts;
        Map<ReconCategory, List<ReconFinding>> kept = c.kept;
        String cursor = null;
        do {
            OrderPage page = orders.page(q, cursor, PAGE);
            List<String> waitPay = new ArrayList<>();
            List<String> noState = page.rows().stream().filter(o -> o.redisStatus() == null).map(OrderSummary::orderId).toList();
            Map<String, String> malformed = noState.isEmpty() ? Map.of() : states.getAllChecked(noState).malformed();
            for (OrderSummary o : page.rows()) {
                if (malformed.containsKey(o.orderId())) {
                    add(counts, kept, finding(ReconCategory.MALFORMED_IN_REDIS, o, malformed.get(o.orderId())));
                } else if (o.retired()) {
                    continue; // a terminal order that left Redis after its retention: rebuilt on access, not missing
                } else if (o.redisStatus() == null) {
                    c.recheck.add(finding(ReconCategory.MISSING_IN_REDIS, o, "no Redis state", FindingDetail.NO_REDIS_STATE));
                } else if (o.disagrees()) {
                    long diff = o.redisVersion() - o.mysqlVersion();
                    if (diff > 0) {
                        // Maybe only lag: checked once the follower has applied everything up to now.
                        if (c.redisAhead.size() < MAX_FINDINGS_KEPT) {
                            c.redisAhead.add(o);
                        }
                    } else if (diff < 0) {
                        add(counts, kept, finding(ReconCategory.STATE_MISMATCH, o, "MySQL ahead by " + (-diff) + " version"
                                + (diff == -1 ? "" : "s"), FindingDetail.MYSQL_AHEAD, -diff));
                    } else {
                        add(counts, kept, finding(ReconCategory.REDIS_UNEXPLAINED, o, "same version " + o.redisVersion()
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
                        c.recheck.add(finding(ReconCategory.WAIT_PAY_WITHOUT_QUEUE, byId.get(id), "no cancel-queue entry", FindingDetail.NO_QUEUE_ENTRY));
                    }
                });
            }
            // Read again after the page, not at the end: memory stays flat however many there are.
            confirm(c.recheck, counts, kept);
            c.recheck.clear();
            c.done += page.rows().size();
            c.compared += page.rows().size();
            c.progress.update("MySQL vs Redis", c.done, c.total);
            cursor = page.nextCursor();
            c.stop = c.cancelled.getAsBoolean();
        } while (cursor != null && !c.stop);
    }

    /** Phase 2: Redis orders MySQL does not have, in one SCAN pass over every bucket's order keys; then the live counters. */
    private void compareRedisOnlyOrders(Compare c) {
        Map<ReconCategory, Long> counts = c.counts;
        Map<ReconCategory, List<ReconFinding>> kept = c.kept;
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
                    add(counts, kept, new ReconFinding(ReconCategory.MISSING_IN_MYSQL, id, null, 0,
                            st.status(), st.version(), "no MySQL row", FindingDetail.NO_MYSQL_ROW, List.of()));
                } else if (page.malformed().containsKey(id)) {
                    add(counts, kept, new ReconFinding(ReconCategory.MALFORMED_IN_REDIS, id, null, 0, null, 0,
                            page.malformed().get(id) + "; no MySQL row either", FindingDetail.MALFORMED_NO_ROW, List.of(page.malformed().get(id))));
                }
            });
            c.done += ids.size();
            c.progress.update("Redis vs MySQL", c.done, c.total);
            c.stop = c.cancelled.getAsBoolean();
        });
        if (!c.stop) {
            reportDrift(counted, counts, kept);
        }
    }

    /** Phase 3: cancel-queue entries of orders that are not waiting for payment. */
    private void compareQueues(Compare c) {
        for (int b = 0; b < RedisKeys.buckets() && !c.stop; b++) {
            for (long off = 0; ; off += PAGE) {
                List<QueueEntry> entries = queue.entries(b, off, PAGE);
                if (entries.isEmpty()) {
                    break;
                }
                Map<String, OrderState> byId = states.getAll(entries.stream().map(QueueEntry::orderId).toList());
                for (QueueEntry e : entries) {
                    OrderState st = byId.get(e.orderId());
                    if (st == null || st.status() != OrderStatus.WAIT_PAY) {
                        c.recheck.add(new ReconFinding(ReconCategory.QUEUE_ENTRY_NOT_WAIT_PAY, e.orderId(), null, 0,
                                st == null ? null : st.status(), st == null ? 0 : st.version(),
                                st == null ? "order has no Redis state" : "order is " + st.status(),
                                st == null ? FindingDetail.QUEUE_NO_STATE : FindingDetail.QUEUE_ORDER_IS, st == null ? List.of() : List.of(st.status())));
                    }
                }
                confirm(c.recheck, c.counts, c.kept);
                c.recheck.clear();
                if (entries.size() < PAGE) {
                    break;
                }
            }
            c.progress.update("cancel queues", c.done, c.total);
            c.stop = c.cancelled.getAsBoolean();
        }
    }

    /** Phase 5: changes Redis accepted that MySQL has not received yet (phase 4, Redis ahead, is {@link #classifyRedisAhead}). */
    private void addSyncPending(Compare c) {
        FollowerStatus s = sync.status();
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

    /**
     * Reads each candidate again and keeps those that still disagree: an order created between the
     * MySQL and the Redis step, or paid between reading its state and its queue entry, is no finding.
     */
    private void confirm(List<ReconFinding> candidates, Map<ReconCategory, Long> counts,
                         Map<ReconCategory, List<ReconFinding>> kept) {
        for (int from = 0; from < candidates.size(); from += PAGE) {
            List<ReconFinding> page = candidates.subList(from, Math.min(candidates.size(), from + PAGE));
            List<String> ids = page.stream().map(ReconFinding::orderId).toList();
            Map<String, OrderState> now = states.getAll(ids);
            Map<String, Long> entries = queue.scores(ids);
            for (ReconFinding f : page) {
                OrderState st = now.get(f.orderId());
                boolean still = switch (f.category()) {
                    case MISSING_IN_REDIS -> st == null;
                    case WAIT_PAY_WITHOUT_QUEUE -> st != null && st.status() == OrderStatus.WAIT_PAY && entries.get(f.orderId()) == null;
                    case QUEUE_ENTRY_NOT_WAIT_PAY -> entries.get(f.orderId()) != null && (st == null || st.status() != OrderStatus.WAIT_PAY);
                    default -> true;
                };
                if (still) {
                    add(counts, kept, f);
                }
            }
        }
    }

    /**
     * Redis ahead of MySQL is lag when the outbox still holds the entries that bring MySQL there, or when
     * MySQL's history has that version by now; otherwise no recorded transition explains it. The outbox
     * is read before the history, so an entry the follower applies in between is seen in one of them.
     */
    private void classifyRedisAhead(List<OrderSummary> ahead, Map<ReconCategory, Long> counts,
                                    Map<ReconCategory, List<ReconFinding>> kept) {
        Map<Integer, Map<String, Long>> pending = new HashMap<>();
        for (OrderSummary o : ahead) {
            pending.computeIfAbsent(RedisKeys.bucket(o.orderId()), b -> {
                Map<String, Long> p = sync.pendingVersions(b, PENDING_READ_CAP);
                return p == null ? Map.of("", -1L) : p; // "" marks a bucket too far behind to check
            });
        }
        for (int from = 0; from < ahead.size(); from += PAGE) {
            List<OrderSummary> page = ahead.subList(from, Math.min(ahead.size(), from + PAGE));
            List<HistoryEntry> probes = page.stream().map(o -> new HistoryEntry(o.orderId(), null, o.redisStatus(),
                    o.redisVersion(), ResultCode.APPLIED, "", "", "", 0, "")).toList();
            Map<String, HistoryEntry> recorded = db.read(t -> t.history().appliedAt(probes));
            Map<String, Long> rowVersions = new HashMap<>();
            db.read(t -> t.orders().findAll(page.stream().map(OrderSummary::orderId).toList()))
                    .forEach(r -> rowVersions.put(r.orderId, r.version));
            for (OrderSummary o : page) {
                Map<String, Long> p = pending.get(RedisKeys.bucket(o.orderId()));
                long diff = o.redisVersion() - o.mysqlVersion();
                HistoryEntry h = recorded.get(HistoryStore.versionKey(o.orderId(), o.redisVersion()));
                if (p.getOrDefault(o.orderId(), 0L) >= o.redisVersion()) {
                    continue; // lag: the follower will apply it
                }
                if (h != null && h.to() == o.redisStatus()) {
                    if (rowVersions.getOrDefault(o.orderId(), 0L) < o.redisVersion()) {
                        // The history has the move but the order row does not: the row follows its history.
                        add(counts, kept, finding(ReconCategory.STATE_MISMATCH, o, "Redis ahead by " + diff + " version"
                                + (diff == 1 ? "" : "s"), FindingDetail.REDIS_AHEAD, diff));
                    }
                    continue; // otherwise lag: the follower applied it meanwhile
                }
                if (p.containsKey("")) {
                    add(counts, kept, finding(ReconCategory.STATE_MISMATCH, o, "Redis ahead by " + diff + "; more than "
                            + PENDING_READ_CAP + " changes of its bucket wait in the outbox, so it was not checked: compare "
                            + "again when the follower has caught up", FindingDetail.REDIS_AHEAD_UNCHECKED, diff, PENDING_READ_CAP));
                } else {
                    String unexplained = "Redis ahead by " + diff + " version" + (diff == 1 ? "" : "s")
                            + " that no recorded transition explains";
                    add(counts, kept, h == null
                            ? finding(ReconCategory.REDIS_UNEXPLAINED, o, unexplained, FindingDetail.UNEXPLAINED, diff)
                            : finding(ReconCategory.REDIS_UNEXPLAINED, o, unexplained + " (MySQL's history has " + h.to() + " at version "
                            + o.redisVersion() + ")", FindingDetail.UNEXPLAINED_HISTORY, diff, h.to(), o.redisVersion()));
                }
            }
        }
    }

    /** @return how the live counters of non-terminal statuses differ from the counted orders, in words, or null when they agree */
    private String drift(Map<Integer, Long> counters, Map<Integer, Long> counted) {
        StringBuilder b = new StringBuilder();
        com.orderconsole.service.follower.TerminalRetention r = retention;
        for (OrderStatus s : OrderStatus.values()) {
            if (r != null && r.isTerminal(s)) {
                continue;
            }
            long c = counters.getOrDefault(s.code(), 0L);
            long n = counted.getOrDefault(s.code(), 0L);
            if (c != n) {
                b.append(b.length() == 0 ? "" : ", ").append(s).append(" counter ").append(c).append(", orders ").append(n);
            }
        }
        return b.length() == 0 ? null : b.toString();
    }

    /**
     * Reports buckets whose counters differ from the counted orders. Under live traffic a count and the
     * counters are never read at the same instant, so a difference is reported only when a second count
     * finds exactly the same difference again.
     */
    private void reportDrift(Map<Integer, Map<Integer, Long>> firstCount, Map<ReconCategory, Long> counts,
                             Map<ReconCategory, List<ReconFinding>> kept) {
        Map<Integer, String> first = new HashMap<>();
        for (int b = 0; b < RedisKeys.buckets(); b++) {
            String d = drift(stats.statusCounts(b), firstCount.getOrDefault(b, Map.of()));
            if (d != null) {
                first.put(b, d);
            }
        }
        if (first.isEmpty()) {
            return;
        }
        Map<Integer, Map<Integer, Long>> second = countStatuses();
        first.forEach((b, d) -> {
            if (d.equals(drift(stats.statusCounts(b), second.getOrDefault(b, Map.of())))) {
                add(counts, kept, new ReconFinding(ReconCategory.COUNTERS_DRIFT, "", null, 0, null, 0, "bucket " + b + ": " + d,
                        FindingDetail.DRIFT, List.of(b, String.valueOf(d))));
            }
        });
    }

    /** @return per bucket, per status code, the orders Redis holds (one SCAN pass) */
    private Map<Integer, Map<Integer, Long>> countStatuses() {
        Map<Integer, Map<Integer, Long>> counted = new HashMap<>();
        states.scan(PAGE * 4, page -> page.states().forEach((id, st) -> {
            if (st != null) {
                counted.computeIfAbsent(RedisKeys.bucket(id), b -> new HashMap<>()).merge(st.status().code(), 1L, Long::sum);
            }
        }));
        return counted;
    }

    /** Counts the orders Redis holds per bucket and status and overwrites the live counters with the counts. */
    private void recount() {
        Map<Integer, Map<Integer, Long>> counted = countStatuses();
        for (int b = 0; b < RedisKeys.buckets(); b++) {
            stats.setStatusCounts(b, counted.getOrDefault(b, Map.of()));
        }
    }

    private static ReconFinding finding(ReconCategory c, OrderSummary o, String detail) {
        return new ReconFinding(c, o.orderId(), o.mysqlStatus(), o.mysqlVersion(), o.redisStatus(), o.redisVersion(), detail);
    }

    /** A finding whose detail is also given as its kind and values, for the user's language. */
    private static ReconFinding finding(ReconCategory c, OrderSummary o, String detail, FindingDetail key, Object... args) {
        return new ReconFinding(c, o.orderId(), o.mysqlStatus(), o.mysqlVersion(), o.redisStatus(), o.redisVersion(), detail,
                key, List.of(args));
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
        if (category == ReconCategory.MISSING_IN_MYSQL && report.counts().get(category) > 0) {
            access.require(operator, Role.ADMIN, "copy Redis-only orders into MySQL (no recorded transition explains them)");
            if (reason == null || reason.isBlank()) {
                throw new IllegalArgumentException("copying Redis-only orders into MySQL needs a reason");
            }
        }
        List<String> errors = new ArrayList<>();
        long repaired = 0;
        long failed = 0;
        long attempted = 0;
        if (category == ReconCategory.SYNC_PENDING || category == ReconCategory.STATE_MISMATCH) {
            sync.drainOnce();
        }
        if (category == ReconCategory.COUNTERS_DRIFT) {
            recount();
        }
        List<ReconFinding> todo = category == ReconCategory.SYNC_PENDING || category == ReconCategory.COUNTERS_DRIFT
                ? List.of() : report.findings(category);
        boolean stop = false;
        for (ReconFinding f : todo) {
            if (cancelled.getAsBoolean()) {
                stop = true;
                break;
            }
            attempted++;
            try {
                String done = repairOne(f, operator, reason);
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
        if (category == ReconCategory.SYNC_PENDING) {
            attempted = report.counts().get(category);
            repaired = sync.status().pending() == 0 ? attempted : 0;
        }
        if (category == ReconCategory.COUNTERS_DRIFT) {
            attempted = report.counts().get(category);
            repaired = attempted;
            audit.record(operator, "reconciliation", AuditTrail.REPAIR, null, reason == null ? "" : reason,
                    category.label() + ": live counters recounted");
        }
        log.info("{} repaired {} of {} findings in category {} ({} failed)", operator.name(), repaired, attempted, category, failed);
        return new RepairResult(category, attempted, repaired, failed, errors, stop);
    }

    /**
     * One planned repair of a dry run.
     *
     * @param orderId the order ("" for per-bucket repairs)
     * @param direction what is copied where, e.g. "MySQL → Redis"
     * @param resulting the state after the repair, e.g. "PAID v2"
     */
    public record RepairStep(String orderId, String direction, String resulting) {
    }

    /**
     * Dry run of a repair, per finding: the direction and the resulting state (changes nothing).
     *
     * @return the steps a repair of this category would take, in report order
     */
    public List<RepairStep> plan(ReconReport report, ReconCategory category) {
        List<RepairStep> out = new ArrayList<>();
        for (ReconFinding f : report.findings(category)) {
            String mysql = f.mysqlStatus() == null ? "no MySQL record" : f.mysqlStatus() + " v" + f.mysqlVersion();
            String redis = f.redisStatus() == null ? "no Redis state" : f.redisStatus() + " v" + f.redisVersion();
            out.add(switch (category) {
                case STATE_MISMATCH -> f.redisVersion() > f.mysqlVersion()
                        ? new RepairStep(f.orderId(), "MySQL history → MySQL row", redis)
                        : new RepairStep(f.orderId(), "MySQL → Redis", mysql);
                case MISSING_IN_REDIS, MALFORMED_IN_REDIS, REDIS_UNEXPLAINED ->
                        new RepairStep(f.orderId(), "MySQL → Redis", f.mysqlStatus() == null ? "left to the dead-letter list" : mysql);
                case MISSING_IN_MYSQL -> new RepairStep(f.orderId(), "Redis → MySQL (admin override, with a history row)", redis);
                case WAIT_PAY_WITHOUT_QUEUE -> new RepairStep(f.orderId(), "MySQL deadline → cancel queue", "queued");
                case QUEUE_ENTRY_NOT_WAIT_PAY -> new RepairStep(f.orderId(), "cancel queue", "entry removed");
                case COUNTERS_DRIFT -> new RepairStep("", "Redis orders → live counters", f.detail());
                case SYNC_PENDING -> new RepairStep("", "outbox → MySQL", "applied by the follower");
            });
        }
        return out;
    }

    /** @return what the repair changed, in words (state before and after), or null when nothing needed changing */
    private String repairOne(ReconFinding f, Operator operator, String reason) {
        String id = f.orderId();
        switch (f.category()) {
            case MISSING_IN_REDIS -> {
                if (states.get(id) != null) {
                    return null;
                }
                orders.rebuild(id);
                return "Redis rebuilt from MySQL: " + describe(states.get(id));
            }
            case MALFORMED_IN_REDIS, REDIS_UNEXPLAINED -> {
                String before = states.raw(id);
                OrderState now = orders.restoreFromMysql(id);
                if (now == null) {
                    throw new IllegalStateException("MySQL has no record of it: it stays in the dead-letter list");
                }
                return "Redis restored from MySQL: was " + before + ", now " + describe(now);
            }
            case MISSING_IN_MYSQL -> {
                OrderState st = states.get(id);
                if (st == null || db.read(t -> t.orders().find(id)) != null) {
                    return null;
                }
                Long expiry = st.status() == OrderStatus.WAIT_PAY ? queue.score(id) : null;
                long now = redis.nowMs();
                HistoryEntry h = new HistoryEntry(id, null, st.status(), st.version(), ResultCode.APPLIED, operator.name(),
                        "repair", "copied from Redis, no recorded transition: " + reason.strip(), now, "repair:" + id + ":" + st.version());
                boolean stored = orders.recordFromRedis(new OrderRow(id, null, st.status().code(), st.version(), st.createTimeMs(),
                        st.updateTimeMs(), expiry, false), h);
                return stored ? "MySQL row created from Redis: " + describe(st) : null;
            }
            case STATE_MISMATCH -> {
                OrderState st = states.get(id);
                OrderRow row = db.read(t -> t.orders().find(id));
                if (st == null || row == null) {
                    throw new IllegalStateException("order disappeared from " + (st == null ? "Redis" : "MySQL"));
                }
                if (st.version() > row.version) {
                    // Only what MySQL's own history records is applied to the row; anything else is not a repair.
                    if (!sync.reapplyHistory(id, st.version(), st.status())) {
                        throw new IllegalStateException("Redis is ahead of MySQL and MySQL's history has no such version: it is "
                                + "listed as " + ReconCategory.REDIS_UNEXPLAINED.label() + " on the next compare");
                    }
                    return "MySQL row follows its history: was " + OrderStatus.ofCode(row.status) + " v" + row.version + ", now "
                            + st.status() + " v" + st.version();
                }
                if (row.version > st.version() || row.status != st.status().code()) {
                    // MySQL holds the newer record (Redis restored from an older copy): Redis follows it.
                    OrderState now = orders.restoreFromMysql(id);
                    return "Redis restored from MySQL: was " + describe(st) + ", now " + describe(now);
                }
                return null;
            }
            case WAIT_PAY_WITHOUT_QUEUE -> {
                OrderRow row = db.read(t -> t.orders().find(id));
                long expiry = row != null && row.expireAtMs != null ? row.expireAtMs : redis.nowMs();
                return queue.requeue(id, expiry) == 1 ? "queued with payment deadline " + expiry + " (epoch ms)" : null;
            }
            case QUEUE_ENTRY_NOT_WAIT_PAY -> {
                OrderState st = states.get(id);
                if (st == null || st.status() != OrderStatus.WAIT_PAY) {
                    return queue.dequeue(id) ? "queue entry removed (order is " + describe(st) + ")" : null;
                }
                return null;
            }
            default -> {
                return null; // SYNC_PENDING and COUNTERS_DRIFT are repaired for the whole category in repair()
            }
        }
    }

    private static String describe(OrderState st) {
        return st == null ? "no Redis state" : st.status() + " v" + st.version();
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
