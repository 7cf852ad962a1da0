package com.orderconsole.service.recon;

import com.orderconsole.domain.Operator;
import com.orderconsole.redis.OrderStateStore;
import com.orderconsole.service.order.OrderRebuilder;

/** MISSING_IN_REDIS: rebuilds the order's Redis state from its MySQL row, never overwriting state Redis has meanwhile. */
final class RebuildRedisRepair implements Repair.OneByOne {
    private final OrderStateStore states;
    private final OrderRebuilder rebuilder;

    RebuildRedisRepair(OrderStateStore states, OrderRebuilder rebuilder) {
        this.states = states;
        this.rebuilder = rebuilder;
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
        rebuilder.rebuild(f.orderId());
        return "Redis rebuilt from MySQL: " + Repair.describe(states.get(f.orderId()));
    }
}
