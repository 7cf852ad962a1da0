package com.orderconsole.domain;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Collections;
import java.util.Deque;
import java.util.EnumMap;
import java.util.EnumSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * The legal transitions: a directed graph over {@link OrderStatus} with a declared set of terminal
 * statuses, and a version that increases with every change. Instances are immutable and always valid.
 *
 * <p>Validity: no edge leaves a terminal status; no edge enters WAIT_PAY (it is the initial status,
 * so an edge into it would be a cycle back to the start); no self-loops; every status is reachable
 * from WAIT_PAY; every non-terminal status has at least one outgoing edge and a path to a terminal
 * status (no loop orders could never leave); WAIT_PAY → CANCELLED exists (the payment-timeout cancel
 * of the delay queue is that move).
 */
public final class TransitionRules {
    private final long version;
    private final Map<OrderStatus, Set<OrderStatus>> edges;
    private final Set<OrderStatus> terminal;

    private TransitionRules(long version, Map<OrderStatus, Set<OrderStatus>> edges, Set<OrderStatus> terminal) {
        this.version = version;
        this.edges = edges;
        this.terminal = terminal;
    }

    /**
     * Builds and validates a rule set.
     *
     * @param version rules version, &gt;= 1
     * @param edges from-status to allowed targets; absent keys mean no outgoing edge
     * @param terminal statuses nothing may leave
     * @return the rules
     * @throws InvalidRulesException listing every fault found
     */
    public static TransitionRules of(long version, Map<OrderStatus, Set<OrderStatus>> edges, Set<OrderStatus> terminal) {
        List<RulesFault> faults = check(version, edges, terminal);
        if (!faults.isEmpty()) {
            throw new InvalidRulesException(faults);
        }
        return new TransitionRules(version, copyOf(edges), Collections.unmodifiableSet(
                terminal.isEmpty() ? EnumSet.noneOf(OrderStatus.class) : EnumSet.copyOf(terminal)));
    }

    private static Map<OrderStatus, Set<OrderStatus>> copyOf(Map<OrderStatus, Set<OrderStatus>> edges) {
        EnumMap<OrderStatus, Set<OrderStatus>> copy = new EnumMap<>(OrderStatus.class);
        for (OrderStatus s : OrderStatus.values()) {
            Set<OrderStatus> to = edges.getOrDefault(s, Set.of());
            copy.put(s, Collections.unmodifiableSet(to.isEmpty() ? EnumSet.noneOf(OrderStatus.class) : EnumSet.copyOf(to)));
        }
        return Collections.unmodifiableMap(copy);
    }

