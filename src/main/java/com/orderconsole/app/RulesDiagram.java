package com.orderconsole.app;

import com.orderconsole.domain.OrderStatus;
import com.orderconsole.domain.TransitionRules;
import com.orderconsole.service.monitor.Edge;

import java.util.Locale;
import java.util.Map;
import java.util.Set;

/**
 * The rules in force as diagram text (PlantUML state diagram, Mermaid {@code stateDiagram-v2}), optionally
 * with the live counts the state graph shows; shared by the graph page and {@code rules export}.
 */
public final class RulesDiagram {
    private RulesDiagram() {
    }

    /** The text formats; PNG is drawn by the graph painter from the same layout the graph page uses. */
    public enum Format {
        PLANTUML, MERMAID, PNG;

        /** @return the usual file extension, without the dot */
        public String extension() {
            return switch (this) {
                case PLANTUML -> "puml";
                case MERMAID -> "mmd";
                case PNG -> "png";
            };
        }

        /**
         * @param text "plantuml", "mermaid" or "png", any case
         * @return the format
         * @throws IllegalArgumentException naming the accepted formats
         */
        public static Format parse(String text) {
            for (Format f : values()) {
                if (f.name().equalsIgnoreCase(text == null ? "" : text.strip())) {
                    return f;
                }
            }
            throw new IllegalArgumentException(Messages.format("diagram.unknownFormat", text));
        }
    }

    /**
     * Counts to print on the diagram, as the state graph shows them.
     *
     * @param live orders per status (Redis live counters)
     * @param stuck stuck orders per status with a threshold (absent: never stuck)
     * @param lastHour applied moves per edge in the last hour
     */
    public record Counts(Map<OrderStatus, Long> live, Map<OrderStatus, Long> stuck, Map<Edge, Long> lastHour) {
    }

    /**
     * @param rules the rules to draw
     * @param counts counts to print beside statuses and edges, or null for the bare rules
     * @return a PlantUML state diagram ({@code @startuml} … {@code @enduml})
     */
    public static String plantUml(TransitionRules rules, Counts counts) {
        StringBuilder b = new StringBuilder("@startuml\n");
        b.append("title ").append(Messages.format("diagram.title", Long.toString(rules.version()))).append('\n');
        for (OrderStatus s : OrderStatus.values()) {
            b.append("state ").append(s.name());
            if (rules.isTerminal(s)) {
                b.append(" <<terminal>>");
            }
            b.append('\n');
            String label = nodeLabel(s, counts);
            if (!label.isEmpty()) {
                b.append(s.name()).append(" : ").append(label).append('\n');
            }
        }
        b.append("[*] --> WAIT_PAY\n");
        forEachEdge(rules, (from, to) -> {
            b.append(from.name()).append(" --> ").append(to.name());
            String l = edgeLabel(from, to, counts);
            if (!l.isEmpty()) {
                b.append(" : ").append(l);
            }
            b.append('\n');
        });
        for (OrderStatus s : rules.terminal()) {
            b.append(s.name()).append(" --> [*]\n");
        }
        return b.append("@enduml\n").toString();
    }

    /**
     * @param rules the rules to draw
     * @param counts counts to print beside statuses and edges, or null for the bare rules
     * @return a Mermaid {@code stateDiagram-v2}
     */
    public static String mermaid(TransitionRules rules, Counts counts) {
        StringBuilder b = new StringBuilder("---\ntitle: ").append(Messages.format("diagram.title", Long.toString(rules.version())))
                .append("\n---\nstateDiagram-v2\n");
        for (OrderStatus s : OrderStatus.values()) {
            String label = nodeLabel(s, counts);
            b.append("    state \"").append(s.name()).append(label.isEmpty() ? "" : "<br/>" + label).append("\" as ")
                    .append(s.name()).append('\n');
        }
        b.append("    [*] --> WAIT_PAY\n");
        forEachEdge(rules, (from, to) -> {
            b.append("    ").append(from.name()).append(" --> ").append(to.name());
            String l = edgeLabel(from, to, counts);
            if (!l.isEmpty()) {
                b.append(" : ").append(l);
            }
            b.append('\n');
        });
        for (OrderStatus s : rules.terminal()) {
            b.append("    ").append(s.name()).append(" --> [*]\n");
        }
        return b.toString();
    }

    /** @return "12 live · 3 stuck", "12 live", or "" without counts */
    public static String nodeLabel(OrderStatus s, Counts counts) {
        if (counts == null) {
            return "";
        }
        long live = counts.live().getOrDefault(s, 0L);
        Long stuck = counts.stuck().get(s);
        return stuck == null ? Messages.format("diagram.live", live) : Messages.format("diagram.liveStuck", live, stuck);
    }

    /** @return "5 /h" (moves in the last hour), or "" without counts */
    public static String edgeLabel(OrderStatus from, OrderStatus to, Counts counts) {
        return counts == null ? "" : Messages.format("diagram.perHour", counts.lastHour().getOrDefault(new Edge(from, to), 0L));
    }

    private static void forEachEdge(TransitionRules rules, java.util.function.BiConsumer<OrderStatus, OrderStatus> out) {
        for (OrderStatus from : OrderStatus.values()) {
            Set<OrderStatus> tos = rules.targets(from);
            for (OrderStatus to : OrderStatus.values()) {
                if (tos.contains(to)) {
                    out.accept(from, to);
                }
            }
        }
    }

    /** @return a file name for an export, e.g. "rules-v3.puml" */
    public static String fileName(TransitionRules rules, Format f) {
        return "rules-v" + rules.version() + "." + f.extension().toLowerCase(Locale.ROOT);
    }
}
