package com.orderconsole.service.queue;

import com.orderconsole.domain.Operator;
import com.orderconsole.domain.OrderId;
import com.orderconsole.domain.OrderState;
import com.orderconsole.domain.OrderStatus;
import com.orderconsole.domain.Role;
import com.orderconsole.domain.TransitionRequest;
import com.orderconsole.domain.TransitionResult;
import com.orderconsole.redis.CancelQueueStore;
import com.orderconsole.redis.OrderStateStore;
import com.orderconsole.redis.QueueEntry;
import com.orderconsole.redis.RedisConnection;
import com.orderconsole.redis.RedisKeys;
import com.orderconsole.service.Access;
import com.orderconsole.service.AuditTrail;
import com.orderconsole.service.order.OrderNotFoundException;
import com.orderconsole.service.order.OrderService;
import com.orderconsole.service.transition.TransitionService;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/** The cancel-queue monitor's reads and the operator actions on single entries (role ops). */
public final class QueueService implements CancelQueue {
    private static final Logger log = LoggerFactory.getLogger(QueueService.class);

    private final RedisConnection redis;
    private final CancelQueueStore queue;
    private final OrderStateStore states;
    private final TransitionService transitions;
    private final CancelSweeper sweeper;
    private final OrderService orders;
    private final Access access;
    private final AuditTrail audit;

    /** Built by the wiring ({@code app.Services}). */
    public QueueService(RedisConnection redis, CancelQueueStore queue, OrderStateStore states, TransitionService transitions,
                        CancelSweeper sweeper, OrderService orders, Access access, AuditTrail audit) {
        this.audit = audit;
        this.redis = redis;
        this.queue = queue;
        this.states = states;
        this.orders = orders;
        this.transitions = transitions;
        this.sweeper = sweeper;
        this.access = access;
    }

    /** @return depth, overdue count, oldest overdue age, next due and sweeper state (one round per bucket) */
    public QueueSummary summary() {
        long now = redis.nowMs();
        long depth = 0;
        long overdue = 0;
        Long oldest = null;
        Long next = null;
        for (int b = 0; b < RedisKeys.buckets(); b++) {
            depth += queue.size(b);
            long o = queue.overdue(b, now);
            overdue += o;
            if (o > 0) {
                QueueEntry first = queue.entries(b, 0, 1).get(0);
                long age = now - first.expireAtMs();
                oldest = oldest == null ? age : Math.max(oldest, age);
            }
            QueueEntry n = queue.nextDue(b, now);
            if (n != null) {
                next = next == null ? n.expireAtMs() : Math.min(next, n.expireAtMs());
            }
        }
        return new QueueSummary(depth, overdue, oldest, next, now, sweeper.status());
    }

    /**
     * One page of the whole queue in expiry order, merged across buckets, keyset on (deadline, order id): the order
     * Redis keeps a ZSET in, so entries added or removed meanwhile never shift a page (an offset would) and a page
     * deep in a long queue costs its own size per bucket.
     *
     * @param after the cursor of the page before ({@link QueuePage#nextCursor()}), null for the first page
     * @param limit entries per page, 1..1000
     * @return the page, with the cursor of the next one (null when none follows)
     * @throws IllegalArgumentException for a bad limit or a malformed cursor, in words
     */
    public QueuePage page(String after, int limit) {
        if (limit < 1 || limit > 1000) {
            throw new IllegalArgumentException("page size must be 1..1000, got " + limit);
        }
        long afterMs = Long.MIN_VALUE;
        String afterId = null;
        if (after != null) {
            int colon = after.indexOf(':');
            try {
                afterMs = Long.parseLong(after.substring(0, Math.max(colon, 0)));
            } catch (NumberFormatException e) {
                colon = -1;
            }
            if (colon < 0 || colon == after.length() - 1) {
                throw new IllegalArgumentException("malformed queue page cursor");
            }
            afterId = after.substring(colon + 1);
        }
        long now = redis.nowMs();
        List<QueueEntry> all = new ArrayList<>();
        for (int b = 0; b < RedisKeys.buckets(); b++) {
            all.addAll(after == null ? queue.entries(b, 0, limit + 1L) : entriesAfter(b, afterMs, afterId, limit + 1));
        }
        all.sort(QUEUE_ORDER);
        List<QueueEntry> page = all.subList(0, Math.min(limit, all.size()));
        QueueEntry last = page.isEmpty() ? null : page.get(page.size() - 1);
        return new QueuePage(items(page, now), all.size() > limit ? last.expireAtMs() + ":" + last.orderId() : null);
    }

    /** Redis's own order of a ZSET: by score, then by member. */
    private static final Comparator<QueueEntry> QUEUE_ORDER = Comparator.comparingLong(QueueEntry::expireAtMs)
            .thenComparing(QueueEntry::orderId);

    /** Up to {@code count} entries of a bucket strictly after (afterMs, afterId), skipping that deadline's earlier ids. */
    private List<QueueEntry> entriesAfter(int bucket, long afterMs, String afterId, int count) {
        List<QueueEntry> out = new ArrayList<>(count);
        QueueEntry cursor = new QueueEntry(afterId, afterMs);
        long offset = 0;
        while (out.size() < count) {
            List<QueueEntry> batch = queue.entriesFrom(bucket, afterMs, offset, count);
            for (QueueEntry e : batch) {
                if (QUEUE_ORDER.compare(e, cursor) > 0 && out.size() < count) {
                    out.add(e);
                }
            }
            if (batch.size() < count) {
                break;
            }
            offset += batch.size();
        }
        return out;
    }

