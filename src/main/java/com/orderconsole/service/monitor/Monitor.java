package com.orderconsole.service.monitor;

import com.orderconsole.domain.OrderStatus;
import com.orderconsole.domain.ResultCode;

import java.time.Duration;
import java.util.List;
import java.util.Map;

/**
 * Counts for the state graph, the Monitor page and {@code stats}. Implemented in-process by {@link MonitorService} and
 * over serve's HTTP API.
 */
public interface Monitor {
    /**
     * @return count per status (non-terminal: Redis live counters; terminal: MySQL, refreshed at most every 10 s) and
     *     stuck count per non-terminal status (every status present)
     */
    StateCounts stateCounts();

    /** @return orders per status in MySQL (exact, slower at scale than {@link #stateCounts()}) */
    Map<OrderStatus, Long> mysqlCounts();

    /** @return every result code with how often the transition script returned it */
    Map<ResultCode, Long> resultCounts();

    /** @return applied transitions per edge during the last hour (MySQL history; lags by the sync delay) */
    Map<Edge, Long> transitionsLastHour();

    /**
     * @param window how far back, e.g. 60 minutes
     * @return one entry per minute that had history, oldest first
     */
    List<MinuteCount> perMinute(Duration window);
}
