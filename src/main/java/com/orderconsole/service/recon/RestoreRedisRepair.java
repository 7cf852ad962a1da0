package com.orderconsole.service.recon;

import com.orderconsole.domain.Operator;
import com.orderconsole.domain.OrderState;
import com.orderconsole.redis.OrderStateStore;
import com.orderconsole.service.order.OrderRebuilder;

/**
 * MALFORMED_IN_REDIS and REDIS_UNEXPLAINED: Redis holds something no recorded transition explains, so its state
 * is replaced by MySQL's, the durable record; an order MySQL does not know stays in the dead-letter list.
 */
final class RestoreRedisRepair implements Repair.OneByOne {
    private final OrderStateStore states;
    private final OrderRebuilder rebuilder;

    RestoreRedisRepair(OrderStateStore states, OrderRebuilder rebuilder) {
        this.states = states;
        this.rebuilder = rebuilder;
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
        OrderState now = rebuilder.restoreFromMysql(f.orderId());
        if (now == null) {
            throw new IllegalStateException("MySQL has no record of it: it stays in the dead-letter list");
        }
        return "Redis restored from MySQL: was " + before + ", now " + Repair.describe(now);
    }
}
