package com.orderconsole.service.bulk;

import com.fasterxml.jackson.core.JsonEncoding;
import com.fasterxml.jackson.core.JsonGenerator;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.orderconsole.domain.Failures;
import com.orderconsole.domain.ControlChars;
import com.orderconsole.domain.Operator;
import com.orderconsole.domain.OrderState;
import com.orderconsole.domain.OrderStatus;
import com.orderconsole.domain.ResultCode;
import com.orderconsole.domain.Role;
import com.orderconsole.domain.TransitionRequest;
import com.orderconsole.domain.TransitionResult;
import com.orderconsole.domain.TransitionRules;
import com.orderconsole.redis.OrderStateStore;
import com.orderconsole.redis.RedisConnection;
import com.orderconsole.redis.RedisUnavailableException;
import com.orderconsole.service.Access;
import com.orderconsole.service.AuditTrail;
import com.orderconsole.service.DaemonScheduler;
import com.orderconsole.service.follower.CatchUp;
import com.orderconsole.service.follower.Follower;
import com.orderconsole.service.order.OrderPage;
import com.orderconsole.service.order.OrderService;
import com.orderconsole.service.order.OrderSummary;
import com.orderconsole.service.rules.RulesService;
import com.orderconsole.service.transition.TransitionService;
import com.orderconsole.store.BulkBatchRow;
import com.orderconsole.store.BulkItemRow;
import com.orderconsole.store.BulkPlanRow;
import com.orderconsole.store.HistoryRow;
import com.orderconsole.store.Database;
import com.orderconsole.store.OrderRow;
import org.apache.commons.csv.CSVFormat;
import org.apache.commons.csv.CSVPrinter;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.io.IOException;
import java.io.OutputStream;
import java.io.Writer;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.BooleanSupplier;

/**
 * Bulk transitions: preview (read-only), then apply one target status to many orders through
 * {@link TransitionService} — the same script, role checks and healing as a single move — with the version
 * the preview saw (compare-and-set), so an order that moved meanwhile is reported as a conflict (-3) and
 * left as it is. Orders are read in keyset pages over MySQL and handled in chunks of {@link #CHUNK}; after
 * each chunk its per-order results and the batch's counts are written to MySQL in one transaction, so a
 * cancelled or failed batch leaves a record that matches what was done.
 *
 * <p>History rows of a bulk move carry source {@value #SOURCE} and the reason "bulk #&lt;batch id&gt;: &lt;reason&gt;".
 * Roles as for single moves: support and up; an override in bulk (rules not consulted) needs admin.
 */
public final class BulkService {
    private static final Logger log = LoggerFactory.getLogger(BulkService.class);
    /** Source written to the history of every bulk move. */
    public static final String SOURCE = "bulk";
    /**
     * Most orders one batch may hold, unless {@code orderconsole.bulk.maxOrders} says otherwise: 100,000 is the
     * size issue 13 asks to work; the preview's seen states then take about 10 MB.
     */
    public static final int DEFAULT_MAX_ORDERS = 100_000;
    /** Orders in flight at once and per MySQL transaction of results (the sweeper's batch is 100, a page 1,000). */
    static final int CHUNK = 500;
    /** Rows per keyset page when reading orders. */
    static final int PAGE = 1000;
    /** Ids in a preview's sample, per kind (would move / would be rejected). */
    public static final int SAMPLE = 10;
    /** Longest reason: the history's 500 less room for "bulk #&lt;id&gt;: ". */
    public static final int MAX_REASON = 470;
    /** How long one chunk may wait for Redis' answers, seconds. */
    private static final long CHUNK_WAIT_S = 60;
    /** How often the process running a batch renews its heartbeat, seconds; a thread of its own, so a chunk waiting on Redis still beats. */
    static final long HEARTBEAT_S = 5;
    /**
     * A RUNNING batch whose heartbeat is older than this is ABANDONED: six missed beats, so a MySQL failover or a long
     * pause of the process does not make a live batch look dead, yet a dead one shows within half a minute.
     */
    public static final Duration DEFAULT_LEASE = Duration.ofSeconds(30);

