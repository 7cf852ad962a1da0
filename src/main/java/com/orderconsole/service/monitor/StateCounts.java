package com.orderconsole.service.monitor;

import com.orderconsole.domain.OrderStatus;

import java.util.Map;

/**
 * Orders per status for the state graph.
 *
 * @param live orders per status (Redis live counters, kept by the scripts)
 * @param stuck orders longer in their status than its stuck threshold (MySQL, per non-terminal status)
 */
public record StateCounts(Map<OrderStatus, Long> live, Map<OrderStatus, Long> stuck) {
}
