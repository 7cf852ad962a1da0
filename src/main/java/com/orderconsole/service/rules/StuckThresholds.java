package com.orderconsole.service.rules;

import com.orderconsole.domain.OrderStatus;
import com.orderconsole.domain.TransitionRules;

import java.time.Duration;
import java.util.EnumMap;
import java.util.Map;
import java.util.Objects;
import java.util.function.Supplier;

/**
 * How long an order may stay in a non-terminal status before it counts as stuck: the thresholds stored
 * with the rules in force (the "stuck" part of the rules document, versioned and archived with it, so the
 * console, the CLI and a restarted process all count the same; defaults in
 * {@link TransitionRules#DEFAULT_STUCK}). Change them with
 * {@link com.orderconsole.service.rules.RulesService#setStuckThresholds}. Thread-safe.
 */
public final class StuckThresholds {
    private final Supplier<TransitionRules> rules;

    /** @param rules the rules in force (read at most once a second by the rules service) */
    public StuckThresholds(Supplier<TransitionRules> rules) {
        this.rules = Objects.requireNonNull(rules, "rules");
    }

    /** @return the threshold for a status, or null for statuses that are never stuck (terminal ones) */
    public Duration get(OrderStatus status) {
        return rules.get().stuck().get(status);
    }

    /** @return a copy of all thresholds */
    public Map<OrderStatus, Duration> all() {
        Map<OrderStatus, Duration> out = new EnumMap<>(OrderStatus.class);
        out.putAll(rules.get().stuck());
        return out;
    }
}