    private final RedisConnection clock;
    private final OrderStateStore states;
    private final Database db;
    private final OrderService orders;
    private final TransitionService transitions;
    private final RulesService rules;
    private final Access access;
    private final Follower follower;
    private final AuditTrail audit;
    private final int maxOrders;
    private final long leaseMs;

    /**
     * Built by {@link com.orderconsole.service.Services}; {@code clock} gives Redis {@code TIME}; {@code follower} is caught
     * up before an abandoned batch is closed; {@code audit} records who closed it.
     */
    public BulkService(RedisConnection clock, OrderStateStore states, Database db, OrderService orders, TransitionService transitions,
                       RulesService rules, Access access, Follower follower, AuditTrail audit) {
        this(clock, states, db, orders, transitions, rules, access, follower, audit,
                Integer.getInteger("orderconsole.bulk.maxOrders", DEFAULT_MAX_ORDERS), DEFAULT_LEASE.toMillis());
    }

    private BulkService(RedisConnection clock, OrderStateStore states, Database db, OrderService orders, TransitionService transitions,
                        RulesService rules, Access access, Follower follower, AuditTrail audit, int maxOrders, long leaseMs) {
        this.clock = clock;
        this.states = states;
        this.db = db;
        this.orders = orders;
        this.transitions = transitions;
        this.rules = rules;
        this.access = access;
        this.follower = follower;
        this.audit = audit;
        this.maxOrders = maxOrders;
        this.leaseMs = leaseMs;
    }

    /** @return the same service with another size cap (tests, benchmarks, an operator's stricter setting) */
    public BulkService withMaxOrders(int cap) {
        if (cap < 1) {
            throw new IllegalArgumentException("a batch must be allowed at least 1 order, got " + cap);
        }
        return new BulkService(clock, states, db, orders, transitions, rules, access, follower, audit, cap, leaseMs);
    }

    /** @return the same service judging heartbeats by another lease (tests; at least one second, the heartbeat's resolution) */
    public BulkService withLease(Duration lease) {
        if (lease.toMillis() < 1000) {
            throw new IllegalArgumentException("a lease must be at least 1 s (heartbeats are whole seconds), got " + lease.toMillis() + " ms");
        }
        return new BulkService(clock, states, db, orders, transitions, rules, access, follower, audit, maxOrders, lease.toMillis());
    }

    /** @return the most orders one batch may hold */
    public int maxOrders() {
        return maxOrders;
    }

    /**
     * Reads the chosen orders (keyset pages over MySQL joined with their Redis state, which leads) and says
     * what a move to {@code target} would do by the rules in force. Changes nothing; any role may preview.
     *
     * @param scope the orders
     * @param target the target status
     * @param override true to preview an override (rules not consulted; applying it needs admin)
     * @param progress told after every page
     * @param cancelled polled between pages; a cancelled preview throws {@link java.util.concurrent.CancellationException}
     * @return the preview with the seen state of every matched order
     * @throws BulkTooLargeException when more than {@link #maxOrders()} orders match (reading stops there)
     * @throws IllegalArgumentException when the target is missing
     */
    public BulkPreview preview(BulkScope scope, OrderStatus target, boolean override, BulkProgress progress, BooleanSupplier cancelled) {
        if (target == null) {
            throw new IllegalArgumentException("no target status given");
        }
        TransitionRules r = rules.current();
        Collector c = new Collector(r, target, override, maxOrders);
        List<String> unknown = new ArrayList<>();
        if (scope.isSelection()) {
            if (scope.orderIds().size() > maxOrders) {
                throw new BulkTooLargeException(maxOrders);
            }
            List<String> ids = scope.orderIds();
            for (int from = 0; from < ids.size(); from += PAGE) {
                checkCancelled(cancelled);
                List<String> page = ids.subList(from, Math.min(ids.size(), from + PAGE));
                Map<String, OrderState> redis = states.getAll(page);
                Map<String, OrderRow> mysql = new java.util.HashMap<>();
                db.read(t -> t.orders().findAll(page)).forEach(row -> mysql.put(row.orderId, row));
                for (String id : page) {
                    if (redis.get(id) == null && mysql.get(id) == null) {
                        unknown.add(id);
                    } else {
                        c.add(OrderService.summarize(mysql.get(id), redis.get(id), id));
                    }
                }
                progress.report(c.size, ids.size(), BulkCounts.ZERO);
            }
        } else {
            String cursor = null;
            do {
                checkCancelled(cancelled);
                OrderPage page = orders.page(scope.filter(), cursor, PAGE);
                page.rows().forEach(c::add);
                cursor = page.nextCursor();
                progress.report(c.size, -1, BulkCounts.ZERO);
            } while (cursor != null);
        }
        return c.preview(scope, unknown, clock.nowMs());
    }

