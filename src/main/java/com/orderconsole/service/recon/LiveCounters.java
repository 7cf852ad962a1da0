package com.orderconsole.service.recon;

import com.orderconsole.domain.OrderStatus;
import com.orderconsole.redis.OrderStateStore;
import com.orderconsole.redis.RedisKeys;
import com.orderconsole.redis.StatsStore;
import com.orderconsole.service.follower.TerminalRetention;

import java.util.HashMap;
import java.util.Map;

/**
 * Redis' live per-status counters of each bucket against the orders Redis holds: counting, telling drift and
 * recounting. Split out of {@link ReconciliationService} because the compare (COUNTERS_DRIFT) and its repair
 * ({@link RecountRepair}) both count the same way.
 */
final class LiveCounters {
    /** Orders read per SCAN page. */
    private static final int SCAN_PAGE = 4000;

    private final OrderStateStore states;
    private final StatsStore stats;
    /** Null: terminal orders stay in Redis. Otherwise they leave it after their retention, so Redis' counters of
     * terminal statuses count nothing meaningful (the state graph takes those counts from MySQL) and are not compared. */
    private final TerminalRetention retention;

    LiveCounters(OrderStateStore states, StatsStore stats, TerminalRetention retention) {
        this.states = states;
        this.stats = stats;
        this.retention = retention;
    }

    /**
     * The buckets whose counters differ from the counted orders. Under live traffic a count and the counters
     * are never read at the same instant, so a difference is kept only when a second count finds exactly the
     * same difference again.
     *
     * @param firstCount per bucket, per status code, the orders a first SCAN pass counted
     * @return per bucket, the difference in words
     */
    Map<Integer, String> confirmedDrift(Map<Integer, Map<Integer, Long>> firstCount) {
        Map<Integer, String> first = new HashMap<>();
        for (int b = 0; b < RedisKeys.buckets(); b++) {
            String d = drift(stats.statusCounts(b), firstCount.getOrDefault(b, Map.of()));
            if (d != null) {
                first.put(b, d);
            }
        }
        if (first.isEmpty()) {
            return first;
        }
        Map<Integer, Map<Integer, Long>> second = countStatuses();
        Map<Integer, String> confirmed = new HashMap<>();
        first.forEach((b, d) -> {
            if (d.equals(drift(stats.statusCounts(b), second.getOrDefault(b, Map.of())))) {
                confirmed.put(b, d);
            }
        });
        return confirmed;
    }

    /** Counts the orders Redis holds per bucket and status and overwrites the live counters with the counts. */
    void recount() {
        Map<Integer, Map<Integer, Long>> counted = countStatuses();
        for (int b = 0; b < RedisKeys.buckets(); b++) {
            stats.setStatusCounts(b, counted.getOrDefault(b, Map.of()));
        }
    }

    /**
     * Counts the orders Redis holds and overwrites the live counters of these buckets only (the others keep theirs).
     *
     * @param buckets bucket numbers to overwrite
     */
    void recount(java.util.Collection<Integer> buckets) {
        if (buckets.isEmpty()) {
            return;
        }
        Map<Integer, Map<Integer, Long>> counted = countStatuses();
        for (int b : buckets) {
            stats.setStatusCounts(b, counted.getOrDefault(b, Map.of()));
        }
    }

    /** @return per bucket, per status code, the orders Redis holds (one SCAN pass) */
    private Map<Integer, Map<Integer, Long>> countStatuses() {
        Map<Integer, Map<Integer, Long>> counted = new HashMap<>();
        states.scan(SCAN_PAGE, page -> page.states().forEach((id, st) -> {
            if (st != null) {
                counted.computeIfAbsent(RedisKeys.bucket(id), b -> new HashMap<>()).merge(st.status().code(), 1L, Long::sum);
            }
        }));
        return counted;
    }

    /** @return how the live counters of non-terminal statuses differ from the counted orders, in words, or null when they agree */
    private String drift(Map<Integer, Long> counters, Map<Integer, Long> counted) {
        StringBuilder b = new StringBuilder();
        TerminalRetention r = retention;
        for (OrderStatus s : OrderStatus.values()) {
            if (r != null && r.isTerminal(s)) {
                continue;
            }
            long c = counters.getOrDefault(s.code(), 0L);
            long n = counted.getOrDefault(s.code(), 0L);
            if (c != n) {
                b.append(b.length() == 0 ? "" : ", ").append(s).append(" counter ").append(c).append(", orders ").append(n);
            }
        }
        return b.length() == 0 ? null : b.toString();
    }
}
