package com.orderconsole.domain;

import java.util.ArrayDeque;
import java.time.Duration;
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
    private final Map<OrderStatus, Duration> stuck;

    /**
     * Stuck thresholds of rules that name none: WAIT_PAY 30 min, PAID 2 h, WAIT_SHIP 48 h, SHIPPED 14 days
     * (typical e-commerce service levels: pay within the checkout timeout, hand to the warehouse the same
     * day, ship within two days, deliver within two weeks).
     */
    public static final Map<OrderStatus, Duration> DEFAULT_STUCK = Collections.unmodifiableMap(new EnumMap<>(Map.of(
            OrderStatus.WAIT_PAY, Duration.ofMinutes(30), OrderStatus.PAID, Duration.ofHours(2),
            OrderStatus.WAIT_SHIP, Duration.ofHours(48), OrderStatus.SHIPPED, Duration.ofDays(14))));

    private TransitionRules(long version, Map<OrderStatus, Set<OrderStatus>> edges, Set<OrderStatus> terminal,
                            Map<OrderStatus, Duration> stuck) {
        this.version = version;
        this.edges = edges;
        this.terminal = terminal;
        this.stuck = stuck;
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
        return of(version, edges, terminal, defaultStuck(terminal));
    }

    /** @return {@link #DEFAULT_STUCK} without the statuses these rules make terminal */
    public static Map<OrderStatus, Duration> defaultStuck(Set<OrderStatus> terminal) {
        EnumMap<OrderStatus, Duration> d = new EnumMap<>(DEFAULT_STUCK);
        d.keySet().removeAll(terminal);
        return d;
    }

    /**
     * Builds and validates a rule set with its stuck thresholds.
     *
     * @param stuck how long an order may stay in a non-terminal status before it counts as stuck; a status
     *     left out is never counted as stuck
     * @throws InvalidRulesException listing every fault found (also a threshold that is not positive or is set
     *     on a terminal status)
     */
    public static TransitionRules of(long version, Map<OrderStatus, Set<OrderStatus>> edges, Set<OrderStatus> terminal,
                                     Map<OrderStatus, Duration> stuck) {
        List<RulesFault> faults = check(version, edges, terminal);
        faults.addAll(checkStuck(stuck, terminal));
        if (!faults.isEmpty()) {
            throw new InvalidRulesException(faults);
        }
        EnumMap<OrderStatus, Duration> st = new EnumMap<>(OrderStatus.class);
        st.putAll(stuck);
        return new TransitionRules(version, copyOf(edges), Collections.unmodifiableSet(
                terminal.isEmpty() ? EnumSet.noneOf(OrderStatus.class) : EnumSet.copyOf(terminal)), Collections.unmodifiableMap(st));
    }

    /** @return the faults of stuck thresholds: not positive, or on a terminal status (nothing leaves it) */
    public static List<RulesFault> checkStuck(Map<OrderStatus, Duration> stuck, Set<OrderStatus> terminal) {
        List<RulesFault> faults = new ArrayList<>();
        stuck.forEach((s, d) -> {
            if (d == null || d.isNegative() || d.isZero()) {
                faults.add(RulesFault.of("rules.fault.stuckNotPositive", "stuck threshold of " + s + " must be positive, got " + d,
                        s, null, s.name(), String.valueOf(d)));
            } else if (terminal.contains(s)) {
                faults.add(RulesFault.of("rules.fault.stuckOnTerminal", "stuck threshold on terminal status " + s
                        + ": orders there are done, never stuck", s, null, s.name()));
            }
        });
        return faults;
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
        return of(newVersion, edges, terminal, stuck);
    }

    /**
     * @param thresholds the new stuck thresholds (a status left out is never stuck)
     * @return a copy of these rules with them
     * @throws InvalidRulesException when a threshold is not positive or on a terminal status
     */
    public TransitionRules withStuck(Map<OrderStatus, Duration> thresholds) {
        return of(version, edges, terminal, thresholds);
    }

    /** @return stuck threshold per status that has one (never a terminal status) */
    public Map<OrderStatus, Duration> stuck() {
        return stuck;
    }

    /** @return true when both have the same graph and the same stuck thresholds (version ignored) */
    public boolean sameRules(TransitionRules other) {
        return sameGraph(other) && stuck.equals(other.stuck);
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
        return "TransitionRules{v" + version + " " + edges + " terminal=" + terminal + " stuck=" + stuck + "}";
    }
}