    private static void checkCancelled(BooleanSupplier cancelled) {
        if (cancelled.getAsBoolean()) {
            throw new java.util.concurrent.CancellationException("preview cancelled: nothing was changed");
        }
    }

    /** What a move from {@code from} to {@code target} does, in the order transition.lua decides it (version aside). */
    static ResultCode expected(TransitionRules r, OrderStatus from, OrderStatus target, boolean override) {
        if (from == target) {
            return ResultCode.ALREADY_IN_STATUS;
        }
        if (override) {
            return ResultCode.APPLIED;
        }
        if (r.isTerminal(from)) {
            return ResultCode.TERMINAL;
        }
        return r.allows(from, target) ? ResultCode.APPLIED : ResultCode.NOT_ALLOWED;
    }

    /** Gathers the preview while pages are read: counts per target, the sample, the seen states in columns. */
    private static final class Collector {
        private final TransitionRules rules;
        private final OrderStatus target;
        private final boolean override;
        private final int cap;
        private final int[] apply = new int[OrderStatus.values().length];
        private final int[] reject = new int[OrderStatus.values().length];
        private final Map<ResultCode, Integer> rejectByCode = new EnumMap<>(ResultCode.class);
        private final List<String> sampleApply = new ArrayList<>();
        private final List<String> sampleReject = new ArrayList<>();
        private String[] ids = new String[1024];
        private byte[] statuses = new byte[1024];
        private long[] versions = new long[1024];
        private int size;

        Collector(TransitionRules rules, OrderStatus target, boolean override, int cap) {
            this.rules = rules;
            this.target = target;
            this.override = override;
            this.cap = cap;
        }

        void add(OrderSummary s) {
            if (size == cap) {
                throw new BulkTooLargeException(cap);
            }
            OrderStatus status = s.status();
            // Redis leads; an order whose Redis state is missing is rebuilt from MySQL by the transition service.
            long version = s.redisStatus() != null ? s.redisVersion() : s.mysqlVersion();
            if (size == ids.length) {
                int n = Math.min(cap, size * 2);
                ids = Arrays.copyOf(ids, n);
                statuses = Arrays.copyOf(statuses, n);
                versions = Arrays.copyOf(versions, n);
            }
            ids[size] = s.orderId();
            statuses[size] = (byte) status.code();
            versions[size] = version;
            size++;
            for (OrderStatus t : OrderStatus.values()) {
                boolean ok = expected(rules, status, t, override && t != OrderStatus.WAIT_PAY) == ResultCode.APPLIED;
                if (ok) {
                    apply[t.ordinal()]++;
                } else {
                    reject[t.ordinal()]++;
                }
            }
            ResultCode code = expected(rules, status, target, override);
            if (code.applied()) {
                if (sampleApply.size() < SAMPLE) {
                    sampleApply.add(s.orderId());
                }
            } else {
                rejectByCode.merge(code, 1, Integer::sum);
                if (sampleReject.size() < SAMPLE) {
                    sampleReject.add(s.orderId());
                }
            }
        }

        BulkPreview preview(BulkScope scope, List<String> unknown, long nowMs) {
            List<TargetCount> per = new ArrayList<>();
            for (OrderStatus t : OrderStatus.values()) {
                per.add(new TargetCount(t, apply[t.ordinal()], reject[t.ordinal()]));
            }
            List<String> sample = new ArrayList<>(sampleApply);
            sample.addAll(sampleReject);
            return new BulkPreview(scope, target, override, rules.version(), size, apply[target.ordinal()],
                    Map.copyOf(rejectByCode), List.copyOf(per), List.copyOf(sample), List.copyOf(unknown), nowMs,
                    new BulkPreview.Seen(ids, statuses, versions, size));
        }
    }