    /**
     * Every validity fault of a rule set, without building it (see the class doc for the rules).
     *
     * @return the faults, empty when the rules are valid; none is placed in a document yet
     */
    public static List<RulesFault> check(long version, Map<OrderStatus, Set<OrderStatus>> edges, Set<OrderStatus> terminal) {
        List<RulesFault> faults = new ArrayList<>();
        if (version < 1) {
            faults.add(RulesFault.of("rules.fault.version", "version must be >= 1, got " + version, null, null, Long.toString(version)));
        }
        Map<OrderStatus, Set<OrderStatus>> copy = copyOf(edges);
        Set<OrderStatus> term = terminal.isEmpty() ? EnumSet.noneOf(OrderStatus.class) : EnumSet.copyOf(terminal);
        if (term.isEmpty()) {
            faults.add(RulesFault.of("rules.fault.noTerminal", "no terminal status declared", null, null));
        }
        if (term.contains(OrderStatus.WAIT_PAY)) {
            faults.add(RulesFault.of("rules.fault.initialTerminal", "WAIT_PAY is the initial status and cannot be terminal",
                    OrderStatus.WAIT_PAY, null));
        }
        copy.forEach((from, tos) -> {
            if (term.contains(from) && !tos.isEmpty()) {
                faults.add(RulesFault.of("rules.fault.terminalHasExit", "terminal status " + from + " has outgoing edges to " + tos,
                        from, null, from.name(), tos.toString()));
            }
            if (!term.contains(from) && tos.isEmpty()) {
                faults.add(RulesFault.of("rules.fault.noExit", "status " + from + " is not terminal but has no outgoing edge",
                        from, null, from.name()));
            }
            if (tos.contains(from)) {
                faults.add(RulesFault.of("rules.fault.selfLoop", "self-loop on " + from, from, from, from.name()));
            }
            if (tos.contains(OrderStatus.WAIT_PAY)) {
                faults.add(RulesFault.of("rules.fault.intoInitial", "edge " + from
                        + " -> WAIT_PAY returns to the initial status (cycle into WAIT_PAY)", from, OrderStatus.WAIT_PAY, from.name()));
            }
        });
        Set<OrderStatus> reached = EnumSet.of(OrderStatus.WAIT_PAY);
        Deque<OrderStatus> todo = new ArrayDeque<>(reached);
        while (!todo.isEmpty()) {
            for (OrderStatus n : copy.get(todo.pop())) {
                if (reached.add(n)) {
                    todo.push(n);
                }
            }
        }
        for (OrderStatus s : OrderStatus.values()) {
            if (!reached.contains(s)) {
                faults.add(RulesFault.of("rules.fault.unreachable", "status " + s + " is unreachable from WAIT_PAY", null, null, s.name()));
            }
        }
        if (!copy.get(OrderStatus.WAIT_PAY).contains(OrderStatus.CANCELLED)) {
            faults.add(RulesFault.of("rules.fault.noTimeoutCancel",
                    "WAIT_PAY -> CANCELLED is missing: unpaid orders could not be cancelled at their payment deadline",
                    OrderStatus.WAIT_PAY, null));
        }
        for (OrderStatus s : OrderStatus.values()) {
            if (!term.contains(s) && !copy.get(s).isEmpty() && !reachesTerminal(s, copy, term)) {
                faults.add(RulesFault.of("rules.fault.noWayOut", "status " + s
                        + " cannot reach a terminal status: orders there would loop forever", s, null, s.name()));
            }
        }
        return faults;
    }

    private static boolean reachesTerminal(OrderStatus from, Map<OrderStatus, Set<OrderStatus>> edges, Set<OrderStatus> term) {
        Set<OrderStatus> seen = EnumSet.of(from);
        Deque<OrderStatus> todo = new ArrayDeque<>(seen);
        while (!todo.isEmpty()) {
            for (OrderStatus n : edges.get(todo.pop())) {
                if (term.contains(n)) {
                    return true;
                }
                if (seen.add(n)) {
                    todo.push(n);
                }
            }
        }
        return false;
    }

    /** The rules this product ships with: 1→2, 1→6, 2→3, 3→4, 4→5; 5 and 6 terminal; version 1. */
    public static TransitionRules defaults() {
        return of(1, Map.of(
                OrderStatus.WAIT_PAY, Set.of(OrderStatus.PAID, OrderStatus.CANCELLED),
                OrderStatus.PAID, Set.of(OrderStatus.WAIT_SHIP),
                OrderStatus.WAIT_SHIP, Set.of(OrderStatus.SHIPPED),
                OrderStatus.SHIPPED, Set.of(OrderStatus.FINISHED)),
                Set.of(OrderStatus.FINISHED, OrderStatus.CANCELLED));
    }

    /** @return a copy of these rules carrying another version */
    public TransitionRules withVersion(long newVersion) {
        return of(newVersion, edges, terminal);
    }

    /** @return the rules version */
    public long version() {
        return version;
    }

    /** @return allowed targets from {@code from} (empty for terminal statuses) */
    public Set<OrderStatus> targets(OrderStatus from) {
        return edges.get(from);
    }

    /** @return true when {@code from → to} is a legal move */
    public boolean allows(OrderStatus from, OrderStatus to) {
        return edges.get(from).contains(to);
    }

    /** @return true when nothing may leave {@code s} */
    public boolean isTerminal(OrderStatus s) {
        return terminal.contains(s);
    }

    /** @return the terminal statuses */
    public Set<OrderStatus> terminal() {
        return terminal;
    }

    /** @return all edges, from-status to targets, every status present as a key */
    public Map<OrderStatus, Set<OrderStatus>> edges() {
        return edges;
    }

    /** @return true when both rule sets have the same edges and terminal statuses (version ignored) */
    public boolean sameGraph(TransitionRules other) {
        return edges.equals(other.edges) && terminal.equals(other.terminal);
    }

    @Override
    public String toString() {
        return "TransitionRules{v" + version + " " + edges + " terminal=" + terminal + "}";
    }
}
