package com.orderconsole.service.recon;

import java.util.EnumMap;
import java.util.List;
import java.util.Map;

/**
 * Result of one reconciliation run.
 *
 * @param counts findings per category (every category present)
 * @param findings the findings per category, at most {@link ReconciliationService#MAX_FINDINGS_KEPT} each
 * @param ordersCompared distinct orders compared (MySQL rows plus orders only Redis has)
 * @param millis wall time of the run
 * @param cancelled true when the user cancelled before the end (counts cover what was compared)
 * @param filtered true when the run covered only the orders matching a filter (Redis-only and queue checks skipped)
 */
public record ReconReport(Map<ReconCategory, Long> counts, Map<ReconCategory, List<ReconFinding>> findings,
                          long ordersCompared, long millis, boolean cancelled, boolean filtered) {
    /** @return total findings, those of {@link ReconCategory#informational()} categories (no disagreement) left out */
    public long total() {
        return counts.entrySet().stream().filter(e -> !e.getKey().informational()).mapToLong(Map.Entry::getValue).sum();
    }

    /** @return findings kept for a category (empty list when none) */
    public List<ReconFinding> findings(ReconCategory c) {
        return findings.getOrDefault(c, List.of());
    }

    static Map<ReconCategory, Long> zeroCounts() {
        Map<ReconCategory, Long> m = new EnumMap<>(ReconCategory.class);
        for (ReconCategory c : ReconCategory.values()) {
            m.put(c, 0L);
        }
        return m;
    }
}
