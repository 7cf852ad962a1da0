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
        List<String> faults = new ArrayList<>();
        if (version < 1) {
            faults.add("version must be >= 1, got " + version);
        }
        EnumMap<OrderStatus, Set<OrderStatus>> copy = new EnumMap<>(OrderStatus.class);
        for (OrderStatus s : OrderStatus.values()) {
            Set<OrderStatus> to = edges.getOrDefault(s, Set.of());
            copy.put(s, Collections.unmodifiableSet(to.isEmpty() ? EnumSet.noneOf(OrderStatus.class) : EnumSet.copyOf(to)));
        }
        Set<OrderStatus> term = terminal.isEmpty() ? EnumSet.noneOf(OrderStatus.class) : EnumSet.copyOf(terminal);
        if (term.isEmpty()) {
            faults.add("no terminal status declared");
        }
        if (term.contains(OrderStatus.WAIT_PAY)) {
            faults.add("WAIT_PAY is the initial status and cannot be terminal");
        }
        copy.forEach((from, tos) -> {
            if (term.contains(from) && !tos.isEmpty()) {
                faults.add("terminal status " + from + " has outgoing edges to " + tos);
            }
            if (!term.contains(from) && tos.isEmpty()) {
                faults.add("status " + from + " is not terminal but has no outgoing edge");
            }
            if (tos.contains(from)) {
                faults.add("self-loop on " + from);
            }
            if (tos.contains(OrderStatus.WAIT_PAY)) {
                faults.add("edge " + from + " -> WAIT_PAY returns to the initial status (cycle into WAIT_PAY)");
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
                faults.add("status " + s + " is unreachable from WAIT_PAY");
            }
        }
        if (!copy.get(OrderStatus.WAIT_PAY).contains(OrderStatus.CANCELLED)) {
            faults.add("WAIT_PAY -> CANCELLED is missing: unpaid orders could not be cancelled at their payment deadline");
        }
        for (OrderStatus s : OrderStatus.values()) {
            if (!term.contains(s) && !copy.get(s).isEmpty() && !reachesTerminal(s, copy, term)) {
                faults.add("status " + s + " cannot reach a terminal status: orders there would loop forever");
            }
        }
        if (!faults.isEmpty()) {
            throw new InvalidRulesException(faults);
        }
        return new TransitionRules(version, Collections.unmodifiableMap(copy), Collections.unmodifiableSet(term));
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