    /**
     * @param orderId an order id as typed
     * @return the order's queue entry with its current status, empty when it has none
     * @throws IllegalArgumentException when the id is not a well-formed order id, in words
     */
    public Optional<QueueItem> find(String orderId) {
        OrderId.require(orderId);
        Long expiry = queue.score(orderId);
        if (expiry == null) {
            return Optional.empty();
        }
        return Optional.of(items(List.of(new QueueEntry(orderId, expiry)), redis.nowMs()).get(0));
    }

    private List<QueueItem> items(List<QueueEntry> page, long now) {
        Map<String, OrderState> byId = states.getAll(page.stream().map(QueueEntry::orderId).toList());
        List<QueueItem> out = new ArrayList<>(page.size());
        for (QueueEntry e : page) {
            OrderState st = byId.get(e.orderId());
            OrderStatus s = st == null ? null : st.status();
            out.add(new QueueItem(e.orderId(), e.expireAtMs(), e.expireAtMs() - now, s, s != OrderStatus.WAIT_PAY));
        }
        return out;
    }

    /**
     * Cancels an unpaid order now, through the transition script (role ops).
     *
     * @param reason why, kept in the history
     * @return the outcome (rejected when the order has left WAIT_PAY)
     */
    public TransitionResult cancelNow(Operator operator, String orderId, String reason) {
        access.require(operator, Role.OPS, "cancel orders from the queue");
        return transitions.transition(operator, TransitionRequest.of(orderId, OrderStatus.CANCELLED, "queue",
                reason == null || reason.isBlank() ? "cancelled from the queue monitor" : reason).onlyFrom(OrderStatus.WAIT_PAY));
    }

    /**
     * Removes an order's entry on purpose without touching the order (role ops): the order will not be cancelled
     * by the timeout any more. The removal is recorded in MySQL's audit trail with who, why and the deadline removed
     * before the entry goes (MySQL down: nothing changes), and that record is what tells it from drift: reconciliation
     * lists the order as removed on purpose and never queues it again, the order's details say it; extending its
     * deadline queues it again on purpose.
     *
     * <p>An id that breaks the id rule is taken when an entry holds exactly those characters, as typed or as the product
     * prints them (control characters as {@code \}{@code uXXXX}, e.g. {@code NL-2\}{@code u000a}): such an entry, stored
     * before ids were checked or by hand, is what ops clear this way. Its audit row names the id printable in its detail
     * and leaves the row's order id empty.
     *
     * @param orderId the order's id, or the exact characters of a malformed one found in the queue
     * @param source where: console, cli
     * @param reason why (may be empty)
     * @return true when there was an entry
     * @throws IllegalArgumentException when the id breaks the id rule and no entry holds it, in words
     */
    public boolean remove(Operator operator, String orderId, String source, String reason) {
        access.require(operator, Role.OPS, "remove cancel-queue entries");
        String id = exactEntry(orderId);
        Long before = queue.score(id);
        boolean wellFormed = OrderId.isValid(id);
        if (before != null) {
            audit.record(operator, source, AuditTrail.QUEUE_REMOVE, wellFormed ? id : null, reason, (wellFormed ? ""
                    : "malformed order id '" + OrderId.printable(id) + "': ") + "payment deadline "
                    + java.time.Instant.ofEpochMilli(before) + " removed (epoch ms " + before + ")");
        }
        boolean removed = before != null && queue.dequeue(id);
        log.info("{} removed the cancel-queue entry of order {} (existed: {})", operator.name(), OrderId.printable(id), removed);
        return removed;
    }

    /**
     * @return the id a removal acts on: a well-formed one as given; otherwise the queue entry with exactly these
     *     characters, or with the characters its printed form stands for
     */
    private String exactEntry(String typed) {
        if (typed != null && !OrderId.isValid(typed) && !typed.isEmpty()) {
            if (queue.score(typed) != null) {
                return typed;
            }
            String unescaped = OrderId.fromPrintable(typed);
            if (!unescaped.equals(typed) && queue.score(unescaped) != null) {
                return unescaped;
            }
        }
        try {
            return OrderId.require(typed);
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException(e.getMessage() + "; no cancel-queue entry holds exactly this id either", e);
        }
    }

    /**
     * Moves an unpaid order's expiry later (role ops), recorded in the audit trail with who, why, and
     * the deadline before and after.
     *
     * @param by how much later than the current expiry (or than now, when the entry is missing), positive
     * @param source where: console, cli
     * @param reason why (may be empty)
     * @return the new expiry, epoch ms
     * @throws IllegalStateException when the order is not waiting for payment
     */
    public long extend(Operator operator, String orderId, Duration by, String source, String reason) {
        access.require(operator, Role.OPS, "extend payment deadlines");
        OrderId.require(orderId);
        if (by == null || by.isNegative() || by.isZero()) {
            throw new IllegalArgumentException("extension must be positive, got " + by);
        }
        Long current = queue.score(orderId);
        long base = current != null ? current : redis.nowMs();
        long expiry = base + by.toMillis();
        int r = queue.requeue(orderId, expiry);
        if (r == -1) {
            throw new OrderNotFoundException(orderId);
        }
        if (r == 0) {
            throw new IllegalStateException("order " + orderId + " is not waiting for payment; its queue entry was removed");
        }
        orders.recordExpiry(operator, orderId, expiry, source, reason, "payment deadline "
                + (current == null ? "none" : current) + " -> " + expiry + " (epoch ms)");
        log.info("{} extended the payment deadline of order {} to {}", operator.name(), orderId, expiry);
        return expiry;
    }

    /**
     * Pauses or resumes every sweeper: {@link CancelSweeper#setPaused}, which the queue page and {@code queue pause}
     * reach through the cancel queue.
     */
    @Override
    public void setPaused(Operator operator, boolean paused, String source, String reason) {
        sweeper.setPaused(operator, paused, source, reason);
    }
}