    /**
     * Checks what an apply needs before anything is written: role, reason, target. Callers may use it to
     * refuse early (e.g. before asking for a confirmation).
     *
     * @return the stripped reason
     * @throws com.orderconsole.domain.PermissionDeniedException below support, or an override below admin
     * @throws IllegalArgumentException for an empty, too long or control-character reason, or an override to WAIT_PAY
     */
    public String check(Operator operator, BulkPreview preview, String reason) {
        access.require(operator, Role.SUPPORT, "run a bulk transition");
        if (preview.override()) {
            access.require(operator, Role.ADMIN, "override the transition rules in bulk");
            if (preview.target() == OrderStatus.WAIT_PAY) {
                throw new IllegalArgumentException("an override cannot move orders back to WAIT_PAY (they have no payment deadline any more)");
            }
        }
        String r = reason == null ? "" : reason.strip();
        if (r.isEmpty()) {
            throw new IllegalArgumentException("a bulk transition needs a reason: it is written to every order's history");
        }
        if (r.length() > MAX_REASON) {
            throw new IllegalArgumentException("reason is " + r.length() + " characters long (at most " + MAX_REASON + " in bulk)");
        }
        if (ControlChars.in(r)) {
            throw new IllegalArgumentException("reason contains a control character (newline, tab or escape); use plain text");
        }
        return r;
    }

    /**
     * Applies a previewed bulk transition: records the batch (RUNNING), then moves each matched order through
     * the transition script with compare-and-set on the version the preview saw, {@link #CHUNK} at a time;
     * after each chunk, its results and the batch's counts are committed together. Cancelling stops before the
     * next chunk (the batch ends CANCELLED, the rest "not run"); Redis not answering ends it FAILED.
     *
     * @param operator who acts (support and up; admin for an override)
     * @param preview what {@link #preview} returned; its seen versions are the compare-and-set values
     * @param reason one reason for the whole batch (required, at most {@link #MAX_REASON} characters)
     * @param source where it runs from: "console" or "cli" (kept in the batch record; history rows say "bulk")
     * @param progress told after every chunk
     * @param cancelled polled before every chunk
     * @return the batch as recorded at the end
     * @throws IllegalArgumentException when the preview moves no order (nothing is written then), or as {@link #check}
     */
    public BulkBatch apply(Operator operator, BulkPreview preview, String reason, String source, BulkProgress progress,
                           BooleanSupplier cancelled) {
        String why = check(operator, preview, reason);
        if (preview.wouldApply() == 0) {
            // Every order would be rejected (or none matched): running it would only write rejection rows and trip the
            // rejection-rate alert (issue 26).
            throw new IllegalArgumentException(preview.matched() + " orders matched and none would move to " + preview.target()
                    + ": nothing to do");
        }
        BulkBatchRow batch = new BulkBatchRow();
        batch.actor = operator.name();
        batch.source = source;
        batch.startedAtMs = clock.nowMs();
        batch.scope = preview.scope().describe();
        batch.target = preview.target().code();
        batch.overrideRules = preview.override();
        batch.reason = why;
        batch.matched = preview.matched();
        batch.state = BulkBatch.State.RUNNING.name();
        BulkPreview.Seen seen = preview.seen();
        // The plan goes with the batch: should this process die, closing the batch still knows every order it set out to move.
        db.inTransaction(t -> {
            t.bulk().insertBatch(batch);
            List<BulkPlanRow> plan = new ArrayList<>(seen.size());
            for (int i = 0; i < seen.size(); i++) {
                BulkPlanRow p = new BulkPlanRow();
                p.batchId = batch.id;
                p.seq = i;
                p.orderId = seen.id(i);
                p.seenStatus = seen.status(i).code();
                p.seenVersion = seen.version(i);
                plan.add(p);
            }
            t.bulk().insertPlan(plan);
            return null;
        });
        String historyReason = "bulk #" + batch.id + ": " + why;
        log.info("bulk #{} started by {}: {} orders to {}{} ({})", batch.id, operator.name(), preview.matched(), preview.target(),
                preview.override() ? " (override)" : "", batch.scope);
        AtomicBoolean closedMeanwhile = new AtomicBoolean();
        ScheduledExecutorService heart = DaemonScheduler.create("bulk-heartbeat-" + batch.id);
        heart.scheduleWithFixedDelay(() -> beat(batch.id, closedMeanwhile), HEARTBEAT_S, HEARTBEAT_S, TimeUnit.SECONDS);
        try {
            return run(operator, preview, batch, historyReason, progress, cancelled, closedMeanwhile);
        } finally {
            heart.shutdownNow();
        }
    }

