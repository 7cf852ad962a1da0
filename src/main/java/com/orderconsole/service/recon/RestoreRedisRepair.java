package com.orderconsole.service.recon;

import com.orderconsole.domain.Operator;
import com.orderconsole.domain.OrderState;
import com.orderconsole.redis.OrderStateStore;
import com.orderconsole.service.order.OrderService;

/**
 * MALFORMED_IN_REDIS and REDIS_UNEXPLAINED: Redis holds something no recorded transition explains, so its state
 * is replaced by MySQL's, the durable record; an order MySQL does not know stays in the dead-letter list.
 */
final class RestoreRedisRepair implements Repair.OneByOne {
    private final OrderStateStore states;
    private final OrderService orders;

    RestoreRedisRepair(OrderStateStore states, OrderService orders) {
        this.states = states;
        this.orders = orders;
    }

    /** @return the dry-run step of a repair that copies MySQL's record into Redis */
    static ReconciliationService.RepairStep mysqlToRedis(ReconFinding f) {
        return new ReconciliationService.RepairStep(f.orderId(), "MySQL → Redis",
                f.mysqlStatus() == null ? "left to the dead-letter list" : Repair.mysqlSide(f));
    }

    @Override
    public ReconciliationService.RepairStep plan(ReconFinding f) {
        return mysqlToRedis(f);
    }

    @Override
    public String apply(ReconFinding f, Operator operator, String reason) {
        String before = states.raw(f.orderId());
        OrderState now = orders.restoreFromMysql(f.orderId());
        if (now == null) {
            throw new IllegalStateException("MySQL has no record of it: it stays in the dead-letter list");
        }
        return "Redis restored from MySQL: was " + before + ", now " + Repair.describe(now);
    }
}
