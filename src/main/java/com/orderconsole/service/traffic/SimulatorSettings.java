package com.orderconsole.service.traffic;

import java.time.Duration;

/**
 * How the traffic simulator behaves.
 *
 * @param ordersPerSecond new orders per second, more than 0 and at most {@value #MAX_RATE}
 * @param payShare share of new orders paid in time, 0..1
 * @param latePayShare share of new orders whose payment arrives after the deadline, 0..1 (the sweeper
 *                     has cancelled them by then, so the payment is rejected with -2 "terminal")
 * @param paymentTimeout payment deadline of the simulated orders, at least 1 s (short values make demos move)
 */
public record SimulatorSettings(double ordersPerSecond, double payShare, double latePayShare, Duration paymentTimeout) {
    /** Highest accepted rate, orders per second. */
    public static final double MAX_RATE = 200;

    /** @throws IllegalArgumentException naming the first field out of range and its value */
    public SimulatorSettings {
        if (!(ordersPerSecond > 0 && ordersPerSecond <= MAX_RATE)) {
            throw new IllegalArgumentException("ordersPerSecond must be more than 0 and at most " + MAX_RATE + ", got " + ordersPerSecond);
        }
        if (!(payShare >= 0 && payShare <= 1)) {
            throw new IllegalArgumentException("payShare must be 0..1, got " + payShare);
        }
        if (!(latePayShare >= 0 && latePayShare <= 1)) {
            throw new IllegalArgumentException("latePayShare must be 0..1, got " + latePayShare);
        }
        if (payShare + latePayShare > 1.0000001) {
            throw new IllegalArgumentException("payShare + latePayShare must be at most 1, got " + payShare + " + " + latePayShare);
        }
        if (paymentTimeout == null || paymentTimeout.compareTo(Duration.ofSeconds(1)) < 0) {
            throw new IllegalArgumentException("paymentTimeout must be at least 1 s, got " + paymentTimeout);
        }
    }

    /** A lively demo: 5 orders/s, 80 % pay in time, 5 % pay late, 20 s payment timeout. */
    public static SimulatorSettings demo() {
        return new SimulatorSettings(5, 0.8, 0.05, Duration.ofSeconds(20));
    }
}