    private void beat(long batchId, AtomicBoolean closedMeanwhile) {
        try {
            if (!db.inTransaction(t -> t.bulk().beat(batchId))) {
                closedMeanwhile.set(true);
            }
        } catch (RuntimeException e) {
            // MySQL not answering: the next beat tries again; six misses in a row and the batch reads abandoned.
            log.warn("bulk #{}: heartbeat not written: {}", batchId, e.getMessage());
        }
    }

    private BulkBatch run(Operator operator, BulkPreview preview, BulkBatchRow batch, String historyReason, BulkProgress progress,
                          BooleanSupplier cancelled, AtomicBoolean closedMeanwhile) {
        BulkPreview.Seen seen = preview.seen();
        int[] counts = new int[4];
        BulkBatch.State end = BulkBatch.State.DONE;
        for (int from = 0; from < seen.size(); from += CHUNK) {
            if (closedMeanwhile.get()) {
                throw closedUnderneath(batch.id);
            }
            if (cancelled.getAsBoolean()) {
                end = BulkBatch.State.CANCELLED;
                break;
            }
            int to = Math.min(seen.size(), from + CHUNK);
            List<BulkItemRow> items = runChunk(operator, preview, seen, from, to, batch.id, historyReason);
            boolean redisDown = false;
            for (BulkItemRow i : items) {
                counts[BulkItem.Outcome.valueOf(i.outcome).ordinal()]++;
                redisDown |= i.outcome.equals(BulkItem.Outcome.FAILED.name());
            }
            setCounts(batch, counts);
            if (redisDown) {
                batch.state = BulkBatch.State.FAILED.name();
                batch.finishedAtMs = nowOrLocal();
            }
            // The batch row first: it is locked until commit, and a batch closed as abandoned meanwhile takes no more items.
            boolean stillRunning = db.inTransaction(t -> {
                if (!t.bulk().updateBatch(batch)) {
                    return false;
                }
                t.bulk().insertItems(items);
                return true;
            });
            if (!stillRunning) {
                throw closedUnderneath(batch.id);
            }
            progress.report(to, seen.size(), countsOf(counts));
            if (redisDown) {
                end = BulkBatch.State.FAILED;
                break;
            }
        }
        // A chunk that found Redis down wrote FAILED with its results already.
        if (end != BulkBatch.State.FAILED) {
            batch.state = end.name();
            batch.finishedAtMs = nowOrLocal();
            if (!db.inTransaction(t -> t.bulk().updateBatch(batch))) {
                throw closedUnderneath(batch.id);
            }
        }
        log.info("bulk #{} {}: {} applied, {} rejected, {} conflicts, {} failed, {} not run", batch.id, end, counts[0], counts[1],
                counts[2], counts[3], preview.matched() - counts[0] - counts[1] - counts[2] - counts[3]);
        return batch(batch.id);
    }

    /** Audit action of closing an abandoned batch. */
    public static final String CLOSE_ACTION = "BULK_CLOSE";
    /** Error text of every item a close writes, and the audit reason. */
    public static final String ABANDONED = "batch abandoned";
    /** How long a close waits for the follower to bring MySQL's history up to date, seconds. */
    private static final long CLOSE_CATCH_UP_S = 30;

