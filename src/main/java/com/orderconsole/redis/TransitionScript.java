package com.orderconsole.redis;

import com.orderconsole.domain.ControlChars;
import com.orderconsole.domain.Failures;
import com.orderconsole.domain.OrderStatus;
import com.orderconsole.domain.ResultCode;
import com.orderconsole.domain.TransitionRequest;
import com.orderconsole.domain.TransitionResult;
import io.lettuce.core.ScriptOutputType;
import io.lettuce.core.cluster.api.async.RedisClusterAsyncCommands;

import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;

/**
 * transition.lua, the only code that changes an order's status in Redis: its call, its reply, and the reads of the
 * data-set fence it is checked against. Times are epoch milliseconds, Redis server clock.
 */
public final class TransitionScript {
    /** transition.lua's answer when the fence wants MySQL's word: another marker, or an outbox that no longer reaches. */
    static final String FENCE_WANTS_MYSQL = "-8,0,0,0";

    private final RedisConnection redis;
    private final RedisClusterAsyncCommands<String, String> async;

    TransitionScript(RedisConnection redis) {
        this.redis = redis;
        this.async = redis.commands();
    }

    /**
     * Runs transition.lua for one request, with no look at the data-set fence (a retry after a remedy, or after the fence
     * was judged by MySQL).
     *
     * @param request what to do
     * @param actor who does it (written to the outbox)
     * @return the outcome; completes exceptionally when Redis fails
     */
    public CompletableFuture<TransitionResult> transitionAsync(TransitionRequest request, String actor) {
        return run(request, actor, false, null, null);
    }

    /** @return true when transition.lua checks the data-set fence itself (a single server; see {@link #fencedAsync}) */
    public boolean fencesInScript() {
        return !redis.isCluster();
    }

    /**
     * Runs transition.lua for one request with the data-set fence checked inside the script, in the same call: the data
     * set is not fenced ({@link RedisKeys#FENCED}), Redis' marker ({@link RedisKeys#EPOCH}) is {@code marker} (or absent:
     * Redis lost its data), and the bucket's outbox still reaches {@code outboxFrom}. A single server only
     * ({@link #fencesInScript}): on a Redis Cluster those two keys live in another slot than the order's.
     *
     * @param request what to do
     * @param actor who does it (written to the outbox)
     * @param marker the marker MySQL recorded, as the caller holds it; null compares none
     * @param outboxFrom a stream id MySQL applied in the order's bucket, e.g. "1764577000123-0"; null looks at none
     * @return the outcome ({@link ResultCode#RESTORING} when the data set is fenced, counted like the script's -1); null
     *     when Redis carries another marker or its outbox no longer reaches {@code outboxFrom}: nothing was written, and the
     *     caller asks MySQL whether Redis went back in time. Completes exceptionally when Redis fails
     */
    public CompletableFuture<TransitionResult> transitionFencedAsync(TransitionRequest request, String actor, String marker,
                                                                     String outboxFrom) {
        return run(request, actor, true, marker, outboxFrom);
    }

    private CompletableFuture<TransitionResult> run(TransitionRequest request, String actor, boolean fence, String marker,
                                                    String outboxFrom) {
        if (actor == null || actor.isEmpty() || ControlChars.in(actor)) {
            // The outbox entry keeps the actor on a line of its own (transition.lua's one-field entry).
            throw new IllegalArgumentException("actor must be 1 or more characters with no control character");
        }
        String id = request.orderId();
        int b = RedisKeys.bucket(id);
        // transition.lua's packed arguments: the target with its guards, if any, and the entry's three texts.
        String target = Integer.toString(request.target().code());
        if (request.expectedVersion() != null || request.override() || request.onlyFrom() != null) {
            target += "," + (request.expectedVersion() == null ? "" : Long.toString(request.expectedVersion())) + ","
                    + (request.override() ? "1" : "0") + "," + (request.onlyFrom() == null ? "" : Integer.toString(request.onlyFrom().code()));
        }
        String texts = actor + "\n" + request.source() + "\n" + request.reason();
        CompletableFuture<String> f = fence
                ? redis.evalAsync(LuaScript.TRANSITION, ScriptOutputType.VALUE, new String[]{RedisKeys.order(id), RedisKeys.rules(b),
                        RedisKeys.outbox(b), RedisKeys.cancelQueue(b), RedisKeys.stats(b), RedisKeys.EPOCH, RedisKeys.FENCED},
                        id, target, texts, marker == null ? "" : marker, outboxFrom == null ? "" : outboxFrom)
                : redis.evalAsync(LuaScript.TRANSITION, ScriptOutputType.VALUE, new String[]{RedisKeys.order(id), RedisKeys.rules(b),
                        RedisKeys.outbox(b), RedisKeys.cancelQueue(b), RedisKeys.stats(b)}, id, target, texts);
        return transitionResult(request, f);
    }

