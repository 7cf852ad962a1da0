package com.orderconsole.service.monitor;

import com.orderconsole.domain.OrderStatus;

/**
 * A transition edge.
 *
 * @param from source status
 * @param to target status
 */
public record Edge(OrderStatus from, OrderStatus to) {
    @Override
    public String toString() {
        return from + " -> " + to;
    }
}