    /**
     * Closes an abandoned batch (see {@link BulkBatch#closable()}) so that its record accounts for every order it set out
     * to move: items already recorded stay as they are; the one chunk that may have been in flight when its process died
     * (the next {@link #CHUNK} orders of the plan) is told apart by the history rows the batch wrote (source bulk, reason
     * "bulk #id: ..."), read after the follower caught up: such a row gives the order's outcome (applied, rejected,
     * conflict), no row means the batch did not move it (NOT_RUN); every later order was never attempted (NOT_RUN). Every
     * item it writes says "batch abandoned" and how its outcome was found. The batch ends ABANDONED with a finish time.
     *
     * @param operator who closes it (ops and up)
     * @param source where from: console or cli (kept in the audit log)
     * @return the batch as recorded at the end
     * @throws com.orderconsole.domain.PermissionDeniedException below ops
     * @throws IllegalArgumentException when no such batch exists or it is not an abandoned one
     * @throws IllegalStateException when MySQL has not caught up with the Redis outbox within 30 s, or the batch beat
     *     again or was closed meanwhile (nothing is written then)
     */
    public BulkBatch close(Operator operator, long batchId, String source) {
        access.require(operator, Role.OPS, "close an abandoned bulk batch");
        BulkBatch b = batch(batchId);
        if (!b.closable()) {
            throw new IllegalArgumentException("bulk #" + batchId + " is " + b.state().name().toLowerCase(java.util.Locale.ROOT)
                    + (b.finishedAtMs() != null ? " and finished" : "") + ": only a RUNNING batch whose heartbeat stopped for longer than "
                    + leaseMs / 1000 + " s (its process died) can be closed");
        }
        CatchUp caught = follower.catchUp(Duration.ofSeconds(CLOSE_CATCH_UP_S));
        if (!caught.caughtUp()) {
            throw new IllegalStateException("bulk #" + batchId + " not closed: MySQL has not caught up with the Redis outbox (" + caught.detail()
                    + "), so whether the orders of the chunk in flight moved cannot be told yet; try again once it has");
        }
        String prefix = "bulk #" + batchId + ": ";
        long now = clock.nowMs();
        List<BulkPlanRow> open = db.read(t -> t.bulk().unrecorded(batchId));
        List<BulkPlanRow> inFlight = open.subList(0, Math.min(CHUNK, open.size()));
        Map<String, HistoryRow> written = new java.util.HashMap<>();
        db.read(t -> t.bulk().historyOf(inFlight.stream().map(p -> p.orderId).toList(), prefix)).forEach(h -> written.putIfAbsent(h.orderId, h));
        BulkBatchRow row = db.read(t -> t.bulk().findBatch(batchId));
        List<BulkItemRow> items = new ArrayList<>(open.size());
        for (int i = 0; i < open.size(); i++) {
            BulkPlanRow p = open.get(i);
            BulkItemRow item = new BulkItemRow();
            item.batchId = batchId;
            item.orderId = p.orderId;
            item.seenStatus = p.seenStatus;
            item.seenVersion = p.seenVersion;
            item.version = p.seenVersion;
            item.atMs = now;
            HistoryRow h = i < inFlight.size() ? written.get(p.orderId) : null;
            if (h != null) {
                ResultCode code = ResultCode.ofCode(h.resultCode);
                item.outcome = code.applied() ? BulkItem.Outcome.APPLIED.name()
                        : code == ResultCode.VERSION_CONFLICT ? BulkItem.Outcome.CONFLICT.name() : BulkItem.Outcome.REJECTED.name();
                item.resultCode = code.code();
                item.version = h.version;
                item.atMs = h.atMs;
                item.error = ABANDONED + " while this order's chunk was in flight: outcome read from its history row";
                if (code.applied()) {
                    row.applied++;
                } else if (code == ResultCode.VERSION_CONFLICT) {
                    row.conflicts++;
                } else {
                    row.rejected++;
                }
            } else {
                item.outcome = BulkItem.Outcome.NOT_RUN.name();
                item.error = i < inFlight.size()
                        ? ABANDONED + " while this order's chunk was in flight: no history row of bulk #" + batchId
                          + " once MySQL caught up, so not moved by it (it may never have been sent)"
                        : ABANDONED + ": never attempted";
            }
            items.add(item);
        }
        row.finishedAtMs = now;
        boolean closed = db.inTransaction(t -> {
            if (!t.bulk().closeAbandoned(row, leaseMs)) {
                return false;
            }
            t.bulk().insertItems(items);
            return true;
        });
        if (!closed) {
            throw new IllegalStateException("bulk #" + batchId + " not closed: it beat again or someone closed it meanwhile; look at it again");
        }
        long moved = items.stream().filter(i -> i.outcome.equals(BulkItem.Outcome.APPLIED.name())).count();
        String detail = "bulk #" + batchId + " closed: " + moved + " of the chunk in flight had moved, " + (inFlight.size() - written.size())
                + " of it had not, " + (open.size() - inFlight.size()) + " never attempted";
        audit.record(operator, source, CLOSE_ACTION, null, ABANDONED, detail);
        log.info("{} by {}", detail, operator.name());
        return batch(batchId);
    }