    /**
     * Reads transition.lua's reply, one text {@code "<code>,<from>,<version>,<now ms>"} (a text, not a
     * table: the table reply cost the server 3-5 µs per call, see the script's header).
     *
     * @param request the request the reply answers
     * @param reply the reply as Lettuce's VALUE output gives it; an integer or a table reply fails it with
     *     Lettuce's UnsupportedOperationException
     * @return the outcome; null for the fence's {@value #FENCE_WANTS_MYSQL}; fails with an IllegalStateException naming the order and what came back when the
     *     reply is not in that form (another script under the same SHA, a server that altered it), never with
     *     a half-read result; Redis errors pass through as they are
     */
    static CompletableFuture<TransitionResult> transitionResult(TransitionRequest request, CompletableFuture<String> reply) {
        return reply.handle((r, err) -> {
            if (err == null) {
                return FENCE_WANTS_MYSQL.equals(r) ? null : transitionResult(request, r);
            }
            Throwable cause = Failures.unwrap(err);
            if (cause instanceof UnsupportedOperationException) {
                throw notTheReply(request, "a reply that is not one text (" + cause.getMessage() + ")");
            }
            throw err instanceof CompletionException ce ? ce : new CompletionException(cause);
        });
    }

    /** @see #transitionResult(TransitionRequest, CompletableFuture) */
    static TransitionResult transitionResult(TransitionRequest request, String reply) {
        if (reply != null) {
            String[] p = reply.split(",", -1);
            if (p.length == 4) {
                try {
                    int code = Integer.parseInt(p[0]);
                    int from = Integer.parseInt(p[1]);
                    long version = Long.parseLong(p[2]);
                    long now = Long.parseLong(p[3]);
                    if ((from == 0 || from >= 1 && from <= OrderStatus.values().length) && version >= 0) {
                        return new TransitionResult(request.orderId(), ResultCode.ofCode(code),
                                from == 0 ? null : OrderStatus.ofCode(from), request.target(), version, now);
                    }
                } catch (IllegalArgumentException e) {
                    // not a number, or a code no script returns: reported below with the whole reply
                }
            }
        }
        throw notTheReply(request, reply == null ? "nothing" : "'" + reply + "'");
    }

    private static IllegalStateException notTheReply(TransitionRequest request, String shown) {
        return new IllegalStateException("transition of order " + request.orderId() + ": the transition script answered " + shown
                + ", not 'code,from status,version,time in ms' (is the script Redis ran the one this version of the console loaded?)");
    }

    /**
     * Reads the data-set fence ({@link RedisKeys#FENCED}) ahead of a transition on a Redis Cluster, where transition.lua
     * cannot ({@link #fencesInScript}).
     *
     * @return why the data set is fenced (Redis is being restored from MySQL), or null when it is not
     */
    public CompletableFuture<String> fencedAsync() {
        return async.get(RedisKeys.FENCED).toCompletableFuture();
    }

    /**
     * Reads the data-set marker ({@link RedisKeys#EPOCH}) ahead of a transition on a Redis Cluster (the service compares it with the marker
     * MySQL recorded).
     *
     * @return the marker, or null when Redis has none (it lost its data, or is being restored)
     */
    public CompletableFuture<String> markerAsync() {
        return async.get(RedisKeys.EPOCH).toCompletableFuture();
    }

    /**
     * Does the bucket's outbox still reach entry {@code id}, i.e. hold an entry at or after it (one {@code XRANGE id + COUNT
     * 1})? The follower's trim keeps the entry MySQL applied last, so a live outbox always reaches any position MySQL
     * applied; a copy of Redis older than that position does not (issue 33.5).
     *
     * @param bucket the bucket
     * @param id a stream id MySQL applied, e.g. "1764577000123-0"
     * @return true when it reaches it
     */
    public CompletableFuture<Boolean> outboxReachesAsync(int bucket, String id) {
        return async.xrange(RedisKeys.outbox(bucket), io.lettuce.core.Range.create(id, "+"), io.lettuce.core.Limit.create(0, 1))
                .toCompletableFuture().thenApply(l -> !l.isEmpty());
    }

    /**
     * The answer to a transition refused without running the script because the data set is fenced: counted in the
     * order's bucket ({@code c:-7}, like the script's own -1 and -6), time from the Redis clock.
     *
     * @return the outcome {@link ResultCode#RESTORING}, nothing else written
     */
    public CompletableFuture<TransitionResult> refuseFenced(TransitionRequest request) {
        int b = RedisKeys.bucket(request.orderId());
        CompletableFuture<Long> counted = async.hincrby(RedisKeys.stats(b), "c:" + ResultCode.RESTORING.code(), 1).toCompletableFuture();
        return counted.thenCombine(async.time().toCompletableFuture(), (n, t) -> new TransitionResult(request.orderId(),
                ResultCode.RESTORING, null, request.target(), 0, Long.parseLong(t.get(0)) * 1000 + Long.parseLong(t.get(1)) / 1000));
    }
}
