package com.orderconsole.service.monitor;

import com.orderconsole.domain.OrderStatus;

import java.util.Map;

/**
 * Orders per status for the state graph.
 *
 * @param live orders per status: non-terminal ones from Redis' live counters (kept by the scripts),
 *     terminal ones from MySQL (terminal orders leave Redis after their retention), counted at most 10 s ago
 * @param stuck orders longer in their status than its stuck threshold (MySQL, per non-terminal status)
 */
public record StateCounts(Map<OrderStatus, Long> live, Map<OrderStatus, Long> stuck) {
}