    private static IllegalStateException closedUnderneath(long batchId) {
        return new IllegalStateException("bulk #" + batchId + " was closed as abandoned while this process still ran it "
                + "(its heartbeat had stopped for longer than the lease): stopped; the chunk in flight may have moved orders "
                + "its record does not show, see their history (reason 'bulk #" + batchId + ": ...')");
    }

    private long nowOrLocal() {
        try {
            return clock.nowMs();
        } catch (RuntimeException e) {
            return System.currentTimeMillis(); // Redis down: the record still gets an end time
        }
    }

    private List<BulkItemRow> runChunk(Operator operator, BulkPreview p, BulkPreview.Seen seen, int from, int to, long batchId,
                                       String reason) {
        List<CompletableFuture<TransitionResult>> calls = new ArrayList<>(to - from);
        for (int i = from; i < to; i++) {
            TransitionRequest req = new TransitionRequest(seen.id(i), p.target(), seen.version(i), SOURCE, reason, p.override());
            CompletableFuture<TransitionResult> f;
            try {
                f = transitions.transitionAsync(operator, req);
            } catch (RuntimeException e) {
                f = CompletableFuture.failedFuture(e);
            }
            calls.add(f);
        }
        List<BulkItemRow> items = new ArrayList<>(calls.size());
        long fallbackNow = System.currentTimeMillis();
        // One deadline for the whole chunk: a Redis that stopped answering costs 60 s, not 60 s per order.
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(CHUNK_WAIT_S);
        for (int i = from; i < to; i++) {
            BulkItemRow row = new BulkItemRow();
            row.batchId = batchId;
            row.orderId = seen.id(i);
            row.seenStatus = seen.status(i).code();
            row.seenVersion = seen.version(i);
            row.error = "";
            try {
                TransitionResult r = calls.get(i - from).get(Math.max(0, deadline - System.nanoTime()), TimeUnit.NANOSECONDS);
                row.resultCode = r.code().code();
                row.version = r.version();
                row.atMs = r.timeMs();
                row.outcome = r.applied() ? BulkItem.Outcome.APPLIED.name()
                        : r.code() == ResultCode.VERSION_CONFLICT ? BulkItem.Outcome.CONFLICT.name() : BulkItem.Outcome.REJECTED.name();
            } catch (Exception e) {
                Throwable cause = Failures.unwrap(e);
                row.outcome = BulkItem.Outcome.FAILED.name();
                row.version = seen.version(i);
                row.atMs = fallbackNow;
                String msg = cause instanceof RedisUnavailableException || cause instanceof java.util.concurrent.TimeoutException
                        ? "no answer from Redis; the transition may still have been applied: " + cause.getMessage()
                        : String.valueOf(cause.getMessage());
                row.error = msg.length() > 300 ? msg.substring(0, 300) : msg;
                if (e instanceof InterruptedException) {
                    Thread.currentThread().interrupt();
                }
            }
            items.add(row);
        }
        return items;
    }

    private static void setCounts(BulkBatchRow b, int[] c) {
        b.applied = c[0];
        b.rejected = c[1];
        b.conflicts = c[2];
        b.failed = c[3];
    }

    private static BulkCounts countsOf(int[] c) {
        return new BulkCounts(c[0], c[1], c[2], c[3]);
    }

    /**
     * @param beforeId null for the newest, else the id of the last batch of the previous page
     * @param limit batches per page, 1..1000
     * @return batches newest first
     */
    public List<BulkBatch> batches(Long beforeId, int limit) {
        requireLimit(limit);
        return db.read(t -> t.bulk().batches(beforeId, limit)).stream().map(this::toBatch).toList();
    }

    /**
     * @return the batch
     * @throws IllegalArgumentException when no batch has this id
     */
    public BulkBatch batch(long id) {
        BulkBatchRow row = db.read(t -> t.bulk().findBatch(id));
        if (row == null) {
            throw new IllegalArgumentException("no bulk batch #" + id);
        }
        return toBatch(row);
    }

