package com.orderconsole.service.audit;

import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeSet;

/**
 * The words the audit view shows as sources, and the aliases people type for them. One word can stand for two
 * stored names: a repair's history rows say {@code repair} while its audit-log rows say {@code reconciliation}
 * (ReconciliationService), so either word finds both.
 */
public final class AuditSources {
    /** Sources offered in the audit view's filter, in its order. */
    public static final List<String> SHOWN = List.of("console", "cli", "sweeper", "import", "simulator", "bulk", "repair", "create",
            "reconciliation", "rules", "dead-letters", "api");

    /** What people type for a shown word (lower case). */
    private static final Map<String, String> ALIASES = Map.of("repairs", "repair", "recon", "reconciliation",
            "dead-letter", "dead-letters", "deadletters", "dead-letters", "rule", "rules", "traffic", "simulator", "gui", "console");

    /** The audit log's name for a repair: ReconciliationService records it so. */
    private static final String AUDIT_REPAIR = "reconciliation";

    private AuditSources() {
    }

    /**
     * @param word as typed, any case, e.g. "Repair", "recon", "dead-letter"
     * @return the shown word it stands for, e.g. "repair"
     * @throws IllegalArgumentException naming the word and listing the valid ones, when it is neither shown nor an alias
     */
    public static String require(String word) {
        String w = word == null ? "" : word.strip().toLowerCase(Locale.ROOT);
        if (SHOWN.contains(w)) {
            return w;
        }
        String alias = ALIASES.get(w);
        if (alias != null) {
            return alias;
        }
        throw new IllegalArgumentException("unknown source '" + word + "': use one of " + String.join(", ", SHOWN)
                + " (or " + String.join(", ", new TreeSet<>(ALIASES.keySet())) + ")");
    }

    /** @return the source as the order history stores it: a repair's rows say "repair"; other words as given */
    static String inHistory(String source) {
        if (source == null) {
            return null;
        }
        String w = canonical(source);
        return AUDIT_REPAIR.equals(w) ? "repair" : w;
    }

    /** @return the source as the audit log stores it: a repair's rows say "reconciliation"; other words as given */
    static String inAuditLog(String source) {
        if (source == null) {
            return null;
        }
        String w = canonical(source);
        return "repair".equals(w) ? AUDIT_REPAIR : w;
    }

    /**
     * @return an alias resolved, any other source as given: the filter matches exactly, case included (a script's own
     *     "CLI" is not "cli"); {@link #require} is where typed words are folded to the shown ones
     */
    private static String canonical(String source) {
        return ALIASES.getOrDefault(source, source);
    }
}
