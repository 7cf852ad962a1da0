package com.orderconsole.service.transition;

import com.orderconsole.domain.HistoryEntry;
import com.orderconsole.domain.Operator;
import com.orderconsole.domain.OrderStatus;
import com.orderconsole.domain.ResultCode;
import com.orderconsole.domain.Role;
import com.orderconsole.domain.TransitionRequest;
import com.orderconsole.domain.TransitionResult;
import com.orderconsole.redis.MalformedOrderException;
import com.orderconsole.redis.OrderStateStore;
import com.orderconsole.redis.RedisConnection;
import com.orderconsole.redis.RedisKeys;
import com.orderconsole.redis.RedisUnavailableException;
import com.orderconsole.redis.TransitionScript;
import com.orderconsole.service.Access;
import com.orderconsole.service.LogLimiter;
import com.orderconsole.service.follower.CatchUp;
import com.orderconsole.service.follower.Follower;
import com.orderconsole.service.order.OrderRebuilder;
import com.orderconsole.service.rules.RulesService;
import com.orderconsole.store.Database;
import com.orderconsole.store.DeadLetterRow;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.Executor;
import java.util.concurrent.ForkJoinPool;

/**
 * The one way to change an order's status: runs transition.lua and handles what the script cannot:
 * rebuilding missing Redis state from MySQL (code -1) and republishing missing rules (code -5), each
 * followed by one retry. Rejections are logged with order id, from, target and code; the script
 * counts every code in Redis. Applied transitions reach MySQL through the outbox ({@link Follower}).
 */
public final class TransitionService implements Transitions {
    private static final Logger log = LoggerFactory.getLogger(TransitionService.class);

    private final RedisConnection redis;
    private final OrderStateStore states;
    private final Database db;
    private final OrderRebuilder rebuilder;
    private final RulesService rules;
    private final Access access;
    private final Follower follower;
    private final com.orderconsole.service.AuditTrail audit;
    /** The marker of the Redis data set MySQL follows: a Redis with another one is an older copy (issue 33.5). */
    private final com.orderconsole.service.RecordedMarker marker;
    // Rebuilds read MySQL (blocking); keep them off Lettuce's event-loop threads.
    private final Executor blocking = ForkJoinPool.commonPool();
    private final LogLimiter rejections = new LogLimiter(30_000);
    private volatile TransitionObserver observer = TransitionObserver.NONE;
    private volatile boolean fenceOn = true;

    /**
     * Built by the wiring ({@code app.Services}).
     *
     * @param follower woken after every recorded outcome, and waited for by {@link #transitionAndWait}
     * @param audit where an override is recorded before it runs (the follower requires the record)
     * @param marker the marker of the Redis data set MySQL follows, compared with Redis' before every transition
     */
    public TransitionService(RedisConnection redis, OrderStateStore states, Database db, OrderRebuilder rebuilder, RulesService rules,
                             Follower follower, com.orderconsole.service.AuditTrail audit, Access access,
                             com.orderconsole.service.RecordedMarker marker) {
        this.marker = marker;
        this.audit = audit;
        this.redis = redis;
        this.states = states;
        this.db = db;
        this.rebuilder = rebuilder;
        this.rules = rules;
        this.follower = follower;
        this.access = access;
    }

    /**
     * Applies a transition and waits until the MySQL follower has written its recorded outcome (applied or
     * rejected, and everything before it) to MySQL: what the console's move buttons and the CLI's
     * {@code transition} do, so that the history they show next already holds the attempt.
     *
     * @param operator who acts; written to the history
     * @param request what to do
     * @param mysqlWait how long to wait for MySQL, e.g. 30 s; the transition stands either way
     * @return the outcome and whether MySQL has it
     * @throws com.orderconsole.domain.PermissionDeniedException when the role is insufficient
     * @throws com.orderconsole.redis.RedisUnavailableException when Redis does not answer in time
     */
    public TransitionOutcome transitionAndWait(Operator operator, TransitionRequest request, Duration mysqlWait) {
        TransitionResult r = transition(operator, request);
        if (r.code() == ResultCode.STATE_MISSING || r.code() == ResultCode.RULES_MISSING || r.code() == ResultCode.MALFORMED
                || r.code() == ResultCode.RESTORING) {
            return new TransitionOutcome(r, null); // the script recorded nothing
        }
        CatchUp mysql = follower.catchUp(mysqlWait);
        if (mysql.caughtUp() && r.applied()) {
            mysql = recordedInMySql(r);
        }
        return new TransitionOutcome(r, mysql);
    }

