package com.orderconsole.ui.graph;

import com.orderconsole.domain.OrderStatus;
import com.orderconsole.domain.TransitionRules;
import com.orderconsole.service.StuckThresholds;
import com.orderconsole.service.monitor.Edge;
import com.orderconsole.service.monitor.MonitorService;
import com.orderconsole.service.monitor.StateCounts;
import com.orderconsole.service.order.OrderQuery;
import com.orderconsole.service.rules.RulesService;
import com.orderconsole.ui.common.Background;
import com.orderconsole.ui.common.Command;
import com.orderconsole.ui.common.DialogService;
import com.orderconsole.ui.common.Feedback;
import com.orderconsole.ui.common.Navigator;
import com.orderconsole.ui.common.Refreshable;
import javafx.beans.property.ReadOnlyObjectProperty;
import javafx.beans.property.ReadOnlyObjectWrapper;

import java.time.Duration;
import java.util.Map;

/**
 * The state graph: the rules in force laid out by ELK, live count and stuck count per status, and
 * transitions per edge in the last hour. Clicking a status or its stuck badge opens the order table
 * filtered to it.
 */
public final class StateGraphViewModel implements Refreshable {
    /** Node and edge-label sizes handed to the layout, pixels. */
    static final double NODE_W = 150;
    static final double NODE_H = 88;
    static final double LABEL_W = 64;
    static final double LABEL_H = 18;

    private final RulesService rules;
    private final MonitorService monitor;
    private final StuckThresholds stuckThresholds;
    private final DialogService dialogs;
    private final Navigator navigator;
    private final ReadOnlyObjectWrapper<Snapshot> snapshot = new ReadOnlyObjectWrapper<>();
    private final Feedback feedback = new Feedback();
    private final Command reads;

    /**
     * Everything the graph shows at one moment.
     *
     * @param rules the rules in force
     * @param layout where to draw them (recomputed only when the rules' graph changes)
     * @param live orders per status
     * @param stuck stuck orders per non-terminal status
     * @param lastHour applied transitions per edge during the last hour
     * @param thresholds stuck threshold per status (absent: never stuck)
     * @param atMs when it was read, epoch ms
     */
    public record Snapshot(TransitionRules rules, StateGraphLayout.Result layout, Map<OrderStatus, Long> live,
                           Map<OrderStatus, Long> stuck, Map<Edge, Long> lastHour,
                           Map<OrderStatus, Duration> thresholds, long atMs) {
        /** @return live count of a status (0 when unknown) */
        public long liveCount(OrderStatus s) {
            return live.getOrDefault(s, 0L);
        }

        /** @return stuck count, or null for statuses that are never stuck (terminal or no threshold) */
        public Long stuckCount(OrderStatus s) {
            return rules.isTerminal(s) || !thresholds.containsKey(s) ? null : stuck.getOrDefault(s, 0L);
        }

        /** @return applied transitions along an edge in the last hour */
        public long lastHour(Edge e) {
            return lastHour.getOrDefault(e, 0L);
        }
    }

    /**
     * @param rules reads the rules in force
     * @param monitor reads the counts
     * @param stuckThresholds this session's stuck thresholds (in memory)
     * @param background where the reads and the layout run
     * @param dialogs asks for new thresholds
     * @param navigator opens the order table
     */
    public StateGraphViewModel(RulesService rules, MonitorService monitor, StuckThresholds stuckThresholds, Background background,
                               DialogService dialogs, Navigator navigator) {
        this.rules = rules;
        this.monitor = monitor;
        this.stuckThresholds = stuckThresholds;
        this.dialogs = dialogs;
        this.navigator = navigator;
        this.reads = new Command(background, feedback::error);
    }

    @Override
    public void refresh() {
        Snapshot previous = snapshot.get();
        reads.run("read the state counts", job -> {
            TransitionRules inForce = rules.current();
            StateGraphLayout.Result layout = previous != null && previous.rules().sameGraph(inForce) ? previous.layout()
                    : StateGraphLayout.layout(inForce, NODE_W, NODE_H, LABEL_W, LABEL_H);
            StateCounts counts = monitor.stateCounts();
            Map<Edge, Long> lastHour = monitor.transitionsLastHour();
            return new Snapshot(inForce, layout, counts.live(), counts.stuck(), lastHour, stuckThresholds.all(),
                    System.currentTimeMillis());
        }, s -> {
            feedback.clear();
            snapshot.set(s);
        });
    }

    /**
     * Opens the order table filtered to one status, oldest in status first.
     *
     * @param status the clicked status
     * @param stuckOnly true when the stuck badge was clicked
     */
    public void open(OrderStatus status, boolean stuckOnly) {
        navigator.showOrders(OrderQuery.inStatus(status, stuckOnly));
    }

    /**
     * Changes the stuck thresholds (this console session; the service keeps them in memory) and re-reads the counts.
     *
     * @param thresholds new threshold per non-terminal status; a status left out keeps its threshold
     * @throws IllegalArgumentException when a threshold is not positive
     */
    public void setThresholds(Map<OrderStatus, Duration> thresholds) {
        thresholds.forEach(stuckThresholds::set);
        refresh();
    }

    /** Asks for new stuck thresholds, one per status that has one, then sets them ({@link #setThresholds}). */
    public void editThresholds() {
        dialogs.askDurations("Stuck thresholds", "An order counts as stuck when it has been in its status longer than this.",
                thresholds()).ifPresent(this::setThresholds);
    }

    /** @return the current stuck thresholds */
    public Map<OrderStatus, Duration> thresholds() {
        return stuckThresholds.all();
    }

    /** @return the last reading, or null before the first */
    public ReadOnlyObjectProperty<Snapshot> snapshotProperty() {
        return snapshot.getReadOnlyProperty();
    }

    /** @return the last error in words, "" when the last reading succeeded */
    public Feedback feedback() {
        return feedback;
    }
}
