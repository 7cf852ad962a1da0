package com.orderconsole.app;

import com.orderconsole.domain.OrderStatus;
import com.orderconsole.domain.RulesFault;
import com.orderconsole.service.rules.RulesImpact;

import java.util.ArrayList;
import java.util.List;
import java.util.stream.Collectors;

/**
 * Rules faults and the what-if of a rules change in words, in the process' language; shared by the
 * console's rules page and the CLI's {@code rules} command so both say the same.
 */
public final class RulesWords {
    private RulesWords() {
    }

    /**
     * @param f a fault as the service found it
     * @return e.g. "Line 3, column 5: self-loop on PAID"
     */
    public static String fault(RulesFault f) {
        String what = Messages.format(f.key(), f.args().toArray());
        return f.placed() ? Messages.format("rules.fault.at", Integer.toString(f.line()), Integer.toString(f.column()), what) : what;
    }

    /**
     * The what-if of a rules change, one line per finding: statuses that lose every exit (their live orders
     * stranded), exits stuck orders could take today that disappear (with last hour's moves along them),
     * whether the timeout cancel survives, then a summary. Sample ids close each line.
     *
     * @param impact the impact as {@link com.orderconsole.service.rules.RulesWhatIf} computed it
     * @return the lines; never empty
     */
    public static List<String> impact(RulesImpact impact) {
        List<String> out = new ArrayList<>();
        if (!impact.readable()) {
            out.add(Messages.get("rules.whatif.unreadable"));
            return out;
        }
        for (RulesImpact.StatusImpact s : impact.statuses()) {
            String sample = sample(s.sample());
            if (s.losesEveryExit()) {
                out.add(Messages.format("rules.whatif.losesEvery", s.status().name(), s.live(), s.stuck(), sample));
            } else {
                String exits = s.removed().stream().map(e -> Messages.format("rules.whatif.edgeUse", e.from().name(), e.to().name(),
                        e.appliedLastHour())).collect(Collectors.joining(", "));
                out.add(Messages.format("rules.whatif.losesExit", s.status().name(), exits, s.live(), s.stuck(), sample));
            }
        }
        if (impact.statuses().isEmpty()) {
            out.add(Messages.get("rules.whatif.none"));
        }
        out.add(impact.timeoutCancelKept() ? Messages.get("rules.whatif.timeoutKept")
                : Messages.format("rules.whatif.timeoutLost", impact.waitPayLive(), sample(impact.waitPaySample())));
        out.add(Messages.format("rules.whatif.summary", impact.stranded(), impact.stuckLosingAnExit()));
        return out;
    }

    /**
     * @param from the rules in force, or null when unknown
     * @param to the new rules' edges and terminal statuses
     * @return one line per added or removed edge, per status that becomes or stops being terminal, per changed stuck threshold
     */
    public static List<String> changes(com.orderconsole.domain.TransitionRules from, com.orderconsole.domain.TransitionRules to) {
        List<String> out = new ArrayList<>();
        for (OrderStatus a : OrderStatus.values()) {
            for (OrderStatus b : OrderStatus.values()) {
                boolean before = from != null && from.allows(a, b);
                boolean after = to.allows(a, b);
                if (after != before) {
                    out.add(Messages.format(after ? "rules.change.adds" : "rules.change.removes", a.name(), b.name()));
                }
            }
        }
        for (OrderStatus s : OrderStatus.values()) {
            boolean before = from != null && from.isTerminal(s);
            if (to.isTerminal(s) != before) {
                out.add(Messages.format(to.isTerminal(s) ? "rules.change.terminal" : "rules.change.notTerminal", s.name()));
            }
        }
        for (OrderStatus s : OrderStatus.values()) {
            java.time.Duration before = from == null ? null : from.stuck().get(s);
            java.time.Duration after = to.stuck().get(s);
            if (!java.util.Objects.equals(before, after)) {
                out.add(Messages.format("rules.change.stuck", s.name(), stuck(before), stuck(after)));
            }
        }
        return out;
    }

    private static String stuck(java.time.Duration d) {
        return d == null ? Messages.get("rules.stuck.none") : com.orderconsole.service.rules.RulesJson.duration(d);
    }

    private static String sample(List<String> ids) {
        return ids.isEmpty() ? Messages.get("rules.whatif.noSample") : String.join(", ", ids);
    }
}
