package com.orderconsole.service.follower;

import com.orderconsole.domain.HistoryEntry;
import com.orderconsole.domain.OrderState;
import com.orderconsole.domain.OrderStatus;
import com.orderconsole.domain.TransitionRules;
import com.orderconsole.redis.OrderStateStore;
import com.orderconsole.service.LogLimiter;
import com.orderconsole.store.Database;
import com.orderconsole.store.OrderRow;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.time.Duration;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.BooleanSupplier;
import java.util.function.Function;
import java.util.function.Supplier;

/**
 * Redis holds what is live: an order in a terminal status (one the rules in force give no outgoing
 * edge, FINISHED and CANCELLED by default) leaves Redis a retention after it became terminal, once
 * MySQL holds it durably. The follower calls {@link #afterCommit} with what it has just committed; a
 * terminal order read or transitioned after that is rebuilt from MySQL ({@link #rebuiltRetireAtMs}),
 * never as a fresh WAIT_PAY order.
 *
 * <p>Why after the follower's commit and not in the transition script: before the commit the hash is
 * the only copy of the order's newest state. Times are epoch ms from the Redis server clock (the
 * outbox entry's time is the Redis {@code TIME} of the transition).
 */
public final class TerminalRetention {
    private static final Logger log = LoggerFactory.getLogger(TerminalRetention.class);
    /**
     * A terminal order rebuilt on access stays at least this long (or the retention, if shorter), so
     * that the lookup or transition that rebuilt it finds it; else an order finished long ago would
     * expire as soon as it was rebuilt.
     */
    public static final Duration REBUILD_GRACE = Duration.ofMinutes(10);

    private final Duration retention;
    private final Supplier<TransitionRules> rules;
    private final OrderStateStore states;
    private final Database db;
    private final LogLimiter failures = new LogLimiter(60_000);

    /**
     * @param retention how long a terminal order stays in Redis after it became terminal (positive)
     * @param rules the rules in force (a status without outgoing edge is terminal)
     * @param states the order hashes
     * @param db MySQL, the durable record {@link #retireUntracked} checks each order against
     */
    public TerminalRetention(Duration retention, Supplier<TransitionRules> rules, OrderStateStore states, Database db) {
        if (retention == null || retention.isNegative() || retention.isZero()) {
            throw new IllegalArgumentException("the terminal retention must be a positive duration, got " + retention);
        }
        this.retention = retention;
        this.rules = rules;
        this.states = states;
        this.db = db;
    }

    /** @return how long a terminal order stays in Redis after it became terminal */
    public Duration retention() {
        return retention;
    }

    /** @return true when the rules in force give {@code status} no outgoing edge */
    public boolean isTerminal(OrderStatus status) {
        return rules.get().targets(status).isEmpty();
    }

    /** @return the statuses terminal under the rules in force */
    public Set<OrderStatus> terminalStatuses() {
        EnumSet<OrderStatus> out = EnumSet.noneOf(OrderStatus.class);
        TransitionRules r = rules.get();
        for (OrderStatus s : OrderStatus.values()) {
            if (r.targets(s).isEmpty()) {
                out.add(s);
            }
        }
        return out;
    }

    /**
     * When a terminal order rebuilt from MySQL leaves Redis again.
     *
     * @param state the rebuilt state (its update time is when it became terminal, epoch ms)
     * @param nowMs Redis server time, epoch ms
     * @return epoch ms, or null when the status is not terminal (kept)
     */
    public Long rebuiltRetireAtMs(OrderState state, long nowMs) {
        if (!isTerminal(state.status())) {
            return null;
        }
        long grace = Math.min(retention.toMillis(), REBUILD_GRACE.toMillis());
        return Math.max(state.updateTimeMs() + retention.toMillis(), nowMs + grace);
    }

    /**
     * When terminal orders created from records (an import) leave Redis: as rebuilt ones
     * ({@link #rebuiltRetireAtMs}), so an import of orders finished years ago shows them for
     * {@link #REBUILD_GRACE} and then keeps only MySQL's copy.
     *
     * @param nowMs Redis server time, epoch ms, read once for the batch
     * @return per state, epoch ms, or null when its status is not terminal (kept)
     */
    public Function<OrderState, Long> createdRetireAt(long nowMs) {
        return st -> rebuiltRetireAtMs(st, nowMs);
    }