    /**
     * Nothing pending is not the same as "MySQL has this move": the follower sets aside an entry whose version MySQL's
     * history records as another status (a history conflict), and then nothing is pending either. Found in the
     * new-user trial: a row a support account inserted at the order's next version made a real move answer "applied,
     * MySQL in sync" while MySQL kept the inserted row.
     *
     * @return caught up when MySQL's history holds the move at its version, else why not in words
     */
    private CatchUp recordedInMySql(TransitionResult r) {
        HistoryEntry held = db.read(t -> t.history().appliedAt(r.orderId(), r.version()));
        if (held != null && held.to() == r.target()) {
            return new CatchUp(true, "");
        }
        return new CatchUp(false, "MySQL's history records version " + r.version() + " of order " + r.orderId() + " as "
                + (held == null ? "nothing" : held.to()) + ", not " + r.target() + ": the follower set this move aside "
                + "(see the dead letters); MySQL's history is the durable record");
    }

    /**
     * Applies a transition for an operator, blocking until the script answered.
     *
     * <p>Support may make moves the rules allow; an override (any target, rules not consulted)
     * needs admin and the version the operator saw.
     *
     * @param operator who acts; written to the history
     * @param request what to do
     * @return the outcome (rejections are results, not exceptions)
     * @throws com.orderconsole.domain.PermissionDeniedException when the role is insufficient
     * @throws com.orderconsole.redis.RedisUnavailableException when Redis does not answer in time
     */
    public TransitionResult transition(Operator operator, TransitionRequest request) {
        try {
            return redis.await(transitionAsync(operator, request), "transition " + request.orderId());
        } catch (RedisUnavailableException e) {
            // transitionAsync's failures already say it; the wait's own timeout does not.
            throw e instanceof Unanswered ? e : new Unanswered(e);
        }
    }

    /**
     * A transition Redis did not answer (no answer in time, connection lost): the script may have run and only its answer
     * been lost, so a blind retry could apply a second move. Said by every caller, blocking or not (the HTTP API's 503: 10
     * of 256 moves answered 503 in a Redis stall had been applied).
     */
    private static final class Unanswered extends RedisUnavailableException {
        Unanswered(RedisUnavailableException e) {
            super(e.getMessage() + "; the transition may still have been applied: look the order up before trying again (or "
                    + "retry with its version, compare-and-set)", e);
        }
    }

    /**
     * Asynchronous {@link #transition}: many calls may be in flight at once (Lettuce pipelines them).
     *
     * @return a future with the outcome; fails with {@link RedisUnavailableException} when Redis does not answer or the
     *     connection is lost (its words say the move may still have been applied), else with the Redis error
     */
    public CompletableFuture<TransitionResult> transitionAsync(Operator operator, TransitionRequest request) {
        access.require(operator, Role.SUPPORT, "change order status");
        if (request.override()) {
            access.require(operator, Role.ADMIN, "override the transition rules");
            if (request.reason().isBlank()) {
                throw new IllegalArgumentException("an override needs a reason");
            }
            if (request.target() == OrderStatus.WAIT_PAY) {
                throw new IllegalArgumentException("an override cannot move an order back to WAIT_PAY (it has no payment deadline any more)");
            }
        }
        long started = System.nanoTime();
        CompletableFuture<Void> recorded = !request.override() ? CompletableFuture.completedFuture(null)
                // Before the script: a move out of a terminal status reaches MySQL only with this record (Follower's
                // sequence check), so an entry planted in the outbox cannot pass for an override. An override the
                // script then refuses (-3, the order moved) leaves a record no history row matches: harmless.
                : CompletableFuture.runAsync(() -> audit.record(operator, request.source(), com.orderconsole.service.AuditTrail.OVERRIDE,
                        request.orderId(), request.reason(), com.orderconsole.store.AuditStore.overrideDetail(request.target().name(),
                                request.expectedVersion() + 1)), blocking);
        // The fence first (issue 25, 33.5): a Redis found behind MySQL holds states MySQL contradicts (an order MySQL
        // has as PAID may be WAIT_PAY here), so nothing may move on it until its restore from MySQL is done.
        CompletableFuture<TransitionResult> moved = request.override() ? recorded.thenCompose(v -> fencedMove(operator, request))
                : fencedMove(operator, request);
        // One stage for what follows every call: the observer, waking the follower, the rejection log, the failure's words.
        return moved.handle((r, e) -> {
            observer.transitionEnded(r, e, System.nanoTime() - started);
            if (e != null) {
                // A lost connection fails the future with Lettuce's own words; callers that do not await (the HTTP API,
                // bulk) get the readable RedisUnavailableException instead, saying the move may have been applied.
                RuntimeException f = redis.failure(e, "transition " + request.orderId());
                throw new CompletionException(f instanceof RedisUnavailableException u && !(f instanceof Unanswered) ? new Unanswered(u) : f);
            }
            if (r.applied()) {
                follower.nudge();
            } else {
                // Rejections are business as usual (a late payment after the timeout cancel, a repeated
                // callback): counted by the script, one line per code every half minute here.
                long held = rejections.occurrence("code " + r.code().code());
                if (held >= 0) {
                    log.info("transition rejected: order={} from={} target={} code={} ({}) actor={} source={}{}",
                            r.orderId(), r.from(), r.target(), r.code().code(), r.code().description(), operator.name(),
                            request.source(), rejections.more(held));
                }
                if (r.code() != ResultCode.STATE_MISSING && r.code() != ResultCode.MALFORMED && r.code() != ResultCode.RESTORING) {
                    follower.nudge();
                }
            }
            return r;
        });
    }

