package com.orderconsole.service.recon;

import com.orderconsole.domain.OrderId;
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
        return OrderId.isValid(f.orderId()) ? new ReconciliationService.RepairStep(f.orderId(), "MySQL deadline → cancel queue", "queued")
                : new ReconciliationService.RepairStep(f.orderId(), "none: the id breaks the id rule", "not queued");
    }

    /**
     * Never queues an id that breaks the id rule: the sweeper cannot cancel it, and the entry would stand first in its
     * bucket again (the sweeper sets such an entry aside and takes it out of the queue).
     */
    @Override
    public String apply(ReconFinding f, Operator operator, String reason) {
        if (!OrderId.isValid(f.orderId())) {
            throw new IllegalStateException("order id '" + OrderId.printable(f.orderId()) + "' breaks the id rule: the sweeper "
                    + "cannot cancel it, so it is not queued again; see its dead letter");
        }
        if (!db.read(t -> t.audit().queueRemovals(java.util.List.of(f.orderId()))).isEmpty()) {
            return null; // removed on purpose since the compare: never put back
        }
        OrderRow row = db.read(t -> t.orders().find(f.orderId()));
        long expiry = row != null && row.expireAtMs != null ? row.expireAtMs : clock.nowMs();
        return queue.requeue(f.orderId(), expiry) == 1 ? "queued with payment deadline " + expiry + " (epoch ms)" : null;
    }
}
