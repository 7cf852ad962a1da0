package com.orderconsole.service.bulk;

import com.orderconsole.domain.OrderState;
import com.orderconsole.domain.OrderStatus;
import com.orderconsole.domain.ResultCode;
import com.orderconsole.domain.TransitionRules;
import com.orderconsole.redis.OrderStateStore;
import com.orderconsole.redis.RedisConnection;
import com.orderconsole.service.order.OrderPage;
import com.orderconsole.service.order.OrderService;
import com.orderconsole.service.order.OrderSummary;
import com.orderconsole.service.rules.RulesService;
import com.orderconsole.store.Database;
import com.orderconsole.store.OrderRow;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.EnumMap;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CancellationException;
import java.util.function.BooleanSupplier;

/**
 * The read-only half of a bulk transition: reads the chosen orders and says what a move would do by the rules in
 * force, keeping the version of each order it saw (the compare-and-set values of the apply). Split from
 * {@link BulkService} because it writes nothing and needs only reads (rules, Redis states, MySQL pages), while
 * running a batch is all about writing its record.
 */
final class BulkPlanner {
    /** Rows per keyset page when reading orders. */
    static final int PAGE = 1000;

    private final RedisConnection clock;
    private final OrderStateStore states;
    private final Database db;
    private final OrderService orders;
    private final RulesService rules;
    private final int maxOrders;

    BulkPlanner(RedisConnection clock, OrderStateStore states, Database db, OrderService orders, RulesService rules, int maxOrders) {
        this.clock = clock;
        this.states = states;
        this.db = db;
        this.orders = orders;
        this.rules = rules;
        this.maxOrders = maxOrders;
    }

    /** See {@link BulkService#preview}. */
    BulkPreview preview(BulkScope scope, OrderStatus target, boolean override, BulkProgress progress, BooleanSupplier cancelled) {
        if (target == null) {
            throw new IllegalArgumentException("no target status given");
        }
        TransitionRules r = rules.current();
        Collector c = new Collector(r, target, override, maxOrders);
        List<String> unknown = new ArrayList<>();
        if (scope.isSelection()) {
            if (scope.orderIds().size() > maxOrders) {
                throw new BulkTooLargeException(maxOrders);
            }
            List<String> ids = scope.orderIds();
            for (int from = 0; from < ids.size(); from += PAGE) {
                checkCancelled(cancelled);
                List<String> page = ids.subList(from, Math.min(ids.size(), from + PAGE));
                Map<String, OrderState> redis = states.getAll(page);
                Map<String, OrderRow> mysql = new HashMap<>();
                db.read(t -> t.orders().findAll(page)).forEach(row -> mysql.put(row.orderId, row));
                for (String id : page) {
                    if (redis.get(id) == null && mysql.get(id) == null) {
                        unknown.add(id);
                    } else {
                        c.add(OrderService.summarize(mysql.get(id), redis.get(id), id));
                    }
                }
                progress.report(c.size, ids.size(), BulkCounts.ZERO);
            }
        } else {
            String cursor = null;
            do {
                checkCancelled(cancelled);
                OrderPage page = orders.page(scope.filter(), cursor, PAGE);
                page.rows().forEach(c::add);
                cursor = page.nextCursor();
                progress.report(c.size, -1, BulkCounts.ZERO);
            } while (cursor != null);
        }
        return c.preview(scope, unknown, clock.nowMs());
    }

    private static void checkCancelled(BooleanSupplier cancelled) {
        if (cancelled.getAsBoolean()) {
            throw new CancellationException("preview cancelled: nothing was changed");
        }
    }

    /** What a move from {@code from} to {@code target} does, in the order transition.lua decides it (version aside). */
    static ResultCode expected(TransitionRules r, OrderStatus from, OrderStatus target, boolean override) {
        if (from == target) {
            return ResultCode.ALREADY_IN_STATUS;
        }
        if (override) {
            return ResultCode.APPLIED;
        }
        if (r.isTerminal(from)) {
            return ResultCode.TERMINAL;
        }
        return r.allows(from, target) ? ResultCode.APPLIED : ResultCode.NOT_ALLOWED;
    }

    /** Gathers the preview while pages are read: counts per target, the sample, the seen states in columns. */
    private static final class Collector {
        private final TransitionRules rules;
        private final OrderStatus target;
        private final boolean override;
        private final int cap;
        private final int[] apply = new int[OrderStatus.values().length];
        private final int[] reject = new int[OrderStatus.values().length];
        private final Map<ResultCode, Integer> rejectByCode = new EnumMap<>(ResultCode.class);
        private final List<String> sampleApply = new ArrayList<>();
        private final List<String> sampleReject = new ArrayList<>();
        private String[] ids = new String[1024];
        private byte[] statuses = new byte[1024];
        private long[] versions = new long[1024];
        private int size;

        Collector(TransitionRules rules, OrderStatus target, boolean override, int cap) {
            this.rules = rules;
            this.target = target;
            this.override = override;
            this.cap = cap;
        }

        void add(OrderSummary s) {
            if (size == cap) {
                throw new BulkTooLargeException(cap);
            }
            OrderStatus status = s.status();
            // Redis leads; an order whose Redis state is missing is rebuilt from MySQL by the transition service.
            long version = s.redisStatus() != null ? s.redisVersion() : s.mysqlVersion();
            if (size == ids.length) {
                int n = Math.min(cap, size * 2);
                ids = Arrays.copyOf(ids, n);
                statuses = Arrays.copyOf(statuses, n);
                versions = Arrays.copyOf(versions, n);
            }
            ids[size] = s.orderId();
            statuses[size] = (byte) status.code();
            versions[size] = version;
            size++;
            for (OrderStatus t : OrderStatus.values()) {
                boolean ok = expected(rules, status, t, override && t != OrderStatus.WAIT_PAY) == ResultCode.APPLIED;
                if (ok) {
                    apply[t.ordinal()]++;
                } else {
                    reject[t.ordinal()]++;
                }
            }
            ResultCode code = expected(rules, status, target, override);
            if (code.applied()) {
                if (sampleApply.size() < BulkService.SAMPLE) {
                    sampleApply.add(s.orderId());
                }
            } else {
                rejectByCode.merge(code, 1, Integer::sum);
                if (sampleReject.size() < BulkService.SAMPLE) {
                    sampleReject.add(s.orderId());
                }
            }
        }

        BulkPreview preview(BulkScope scope, List<String> unknown, long nowMs) {
            List<TargetCount> per = new ArrayList<>();
            for (OrderStatus t : OrderStatus.values()) {
                per.add(new TargetCount(t, apply[t.ordinal()], reject[t.ordinal()]));
            }
            List<String> sample = new ArrayList<>(sampleApply);
            sample.addAll(sampleReject);
            return new BulkPreview(scope, target, override, rules.version(), size, apply[target.ordinal()],
                    Map.copyOf(rejectByCode), List.copyOf(per), List.copyOf(sample), List.copyOf(unknown), nowMs,
                    new BulkPreview.Seen(ids, statuses, versions, size));
        }
    }
}