    /**
     * Runs the script behind the data-set fence: nothing moves on a Redis behind MySQL. On a single
     * server the fence is checked by transition.lua itself, in the same call (no round trip of its own): not fenced
     * ({@code osm:fenced}), Redis' marker ({@code osm:epoch}) the one MySQL recorded at the last restore as this process
     * holds it, and, when due ({@link Follower#fenceLookDue}: at once after the known position moved, else at most every
     * 100 ms per bucket), the bucket's outbox still reaching the entry MySQL applied last as this process knows it. When
     * the script finds another marker or an outbox that no longer reaches, it writes nothing and {@link #behindMySql}
     * asks MySQL (off Lettuce's threads); the script then runs again without the fence, or the move is refused. On a
     * Redis Cluster the two data-set keys live in another slot, so they are read ahead of the script.
     *
     * @return the outcome, {@link ResultCode#RESTORING} when refused by the fence
     */
    private CompletableFuture<TransitionResult> fencedMove(Operator operator, TransitionRequest request) {
        if (!fenceOn) {
            return move(operator, request);
        }
        if (!states.script().fencesInScript()) {
            return behindMySql(request, false).thenCompose(refuse -> refuse ? states.script().refuseFenced(request) : move(operator, request));
        }
        String expected = marker.recorded();
        if (expected == null) {
            marker.refreshSoon(); // none recorded yet: read in the background, never on this path
        }
        String through = lookAt(RedisKeys.bucket(request.orderId()), expected, false);
        return states.script().transitionFencedAsync(request, operator.name(), expected, through).thenCompose(r -> r != null
                ? heal(operator, request, r, true, true)
                : behindMySql(request, true).thenCompose(refuse -> refuse ? states.script().refuseFenced(request) : move(operator, request)));
    }

    /** The script without the fence, then the remedies of {@link #heal}. */
    private CompletableFuture<TransitionResult> move(Operator operator, TransitionRequest request) {
        return states.script().transitionAsync(request, operator.name()).thenCompose(r -> heal(operator, request, r, true, true));
    }

    /**
     * @param always look even when the last look at this bucket is less than 100 ms old
     * @return the outbox position a transition checks in the bucket ({@link Follower#appliedThrough}), or null for none
     */
    private String lookAt(int bucket, String expected, boolean always) {
        String through = expected == null ? null : follower.appliedThrough(bucket, expected);
        return through != null && (always || follower.fenceLookDue(bucket)) ? through : null;
    }