    /**
     * One page of a batch's per-order results, by order id.
     *
     * @param outcome only this outcome, or null for all
     * @param afterOrderId null for the first page, else the last id of the previous page
     * @param limit rows per page, 1..1000
     */
    public List<BulkItem> items(long batchId, BulkItem.Outcome outcome, String afterOrderId, int limit) {
        requireLimit(limit);
        return db.read(t -> t.bulk().items(batchId, outcome == null ? null : outcome.name(), afterOrderId, limit)).stream()
                .map(BulkService::toItem).toList();
    }

    private static void requireLimit(int limit) {
        if (limit < 1 || limit > 1000) {
            throw new IllegalArgumentException("page size must be 1..1000, got " + limit);
        }
    }

    /** CSV columns of an export, in order. */
    public static final List<String> CSV_HEADER = List.of("batch", "order_id", "outcome", "result_code", "result", "seen_status",
            "seen_version", "version_after", "at_utc", "error");

    /**
     * Writes a batch's per-order results as CSV (header {@link #CSV_HEADER}), streaming pages of 1,000.
     *
     * @return rows written
     */
    public long exportCsv(long batchId, Writer out) throws IOException {
        batch(batchId);
        long n = 0;
        CSVPrinter csv = new CSVPrinter(out, CSVFormat.DEFAULT.builder().setHeader(CSV_HEADER.toArray(String[]::new)).get());
        String after = null;
        while (true) {
            List<BulkItem> page = items(batchId, null, after, 1000);
            for (BulkItem i : page) {
                csv.printRecord(i.batchId(), i.orderId(), i.outcome(), i.code() == null ? "" : i.code().code(),
                        i.code() == null ? "" : i.code().description(), i.seenStatus(), i.seenVersion(), i.version(),
                        Instant.ofEpochMilli(i.atMs()), i.error());
                n++;
            }
            if (page.size() < 1000) {
                break;
            }
            after = page.get(page.size() - 1).orderId();
        }
        csv.flush();
        return n;
    }

    /**
     * Writes a batch and its per-order results as one JSON document {@code {"batch": {...}, "items": [...]}},
     * streaming pages of 1,000.
     *
     * @return items written
     */
    public long exportJson(long batchId, OutputStream out) throws IOException {
        BulkBatch b = batch(batchId);
        ObjectMapper json = new ObjectMapper();
        long n = 0;
        try (JsonGenerator g = json.getFactory().createGenerator(out, JsonEncoding.UTF8)) {
            g.useDefaultPrettyPrinter();
            g.writeStartObject();
            g.writeFieldName("batch");
            json.writeValue(g, b);
            g.writeArrayFieldStart("items");
            String after = null;
            while (true) {
                List<BulkItem> page = items(batchId, null, after, 1000);
                for (BulkItem i : page) {
                    json.writeValue(g, i);
                    n++;
                }
                if (page.size() < 1000) {
                    break;
                }
                after = page.get(page.size() - 1).orderId();
            }
            g.writeEndArray();
            g.writeEndObject();
        }
        return n;
    }

    /** The row as a batch; a RUNNING row whose heartbeat is older than the lease (by MySQL's clock, as read) is ABANDONED. */
    private BulkBatch toBatch(BulkBatchRow r) {
        BulkBatch.State state = BulkBatch.State.valueOf(r.state);
        if (state == BulkBatch.State.RUNNING && r.readAtMs - r.heartbeatMs > leaseMs) {
            state = BulkBatch.State.ABANDONED;
        }
        return new BulkBatch(r.id, r.actor, r.source, r.startedAtMs, r.finishedAtMs, r.scope, OrderStatus.ofCode(r.target),
                r.overrideRules, r.reason, r.matched, new BulkCounts(r.applied, r.rejected, r.conflicts, r.failed), state, r.heartbeatMs);
    }

    private static BulkItem toItem(BulkItemRow r) {
        return new BulkItem(r.batchId, r.orderId, OrderStatus.ofCode(r.seenStatus), r.seenVersion, BulkItem.Outcome.valueOf(r.outcome),
                r.resultCode == null ? null : ResultCode.ofCode(r.resultCode), r.version, r.atMs, r.error);
    }
}
