package com.orderconsole.service.recon;

import com.orderconsole.domain.OrderState;
import com.orderconsole.domain.OrderStatus;
import com.orderconsole.redis.CancelQueueStore;
import com.orderconsole.redis.OrderStateStore;
import com.orderconsole.redis.QueueEntry;
import com.orderconsole.redis.RedisKeys;
import com.orderconsole.store.AuditRow;
import com.orderconsole.store.Database;

import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * The cancel-queue side of a compare, split out of {@link ReconciliationService}: phase 3 (queue entries of orders not
 * waiting for payment) and the second read of every candidate finding. An unpaid order without an entry whose last
 * queue action in MySQL's audit trail is a deliberate removal is no drift: it is found as
 * {@link ReconCategory#QUEUE_REMOVED_ON_PURPOSE}, naming that audit row, and never queued again.
 */
final class QueueCompare {
    private static final int PAGE = 1000;
    private static final DateTimeFormatter UTC = DateTimeFormatter.ofPattern("yyyy-MM-dd HH:mm:ss 'UTC'", Locale.ROOT)
            .withZone(ZoneOffset.UTC);

    private final OrderStateStore states;
    private final CancelQueueStore queue;
    private final Database db;

    QueueCompare(OrderStateStore states, CancelQueueStore queue, Database db) {
        this.states = states;
        this.queue = queue;
        this.db = db;
    }

    /** Phase 3: cancel-queue entries of orders that are not waiting for payment. */
    void compareQueues(CompareRun c) {
        for (int b = 0; b < RedisKeys.buckets() && !c.stop; b++) {
            for (long off = 0; ; off += PAGE) {
                List<QueueEntry> entries = queue.entries(b, off, PAGE);
                if (entries.isEmpty()) {
                    break;
                }
                // Checked: a record that exists but is malformed is not "no Redis state".
                com.orderconsole.redis.OrderStateStore.States checked = states.getAllChecked(
                        entries.stream().map(QueueEntry::orderId).toList());
                for (QueueEntry e : entries) {
                    OrderState st = checked.states().get(e.orderId());
                    String bad = checked.malformed().get(e.orderId());
                    if (bad != null) {
                        c.recheck.add(new ReconFinding(ReconCategory.QUEUE_ENTRY_NOT_WAIT_PAY, e.orderId(), null, 0, null, 0,
                                "order's Redis record is malformed: " + bad, FindingDetail.QUEUE_MALFORMED, List.of(bad)));
                    } else if (st == null || st.status() != OrderStatus.WAIT_PAY) {
                        c.recheck.add(new ReconFinding(ReconCategory.QUEUE_ENTRY_NOT_WAIT_PAY, e.orderId(), null, 0,
                                st == null ? null : st.status(), st == null ? 0 : st.version(),
                                st == null ? "order has no Redis state" : "order is " + st.status(),
                                st == null ? FindingDetail.QUEUE_NO_STATE : FindingDetail.QUEUE_ORDER_IS, st == null ? List.of() : List.of(st.status())));
                    }
                }
                confirm(c);
                c.recheck.clear();
                if (entries.size() < PAGE) {
                    break;
                }
            }
            c.progress.update("cancel queues", c.done, c.total);
            c.stop = c.cancelled.getAsBoolean();
        }
    }

    /**
     * Reads each candidate again and keeps those that still disagree: an order created between the
     * MySQL and the Redis step, or paid between reading its state and its queue entry, is no finding. An unpaid order
     * whose entry an operator removed on purpose is kept as that, with its audit row.
     */
    void confirm(CompareRun c) {
        List<ReconFinding> candidates = c.recheck;
        for (int from = 0; from < candidates.size(); from += PAGE) {
            List<ReconFinding> page = candidates.subList(from, Math.min(candidates.size(), from + PAGE));
            List<String> ids = page.stream().map(ReconFinding::orderId).toList();
            Map<String, OrderState> now = states.getAll(ids);
            Map<String, Long> entries = queue.scores(ids);
            List<String> unqueued = page.stream().filter(f -> f.category() == ReconCategory.WAIT_PAY_WITHOUT_QUEUE)
                    .map(ReconFinding::orderId).toList();
            Map<String, AuditRow> removed = unqueued.isEmpty() ? Map.of() : db.read(t -> t.audit().queueRemovals(unqueued));
            for (ReconFinding f : page) {
                OrderState st = now.get(f.orderId());
                boolean still = switch (f.category()) {
                    case MISSING_IN_REDIS -> st == null;
                    case WAIT_PAY_WITHOUT_QUEUE -> st != null && st.status() == OrderStatus.WAIT_PAY && entries.get(f.orderId()) == null;
                    case QUEUE_ENTRY_NOT_WAIT_PAY -> entries.get(f.orderId()) != null && (st == null || st.status() != OrderStatus.WAIT_PAY);
                    default -> true;
                };
                AuditRow removal = removed.get(f.orderId());
                if (still && f.category() == ReconCategory.WAIT_PAY_WITHOUT_QUEUE && removal != null) {
                    c.add(onPurpose(f, removal));
                } else if (still) {
                    c.add(f);
                }
            }
        }
    }

    /** @return the finding of an order taken out of the queue on purpose, naming the audit row that records it */
    private static ReconFinding onPurpose(ReconFinding f, AuditRow removal) {
        String at = UTC.format(java.time.Instant.ofEpochMilli(removal.atMs));
        String reason = removal.reason == null ? "" : removal.reason;
        return new ReconFinding(ReconCategory.QUEUE_REMOVED_ON_PURPOSE, f.orderId(), f.mysqlStatus(), f.mysqlVersion(),
                f.redisStatus(), f.redisVersion(), "removed from the cancel queue on purpose by " + removal.actor + " at " + at
                + " (audit row " + removal.id + "): " + (reason.isBlank() ? "no reason given" : reason),
                FindingDetail.REMOVED_ON_PURPOSE, List.of(removal.actor, at, removal.id, reason));
    }
}
