package com.orderconsole.service.recon;

import com.orderconsole.domain.Operator;
import com.orderconsole.redis.OrderStateStore;
import com.orderconsole.service.order.OrderService;

/** MISSING_IN_REDIS: rebuilds the order's Redis state from its MySQL row, never overwriting state Redis has meanwhile. */
final class RebuildRedisRepair implements Repair.OneByOne {
    private final OrderStateStore states;
    private final OrderService orders;

    RebuildRedisRepair(OrderStateStore states, OrderService orders) {
        this.states = states;
        this.orders = orders;
    }

    @Override
    public ReconciliationService.RepairStep plan(ReconFinding f) {
        return RestoreRedisRepair.mysqlToRedis(f);
    }

    @Override
    public String apply(ReconFinding f, Operator operator, String reason) {
        if (states.get(f.orderId()) != null) {
            return null;
        }
        orders.rebuild(f.orderId());
        return "Redis rebuilt from MySQL: " + Repair.describe(states.get(f.orderId()));
    }
}