    /**
     * Must this transition be refused because Redis is behind MySQL (issue 25, 33.5)? Asked of Redis first:
     * {@code GET osm:fenced}, {@code GET osm:epoch} (compared with the marker MySQL recorded at the last restore, as this
     * process holds it) and, when due (or {@code always}), {@code XRANGE} of the bucket's outbox from the entry MySQL
     * applied last as this process knows it, {@code COUNT 1}. MySQL is asked (off Lettuce's threads) only when Redis shows
     * something off: another marker (an older copy, or once after another process restored Redis) or an outbox that no
     * longer reaches that entry. The judgement is then {@link Follower#fenceHolds}'s, which fences the data set.
     *
     * @param always look at the outbox whatever the time of the last look (the script just found it not reaching)
     * @return true when the transition is to be refused ({@link ResultCode#RESTORING})
     */
    private CompletableFuture<Boolean> behindMySql(TransitionRequest request, boolean always) {
        String expected = marker.recorded();
        int bucket = RedisKeys.bucket(request.orderId());
        String through = lookAt(bucket, expected, always);
        TransitionScript script = states.script();
        CompletableFuture<String> fenced = script.fencedAsync();
        CompletableFuture<String> inRedis = script.markerAsync();
        CompletableFuture<Boolean> reaches = through == null ? CompletableFuture.completedFuture(true)
                : script.outboxReachesAsync(bucket, through);
        return CompletableFuture.allOf(fenced, inRedis, reaches).thenCompose(v -> {
            String m = inRedis.join();
            if (fenced.join() != null) {
                return CompletableFuture.completedFuture(true);
            }
            if (m == null) {
                return CompletableFuture.completedFuture(false); // Redis lost its data: the script answers -1/-5, healed below
            }
            if (expected == null) {
                marker.refreshSoon(); // none recorded yet: read in the background, never on this path
                return CompletableFuture.completedFuture(false);
            }
            if (m.equals(expected) && reaches.join()) {
                return CompletableFuture.completedFuture(false);
            }
            return CompletableFuture.supplyAsync(() -> !follower.fenceHolds(bucket, m, "a transition"), blocking);
        });
    }

    /** Benchmark only (the fence's cost in the same run): false runs every transition without the fence. */
    void fence(boolean on) {
        fenceOn = on;
    }

    /** @param o told about every call when it ends (the metrics); replaces the one before */
    public void observe(TransitionObserver o) {
        this.observer = o == null ? TransitionObserver.NONE : o;
    }

    /**
     * Handles what the script cannot: state missing (rebuild from MySQL, then retry), rules missing
     * (republish, then retry), a malformed record (set aside). Each remedy runs at most once per call,
     * so a retry that meets the other problem (e.g. Redis lost its data: state and rules gone) is still healed.
     */
    private CompletableFuture<TransitionResult> heal(Operator operator, TransitionRequest request, TransitionResult r,
                                                     boolean mayRebuild, boolean mayRepublish) {
        if (r.code() == ResultCode.STATE_MISSING && mayRebuild) {
            return CompletableFuture.supplyAsync(() -> rebuilder.rebuild(request.orderId()), blocking)
                    .thenCompose(found -> found
                            ? states.script().transitionAsync(request, operator.name()).thenCompose(again -> heal(operator, request, again, false, mayRepublish))
                            : CompletableFuture.completedFuture(r));
        }
        if (r.code() == ResultCode.RULES_MISSING && mayRepublish) {
            return CompletableFuture.runAsync(rules::republish, blocking)
                    .thenCompose(v -> states.script().transitionAsync(request, operator.name()))
                    .thenCompose(again -> heal(operator, request, again, mayRebuild, false));
        }
        if (r.code() == ResultCode.MALFORMED) {
            return CompletableFuture.supplyAsync(() -> {
                setAside(request.orderId());
                return r;
            }, blocking);
        }
        return CompletableFuture.completedFuture(r);
    }

    /**
     * Sets a malformed order record aside in the dead-letter list (once while open), so that ops see it
     * with what is wrong and can restore it from MySQL. MySQL being down only delays this to the next attempt.
     */
    private void setAside(String orderId) {
        String problem;
        try {
            states.get(orderId);
            return; // fixed meanwhile
        } catch (MalformedOrderException e) {
            problem = e.problem();
        }
        String raw = states.raw(orderId);
        try {
            boolean added = db.inTransaction(t -> t.deadLetters().add(DeadLetterRow.open(DeadLetterRow.ORDER_RECORD, orderId,
                    RedisKeys.bucket(orderId), null, "order record in Redis is malformed: " + problem, raw,
                    System.currentTimeMillis(), DeadLetterRow.recordKey(orderId))));
            if (added) {
                log.warn("set aside order {}: its Redis record is malformed ({}); ops can restore it from MySQL", orderId, problem);
            }
        } catch (RuntimeException e) {
            log.warn("order {} has a malformed Redis record ({}) and could not be set aside now: {}", orderId, problem,
                    e.getMessage());
        }
    }
}
