package com.orderconsole.ui.graph;

import com.orderconsole.app.diagram.GraphPainter;
import com.orderconsole.app.diagram.StateGraphLayout;

import com.orderconsole.app.Messages;
import com.orderconsole.app.diagram.RulesDiagram;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import com.orderconsole.domain.Operator;
import com.orderconsole.domain.Role;
import com.orderconsole.service.recon.ReconCategory;
import com.orderconsole.service.recon.ReconReport;
import com.orderconsole.service.recon.Reconciliation;
import com.orderconsole.domain.OrderStatus;
import com.orderconsole.domain.TransitionRules;
import com.orderconsole.service.rules.StuckThresholds;
import com.orderconsole.service.monitor.Edge;
import com.orderconsole.service.monitor.Monitor;
import com.orderconsole.service.monitor.StateCounts;
import com.orderconsole.service.order.OrderQuery;
import com.orderconsole.service.rules.Rules;
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
    static final double NODE_W = StateGraphLayout.NODE_W;
    static final double NODE_H = StateGraphLayout.NODE_H;
    static final double LABEL_W = StateGraphLayout.LABEL_W;
    static final double LABEL_H = StateGraphLayout.LABEL_H;

    private final Rules rules;
    private final Monitor monitor;
    private final StuckThresholds stuckThresholds;
    private final Reconciliation reconciliation;
    private final Operator operator;
    private final DialogService dialogs;
    private final Navigator navigator;
    private final ReadOnlyObjectWrapper<Snapshot> snapshot = new ReadOnlyObjectWrapper<>();
    private final Feedback feedback = new Feedback();
    private final Command reads;
    private final Command recountCommand;
    private final Command exportCommand;

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
     * @param reconciliation recounts the live counters (its compare, then its "Live counters disagree" repair)
     * @param operator who recounts; the service refuses roles below ops
     * @param background where the reads and the layout run
     * @param dialogs asks for new thresholds and before a recount
     * @param navigator opens the order table
     */
    public StateGraphViewModel(Rules rules, Monitor monitor, StuckThresholds stuckThresholds,
                               Reconciliation reconciliation, Operator operator, Background background,
                               DialogService dialogs, Navigator navigator) {
        this.rules = rules;
        this.monitor = monitor;
        this.stuckThresholds = stuckThresholds;
        this.reconciliation = reconciliation;
        this.operator = operator;
        this.dialogs = dialogs;
        this.navigator = navigator;
        this.reads = new Command(background, feedback::error);
        this.recountCommand = new Command(background, feedback::error);
        this.exportCommand = new Command(background, feedback::error);
    }

    /** Where the graph's counts come from, in words, for the page header. */
    public static String countSource() {
        return Messages.get("graph.countSource");
    }

    /**
     * Asks, then recounts the live counters: the reconciliation compares Redis with MySQL (read-only) and,
     * when it finds "Live counters disagree", counts the orders Redis holds again and overwrites the
     * counters. The graph is read again afterwards.
     */
    public void recount() {
        if (recountCommand.isRunning() || !dialogs.confirm(Messages.get("graph.recount.title"),
                Messages.get("graph.recount.question"),
                countSource() + System.lineSeparator() + Messages.get("graph.recount.detail"),
                Messages.get("graph.recount.confirm"))) {
            return;
        }
        recountCommand.run(Messages.get("graph.recount.action"), job -> {
            ReconReport report = reconciliation.run(null, (phase, done, total) -> { }, job::cancelled);
            long drift = report.counts().getOrDefault(ReconCategory.COUNTERS_DRIFT, 0L);
            if (drift > 0 && !report.cancelled()) {
                reconciliation.repair(operator, report, ReconCategory.COUNTERS_DRIFT, "recount from the state graph", // i18n-ok: a reason kept in the history (data)
                        (phase, done, total) -> { }, job::cancelled);
            }
            return drift;
        }, drift -> {
            feedback.ok(drift == 0 ? Messages.get("graph.recounted.agree") : Messages.format("graph.recounted.corrected", drift));
            refresh();
        });
    }

    /** @return true when the operator may recount (ops and up) */
    public boolean canRecount() {
        return operator.role().includes(Role.OPS);
    }

    /** @return the recount: executable while none runs */
    public Command recountCommand() {
        return recountCommand;
    }

    @Override
    public void refresh() {
        Snapshot previous = snapshot.get();
        reads.run(Messages.get("graph.read.action"), job -> {
            TransitionRules inForce = rules.current();
            StateGraphLayout.Result layout = previous != null && previous.rules().sameGraph(inForce) ? previous.layout()
                    : StateGraphLayout.layout(inForce, NODE_W, NODE_H, LABEL_W, LABEL_H);
            StateCounts counts = monitor.stateCounts();
            Map<Edge, Long> lastHour = monitor.transitionsLastHour();
            return new Snapshot(inForce, layout, counts.live(), counts.stuck(), lastHour, stuckThresholds.all(),
                    System.currentTimeMillis());
        }, s -> {
            if (feedback.errorProperty().get()) {
                feedback.clear();
            }
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
     * Changes the stuck thresholds (ops and up): they are part of the rules, so the change is stored as the
     * next rules version, archived, and counted the same by every console and the CLI, also after a restart.
     * The counts are read again afterwards.
     *
     * @param thresholds new threshold per non-terminal status; a status left out keeps its threshold
     */
    public void setThresholds(Map<OrderStatus, Duration> thresholds) {
        Map<OrderStatus, Duration> all = new java.util.EnumMap<>(OrderStatus.class);
        all.putAll(stuckThresholds.all());
        all.putAll(thresholds);
        recountCommand.run(Messages.get("graph.work.thresholds"), job -> rules.setStuckThresholds(operator, all), r -> {
            feedback.ok(Messages.format("graph.thresholds.saved", Long.toString(r.version())));
            refresh();
        }, error -> feedback.error(error));
    }

    /** Asks for new stuck thresholds, one per status that has one, then sets them ({@link #setThresholds}). */
    public void editThresholds() {
        dialogs.askDurations(Messages.get("graph.thresholds.title"), Messages.get("graph.thresholds.statement"),
                thresholds()).ifPresent(this::setThresholds);
    }

    /** @return true when the operator may change the stuck thresholds (ops and up: they are part of the rules) */
    public boolean canEditThresholds() {
        return operator.role().includes(Role.OPS);
    }

    /** @return the current stuck thresholds */
    public Map<OrderStatus, Duration> thresholds() {
        return stuckThresholds.all();
    }

    /**
     * Asks for a file, then exports the graph as shown: PlantUML or Mermaid text, or a PNG drawn from the
     * same layout with the live counts of the last reading ({@link GraphPainter}).
     *
     * @param format the diagram format
     */
    public void export(RulesDiagram.Format format) {
        Snapshot s = snapshot.get();
        if (s == null) {
            feedback.error(Messages.get("diagram.export.notYet"));
            return;
        }
        dialogs.askSaveFile(Messages.format("diagram.export.title", format.name()), RulesDiagram.fileName(s.rules(), format),
                format.name(), "*." + format.extension()).ifPresent(p -> exportTo(s, format, p));
    }

    private void exportTo(Snapshot s, RulesDiagram.Format format, Path path) {
        exportCommand.run(Messages.get("diagram.work.export"), job -> {
            try {
                Files.write(path, diagram(s, format));
            } catch (IOException e) {
                throw new UncheckedIOException(Messages.format("diagram.export.failed", path, e.getMessage()), e);
            }
            return path;
        }, p -> feedback.ok(Messages.format("diagram.export.done", Long.toString(s.rules().version()), format.name(), p.toString())));
    }

    /**
     * @param s a reading of the graph
     * @param format the diagram format
     * @return the diagram's file content: UTF-8 text or PNG bytes
     */
    static byte[] diagram(Snapshot s, RulesDiagram.Format format) {
        Map<OrderStatus, Long> stuck = new java.util.EnumMap<>(OrderStatus.class);
        for (OrderStatus st : OrderStatus.values()) {
            Long n = s.stuckCount(st);
            if (n != null) {
                stuck.put(st, n);
            }
        }
        RulesDiagram.Counts counts = new RulesDiagram.Counts(s.live(), stuck, s.lastHour());
        return switch (format) {
            case PLANTUML -> RulesDiagram.plantUml(s.rules(), counts).getBytes(StandardCharsets.UTF_8);
            case MERMAID -> RulesDiagram.mermaid(s.rules(), counts).getBytes(StandardCharsets.UTF_8);
            case PNG -> GraphPainter.png(s.rules(), counts, 2);
        };
    }

    /** @return diagram exports: executable while none runs */
    public Command exportCommand() {
        return exportCommand;
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
