package com.orderconsole.service.recon;

import com.orderconsole.domain.Operator;
import com.orderconsole.redis.CancelQueueStore;
import com.orderconsole.redis.RedisConnection;
import com.orderconsole.store.Database;
import com.orderconsole.store.OrderRow;

/**
 * WAIT_PAY_WITHOUT_QUEUE: queues the unpaid order for cancellation at its MySQL payment deadline (now when it has none),
 * unless an operator has removed its entry on purpose since the compare (its audit row says so): that one is left alone.
 */
final class RequeueRepair implements Repair.OneByOne {
    private final RedisConnection clock;
    private final CancelQueueStore queue;
    private final Database db;

    RequeueRepair(RedisConnection clock, CancelQueueStore queue, Database db) {
        this.clock = clock;
        this.queue = queue;
        this.db = db;
    }

    @Override
    public ReconciliationService.RepairStep plan(ReconFinding f) {
        return new ReconciliationService.RepairStep(f.orderId(), "MySQL deadline → cancel queue", "queued");
    }

    @Override
    public String apply(ReconFinding f, Operator operator, String reason) {
        if (!db.read(t -> t.audit().queueRemovals(java.util.List.of(f.orderId()))).isEmpty()) {
            return null; // removed on purpose since the compare: never put back
        }
        OrderRow row = db.read(t -> t.orders().find(f.orderId()));
        long expiry = row != null && row.expireAtMs != null ? row.expireAtMs : clock.nowMs();
        return queue.requeue(f.orderId(), expiry) == 1 ? "queued with payment deadline " + expiry + " (epoch ms)" : null;
    }
}
