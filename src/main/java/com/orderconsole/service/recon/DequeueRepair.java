package com.orderconsole.service.recon;

import com.orderconsole.domain.Operator;
import com.orderconsole.domain.OrderState;
import com.orderconsole.domain.OrderStatus;
import com.orderconsole.redis.CancelQueueStore;
import com.orderconsole.redis.OrderStateStore;

/** QUEUE_ENTRY_NOT_WAIT_PAY: removes the cancel-queue entry of an order that is not (or no longer) waiting for payment. */
final class DequeueRepair implements Repair.OneByOne {
    private final OrderStateStore states;
    private final CancelQueueStore queue;

    DequeueRepair(OrderStateStore states, CancelQueueStore queue) {
        this.states = states;
        this.queue = queue;
    }

    @Override
    public ReconciliationService.RepairStep plan(ReconFinding f) {
        return new ReconciliationService.RepairStep(f.orderId(), "cancel queue", "entry removed");
    }

    @Override
    public String apply(ReconFinding f, Operator operator, String reason) {
        OrderState st = states.get(f.orderId());
        if (st == null || st.status() != OrderStatus.WAIT_PAY) {
            return queue.dequeue(f.orderId()) ? "queue entry removed (order is " + Repair.describe(st) + ")" : null;
        }
        return null;
    }
}
