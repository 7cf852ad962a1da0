package com.orderconsole.service;

import com.orderconsole.domain.OrderStatus;

import java.time.Duration;
import java.util.EnumMap;
import java.util.Map;

/**
 * How long an order may stay in a non-terminal status before it counts as stuck. Defaults: WAIT_PAY
 * 30 min, PAID 2 h, WAIT_SHIP 48 h, SHIPPED 14 days (typical e-commerce service levels: pay within the
 * checkout timeout, hand to the warehouse the same day, ship within two days, deliver within two weeks).
 * Thread-safe; the console lets the user change them.
 */
public final class StuckThresholds {
    private final Map<OrderStatus, Duration> limits = new EnumMap<>(OrderStatus.class);

    public StuckThresholds() {
        limits.put(OrderStatus.WAIT_PAY, Duration.ofMinutes(30));
        limits.put(OrderStatus.PAID, Duration.ofHours(2));
        limits.put(OrderStatus.WAIT_SHIP, Duration.ofHours(48));
        limits.put(OrderStatus.SHIPPED, Duration.ofDays(14));
    }

    /** @return the threshold for a status, or null for statuses that are never stuck (terminal ones) */
    public synchronized Duration get(OrderStatus status) {
        return limits.get(status);
    }

    /**
     * @param status a status
     * @param limit positive duration, or null to never count this status as stuck
     */
    public synchronized void set(OrderStatus status, Duration limit) {
        if (limit == null) {
            limits.remove(status);
        } else if (limit.isNegative() || limit.isZero()) {
            throw new IllegalArgumentException("stuck threshold for " + status + " must be positive, got " + limit);
        } else {
            limits.put(status, limit);
        }
    }

    /** @return a copy of all thresholds */
    public synchronized Map<OrderStatus, Duration> all() {
        return new EnumMap<>(limits);
    }
}
