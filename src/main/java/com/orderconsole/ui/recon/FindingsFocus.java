package com.orderconsole.ui.recon;

import com.orderconsole.service.recon.ReconCategory;
import com.orderconsole.service.recon.ReconReport;

/**
 * Which category's findings the page lists when a comparison ends: the one chosen, while it still has findings;
 * otherwise the first category that has some. A report with findings thus never leaves the findings list blank
 * until a category is clicked.
 */
final class FindingsFocus {
    private FindingsFocus() {
    }

    /**
     * @param report the comparison that just ended
     * @param chosen the category listed before it, or null
     * @return the category to list: {@code chosen} when it has findings or no category has any, else the first with findings
     */
    static ReconCategory category(ReconReport report, ReconCategory chosen) {
        if (chosen != null && !report.findings(chosen).isEmpty()) {
            return chosen;
        }
        for (ReconCategory c : ReconCategory.values()) {
            if (!c.informational() && !report.findings(c).isEmpty()) {
                return c;
            }
        }
        return chosen;
    }
}
