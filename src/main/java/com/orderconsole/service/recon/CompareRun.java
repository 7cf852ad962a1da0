package com.orderconsole.service.recon;

import com.orderconsole.service.order.OrderSummary;

import java.util.ArrayList;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import java.util.function.BooleanSupplier;

/**
 * One compare's running state: what it found so far, how far it got, whether it was asked to stop. A class of its
 * own because the compare phases of {@link ReconciliationService} and {@link RedisAheadCheck} all add to it.
 */
final class CompareRun {
    final Map<ReconCategory, Long> counts = ReconReport.zeroCounts();
    final Map<ReconCategory, List<ReconFinding>> kept = new EnumMap<>(ReconCategory.class);
    /** Redis ahead of MySQL: maybe only lag, classified at the end (phase 4). */
    final List<OrderSummary> redisAhead = new ArrayList<>();
    /** Seen in one read while traffic flows, they may be a creation or a payment half-way: read again after the page. */
    final List<ReconFinding> recheck = new ArrayList<>();
    final long total;
    final ReconProgress progress;
    final BooleanSupplier cancelled;
    long done;
    long compared;
    boolean stop;

    CompareRun(long total, ReconProgress progress, BooleanSupplier cancelled) {
        this.total = total;
        this.progress = progress;
        this.cancelled = cancelled;
    }

    /** Counts a finding and keeps it, up to {@link ReconciliationService#MAX_FINDINGS_KEPT} per category. */
    void add(ReconFinding f) {
        counts.merge(f.category(), 1L, Long::sum);
        List<ReconFinding> l = kept.computeIfAbsent(f.category(), k -> new ArrayList<>());
        if (l.size() < ReconciliationService.MAX_FINDINGS_KEPT) {
            l.add(f);
        }
    }

    /** @return a finding of this order's two sides, its detail shown as it is in every language */
    static ReconFinding finding(ReconCategory c, OrderSummary o, String detail) {
        return new ReconFinding(c, o.orderId(), o.mysqlStatus(), o.mysqlVersion(), o.redisStatus(), o.redisVersion(), detail);
    }

    /** @return a finding whose detail is also given as its kind and values, for the user's language */
    static ReconFinding finding(ReconCategory c, OrderSummary o, String detail, FindingDetail key, Object... args) {
        return new ReconFinding(c, o.orderId(), o.mysqlStatus(), o.mysqlVersion(), o.redisStatus(), o.redisVersion(), detail,
                key, List.of(args));
    }
}
