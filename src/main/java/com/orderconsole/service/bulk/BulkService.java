package com.orderconsole.service.bulk;

import com.orderconsole.domain.Operator;
import com.orderconsole.domain.OrderStatus;
import com.orderconsole.redis.OrderStateStore;
import com.orderconsole.redis.RedisConnection;
import com.orderconsole.service.Access;
import com.orderconsole.service.AuditTrail;
import com.orderconsole.service.follower.Follower;
import com.orderconsole.service.order.OrderService;
import com.orderconsole.service.rules.RulesService;
import com.orderconsole.service.transition.TransitionService;
import com.orderconsole.store.Database;

import java.io.IOException;
import java.io.OutputStream;
import java.io.Writer;
import java.time.Duration;
import java.util.List;
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
 *
 * <p>The one entry point of the room; the work is done by one class per responsibility: {@link BulkPlanner}
 * (the read-only preview), {@link BulkRunner} (running a batch and its heartbeat), {@link BulkCloser} (closing a
 * batch whose process died) and {@link BulkRecords} (reading and exporting the record).
 */
public final class BulkService implements Bulk {
    /** Source written to the history of every bulk move. */
    public static final String SOURCE = "bulk";
    /**
     * Most orders one batch may hold, unless {@code orderconsole.bulk.maxOrders} says otherwise: 100,000 is the
     * size issue 13 asks to work; the preview's seen states then take about 10 MB.
     */
    public static final int DEFAULT_MAX_ORDERS = 100_000;
    /** Orders in flight at once and per MySQL transaction of results (the sweeper's batch is 100, a page 1,000). */
    static final int CHUNK = 500;
    /** Ids in a preview's sample, per kind (would move / would be rejected). */
    public static final int SAMPLE = 10;
    /** Longest reason: the history's 500 less room for "bulk #&lt;id&gt;: ". */
    public static final int MAX_REASON = 470;
    /**
     * A RUNNING batch whose heartbeat is older than this is ABANDONED: six missed beats, so a MySQL failover or a long
     * pause of the process does not make a live batch look dead, yet a dead one shows within half a minute.
     */
    public static final Duration DEFAULT_LEASE = Duration.ofSeconds(30);
    /** Audit action of closing an abandoned batch. */
    public static final String CLOSE_ACTION = "BULK_CLOSE";
    /** Error text of every item a close writes, and the audit reason. */
    public static final String ABANDONED = "batch abandoned";
    /** CSV columns of an export, in order. */
    public static final List<String> CSV_HEADER = List.of("batch", "order_id", "outcome", "result_code", "result", "seen_status",
            "seen_version", "version_after", "at_utc", "error");

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
    private final BulkPlanner planner;
    private final BulkRecords records;
    private final BulkRunner runner;
    private final BulkCloser closer;

    /**
     * Built by the wiring ({@code app.Services}); {@code clock} gives Redis {@code TIME}; {@code follower} is caught
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
        this.planner = new BulkPlanner(clock, states, db, orders, rules, maxOrders);
        this.records = new BulkRecords(db, leaseMs);
        this.runner = new BulkRunner(clock, db, transitions, access, records);
        this.closer = new BulkCloser(clock, db, access, follower, audit, records, leaseMs);
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
        return planner.preview(scope, target, override, progress, cancelled);
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
        return runner.check(operator, preview, reason);
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
        return runner.apply(operator, preview, reason, source, progress, cancelled);
    }

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
        return closer.close(operator, batchId, source);
    }

    /**
     * @param beforeId null for the newest, else the id of the last batch of the previous page
     * @param limit batches per page, 1..1000
     * @return batches newest first
     */
    public List<BulkBatch> batches(Long beforeId, int limit) {
        return records.batches(beforeId, limit);
    }

    /**
     * @return the batch
     * @throws IllegalArgumentException when no batch has this id
     */
    public BulkBatch batch(long id) {
        return records.batch(id);
    }

    /**
     * One page of a batch's per-order results, by order id.
     *
     * @param outcome only this outcome, or null for all
     * @param afterOrderId null for the first page, else the last id of the previous page
     * @param limit rows per page, 1..1000
     */
    public List<BulkItem> items(long batchId, BulkItem.Outcome outcome, String afterOrderId, int limit) {
        return records.items(batchId, outcome, afterOrderId, limit);
    }

    /**
     * Writes a batch's per-order results as CSV (header {@link #CSV_HEADER}), streaming pages of 1,000.
     *
     * @return rows written
     */
    public long exportCsv(long batchId, Writer out) throws IOException {
        return records.exportCsv(batchId, out);
    }

    /**
     * Writes a batch and its per-order results as one JSON document {@code {"batch": {...}, "items": [...]}},
     * streaming pages of 1,000.
     *
     * @return items written
     */
    public long exportJson(long batchId, OutputStream out) throws IOException {
        return records.exportJson(batchId, out);
    }
}
