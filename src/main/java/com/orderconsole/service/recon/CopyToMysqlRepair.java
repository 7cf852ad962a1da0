package com.orderconsole.service.recon;

import com.orderconsole.domain.HistoryEntry;
import com.orderconsole.domain.Operator;
import com.orderconsole.domain.OrderState;
import com.orderconsole.domain.OrderStatus;
import com.orderconsole.domain.ResultCode;
import com.orderconsole.redis.CancelQueueStore;
import com.orderconsole.redis.OrderStateStore;
import com.orderconsole.redis.RedisConnection;
import com.orderconsole.service.order.OrderService;
import com.orderconsole.store.Database;
import com.orderconsole.store.OrderRow;

/**
 * MISSING_IN_MYSQL: copies a Redis-only order into MySQL with a history row that says so. No recorded transition
 * explains it, so this is an admin override with a reason ({@link ReconCategory#MISSING_IN_MYSQL}'s policy); the row is created only through the one creation path
 * ({@link OrderService#recordFromRedis}).
 */
final class CopyToMysqlRepair implements Repair.OneByOne {
    private final RedisConnection clock;
    private final OrderStateStore states;
    private final CancelQueueStore queue;
    private final Database db;
    private final OrderService orders;

    CopyToMysqlRepair(RedisConnection clock, OrderStateStore states, CancelQueueStore queue, Database db, OrderService orders) {
        this.clock = clock;
        this.states = states;
        this.queue = queue;
        this.db = db;
        this.orders = orders;
    }

    @Override
    public ReconciliationService.RepairStep plan(ReconFinding f) {
        return new ReconciliationService.RepairStep(f.orderId(), "Redis → MySQL (admin override, with a history row)", Repair.redisSide(f));
    }

    @Override
    public String apply(ReconFinding f, Operator operator, String reason) {
        String id = f.orderId();
        OrderState st = states.get(id);
        if (st == null || db.read(t -> t.orders().find(id)) != null) {
            return null;
        }
        Long expiry = st.status() == OrderStatus.WAIT_PAY ? queue.score(id) : null;
        long now = clock.nowMs();
        HistoryEntry h = new HistoryEntry(id, null, st.status(), st.version(), ResultCode.APPLIED, operator.name(),
                "repair", "copied from Redis, no recorded transition: " + reason.strip(), now, "repair:" + id + ":" + st.version());
        boolean stored = orders.recordFromRedis(new OrderRow(id, null, st.status().code(), st.version(), st.createTimeMs(),
                st.updateTimeMs(), expiry, false), h);
        return stored ? "MySQL row created from Redis: " + Repair.describe(st) : null;
    }
}
