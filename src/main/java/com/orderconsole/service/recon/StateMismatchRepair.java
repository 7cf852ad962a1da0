package com.orderconsole.service.recon;

import com.orderconsole.domain.Operator;
import com.orderconsole.domain.OrderState;
import com.orderconsole.domain.OrderStatus;
import com.orderconsole.redis.OrderStateStore;
import com.orderconsole.service.order.OrderRebuilder;
import com.orderconsole.store.Database;
import com.orderconsole.store.OrderRow;

/**
 * STATE_MISMATCH: first the follower catches up; then a row behind its own MySQL history follows that history,
 * and a Redis state older than MySQL's follows MySQL. Nothing MySQL's history does not record is written to it.
 */
final class StateMismatchRepair implements Repair.OneByOne {
    private final OrderStateStore states;
    private final Database db;
    private final OrderRebuilder rebuilder;
    private final ReconFollower follower;

    StateMismatchRepair(OrderStateStore states, Database db, OrderRebuilder rebuilder, ReconFollower follower) {
        this.states = states;
        this.db = db;
        this.rebuilder = rebuilder;
        this.follower = follower;
    }

    @Override
    public ReconciliationService.RepairStep plan(ReconFinding f) {
        return f.redisVersion() > f.mysqlVersion()
                ? new ReconciliationService.RepairStep(f.orderId(), "MySQL history → MySQL row", Repair.redisSide(f))
                : new ReconciliationService.RepairStep(f.orderId(), "MySQL → Redis", Repair.mysqlSide(f));
    }

    @Override
    public void prepare() {
        follower.catchUp();
    }

    @Override
    public String apply(ReconFinding f, Operator operator, String reason) {
        String id = f.orderId();
        OrderState st = states.get(id);
        OrderRow row = db.read(t -> t.orders().find(id));
        if (st == null || row == null) {
            throw new IllegalStateException("order disappeared from " + (st == null ? "Redis" : "MySQL"));
        }
        if (st.version() > row.version) {
            // Only what MySQL's own history records is applied to the row; anything else is not a repair.
            if (!follower.reapplyHistory(id, st.version(), st.status())) {
                throw new IllegalStateException("Redis is ahead of MySQL and MySQL's history has no such version: it is "
                        + "listed as " + ReconCategory.REDIS_UNEXPLAINED.label() + " on the next compare");
            }
            return "MySQL row follows its history: was " + OrderStatus.ofCode(row.status) + " v" + row.version + ", now "
                    + st.status() + " v" + st.version();
        }
        if (row.version > st.version() || row.status != st.status().code()) {
            // MySQL holds the newer record (Redis restored from an older copy): Redis follows it.
            OrderState now = rebuilder.restoreFromMysql(id);
            return "Redis restored from MySQL: was " + Repair.describe(st) + ", now " + Repair.describe(now);
        }
        return null;
    }
}
