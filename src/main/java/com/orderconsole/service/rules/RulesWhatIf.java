package com.orderconsole.service.rules;

import com.orderconsole.domain.OrderStatus;
import com.orderconsole.domain.TransitionRules;
import com.orderconsole.redis.RedisConnection;
import com.orderconsole.redis.StatsStore;
import com.orderconsole.service.rules.StuckThresholds;
import com.orderconsole.store.CountRow;
import com.orderconsole.store.Database;
import com.orderconsole.store.OrderPageQuery;

import java.time.Duration;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * The what-if of a rules change: per status whose exits change, how many live orders would lose every
 * exit, which exits stuck orders could take today would disappear (with their traffic in the last hour),
 * whether WAIT_PAY → CANCELLED survives (the cancel sweeper's move), with sample order ids.
 * Read-only, any role: counts come from what the engine already keeps (Redis live counters, MySQL stuck
 * counts and history), a few indexed reads per changed status; nothing is scanned.
 */
public final class RulesWhatIf implements WhatIf {
    private final RulesService rules;
    private final RedisConnection clock;
    private final StatsStore stats;
    private final Database db;
    private final StuckThresholds stuck;

    /** Built by the wiring ({@code app.Services}); {@code clock} gives Redis {@code TIME}. */
    public RulesWhatIf(RulesService rules, RedisConnection clock, StatsStore stats, Database db, StuckThresholds stuck) {
        this.rules = rules;
        this.clock = clock;
        this.stats = stats;
        this.db = db;
        this.stuck = stuck;
    }

    /**
     * Computes what a rules document would do if applied now. The document need not be valid: its
     * faults are returned with the impact of what could be read (an invalid document is never applied).
     *
     * @param json a rules document, as {@link RulesService#set} takes it
     * @return the impact; {@link RulesImpact#readable()} is false for a document that is not even JSON
     */
    public RulesImpact whatIf(String json) {
        TransitionRules now = rules.current();
        RulesJson.Draft d = RulesJson.draft(json, now.version() + 1);
        long at = clock.nowMs();
        if (!d.readable()) {
            return new RulesImpact(now.version(), List.of(), true, 0, List.of(), d.faults(), false, at);
        }
        Map<String, Long> counters = stats.all();
        Map<OrderStatus, Duration> limits = stuck.all();
        Map<String, Long> lastHour = new HashMap<>();
        List<CountRow> edges = db.read(t -> t.history().appliedEdgesSince(at - Duration.ofHours(1).toMillis()));
        edges.forEach(r -> lastHour.put(r.key + ">" + r.key2, r.n));
        List<RulesImpact.StatusImpact> out = new ArrayList<>();
        for (OrderStatus s : OrderStatus.values()) {
            Set<OrderStatus> before = now.targets(s);
            Set<OrderStatus> after = d.terminal().contains(s) ? Set.of() : d.edges().getOrDefault(s, Set.of());
            Set<OrderStatus> removed = EnumSet.noneOf(OrderStatus.class);
            removed.addAll(before);
            removed.removeAll(after);
            if (removed.isEmpty()) {
                continue;
            }
            List<RulesImpact.RemovedExit> gone = removed.stream().map(to -> new RulesImpact.RemovedExit(s, to,
                    lastHour.getOrDefault(s.code() + ">" + to.code(), 0L))).toList();
            long live = Math.max(0, counters.getOrDefault("n:" + s.code(), 0L));
            Duration limit = limits.get(s);
            long stuckBefore = limit == null ? 0 : at - limit.toMillis();
            long stuckN = limit == null ? 0 : db.read(t -> t.orders().countStuck(s.code(), stuckBefore));
            List<String> sample = sample(s);
            out.add(new RulesImpact.StatusImpact(s, Set.copyOf(before), Set.copyOf(after), gone, live, stuckN,
                    !before.isEmpty() && after.isEmpty(), sample));
        }
        boolean keeps = !d.terminal().contains(OrderStatus.WAIT_PAY)
                && d.edges().getOrDefault(OrderStatus.WAIT_PAY, Set.of()).contains(OrderStatus.CANCELLED);
        long waitPay = Math.max(0, counters.getOrDefault("n:" + OrderStatus.WAIT_PAY.code(), 0L));
        List<String> waitPaySample = keeps ? List.of() : sample(OrderStatus.WAIT_PAY);
        return new RulesImpact(now.version(), out, keeps, waitPay, waitPaySample, d.faults(), true, at);
    }

    /** A few ids in a status, longest in it first (stuck ones lead); one keyset read of {@link RulesImpact#SAMPLE} rows. */
    private List<String> sample(OrderStatus s) {
        OrderPageQuery q = new OrderPageQuery();
        q.statuses = List.of(s.code());
        q.byAge = true;
        q.limit = RulesImpact.SAMPLE;
        return db.read(t -> t.orders().page(q)).stream().map(r -> r.orderId).toList();
    }
}