    /**
     * Called by the follower after its MySQL commit with the applied entries it committed: sets the
     * expiry of orders now terminal (the transition time plus the retention) and removes it from orders
     * an override moved out of a terminal status. Redis failing here costs only memory (the order stays
     * until it is next retired), so it is logged and never fails the follower.
     *
     * @param applied applied entries in outbox order
     * @return hashes whose expiry was set or removed
     */
    public int afterCommit(List<HistoryEntry> applied) {
        if (applied.isEmpty()) {
            return 0;
        }
        Map<String, HistoryEntry> newest = new LinkedHashMap<>();
        Map<String, Boolean> leftTerminal = new LinkedHashMap<>();
        for (HistoryEntry e : applied) {
            newest.merge(e.orderId(), e, (a, b) -> b.version() > a.version() ? b : a);
            if (e.from() != null && isTerminal(e.from())) {
                leftTerminal.put(e.orderId(), true);
            }
        }
        List<OrderStateStore.Retirement> out = new ArrayList<>();
        for (HistoryEntry e : newest.values()) {
            if (isTerminal(e.to())) {
                out.add(new OrderStateStore.Retirement(e.orderId(), e.version(), e.atMs() + retention.toMillis()));
            } else if (leftTerminal.containsKey(e.orderId())) {
                out.add(new OrderStateStore.Retirement(e.orderId(), e.version(), null));
            }
        }
        if (out.isEmpty()) {
            return 0;
        }
        try {
            return states.retire(out);
        } catch (RuntimeException e) {
            long held = failures.occurrence("retire");
            if (held >= 0) {
                log.warn("could not set the Redis expiry of {} terminal orders (they stay in Redis until next retired): {}{}",
                        out.size(), e.getMessage(), failures.more(held));
            }
            return 0;
        }
    }

    /**
     * Gives terminal orders in Redis that have no expiry theirs: orders stored before the retention
     * existed (an upgraded data set keeps every order it ever had), or whose expiry the follower could
     * not set. One SCAN pass per master in pages of 1,000; an order is retired only where MySQL's row has
     * its version and status (the durable record has it), at {@link #rebuiltRetireAtMs} (so it stays at
     * least {@link #REBUILD_GRACE}); a hash that has an expiry is left as it is.
     *
     * @param cancelled checked between pages; true stops the pass (what was done stays done)
     * @return hashes given an expiry
     */
    public long retireUntracked(BooleanSupplier cancelled) {
        long[] retired = {0};
        long now = states.nowMs();
        try {
            states.scan(1000, page -> {
                if (cancelled.getAsBoolean()) {
                    throw new StopPass();
                }
                List<String> terminal = new ArrayList<>();
                page.states().forEach((id, st) -> {
                    if (st != null && isTerminal(st.status())) {
                        terminal.add(id);
                    }
                });
                if (terminal.isEmpty()) {
                    return;
                }
                Map<String, OrderRow> rows = new LinkedHashMap<>();
                db.read(t -> t.orders().findAll(terminal)).forEach(r -> rows.put(r.orderId, r));
                List<OrderStateStore.Retirement> out = new ArrayList<>();
                for (String id : terminal) {
                    OrderState st = page.states().get(id);
                    OrderRow row = rows.get(id);
                    if (row != null && row.version == st.version() && row.status == st.status().code()) {
                        out.add(new OrderStateStore.Retirement(id, st.version(), rebuiltRetireAtMs(st, now), true));
                    }
                }
                retired[0] += out.isEmpty() ? 0 : states.retire(out);
            });
        } catch (StopPass e) {
            log.info("terminal-order pass stopped after giving {} orders their expiry", retired[0]);
        }
        if (retired[0] > 0) {
            log.info("gave {} terminal orders without an expiry theirs: they leave Redis {} after they became terminal "
                    + "(at least {} from now); MySQL keeps them", retired[0], retention, REBUILD_GRACE);
        }
        return retired[0];
    }

    /** Ends a pass between pages. */
    private static final class StopPass extends RuntimeException {
        StopPass() {
            super(null, null, false, false);
        }
    }
}
