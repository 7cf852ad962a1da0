package com.orderconsole.ui.graph;

import com.orderconsole.app.RulesDiagram;
import javafx.scene.control.MenuButton;
import com.orderconsole.domain.OrderStatus;
import com.orderconsole.ui.common.Formats;
import com.orderconsole.ui.common.Fxml;
import com.orderconsole.ui.common.Styles;
import com.orderconsole.ui.graph.StateGraphLayout.Box;
import com.orderconsole.ui.graph.StateGraphLayout.Point;
import com.orderconsole.ui.graph.StateGraphLayout.Route;
import com.orderconsole.ui.graph.StateGraphViewModel.Snapshot;
import javafx.fxml.FXML;
import javafx.geometry.Pos;
import javafx.scene.Node;
import javafx.scene.control.Button;
import javafx.scene.control.Label;
import javafx.scene.control.ScrollPane;
import javafx.scene.control.Tooltip;
import javafx.scene.input.KeyCode;
import javafx.scene.layout.BorderPane;
import javafx.scene.layout.Pane;
import javafx.scene.layout.StackPane;
import javafx.scene.layout.VBox;
import javafx.scene.shape.Polygon;
import javafx.scene.shape.Polyline;

import java.util.EnumMap;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/** Draws the state graph from the view model's snapshot: ELK positions, counts, stuck badges, edge counts. */
public final class StateGraphView {
    private final StateGraphViewModel vm;
    private final BorderPane root;
    private final Map<OrderStatus, Label> countLabels = new EnumMap<>(OrderStatus.class);
    private final Map<OrderStatus, Button> stuckBadges = new EnumMap<>(OrderStatus.class);
    private final Map<Route, Label> edgeLabels = new HashMap<>();
    private StateGraphLayout.Result drawn;

    @FXML private Label rulesLabel;
    @FXML private Label graphMessage;
    @FXML private Label updated;
    @FXML private Pane canvas;
    @FXML private ScrollPane scroll;
    @FXML private StackPane sidePane;
    @FXML private Label loading;
    @FXML private Label countSource;
    @FXML private Button recountButton;
    @FXML private MenuButton exportMenu;
    @FXML private Button thresholdsButton;

    /**
     * @param vm the graph's model
     * @param side shown beside the graph (the shell puts the live-traffic panel there, so its effect is
     *     seen as it happens)
     */
    public StateGraphView(StateGraphViewModel vm, Node side) {
        this.vm = vm;
        this.root = Fxml.load("/fxml/graph/StateGraphView.fxml", this);
        sidePane.getChildren().add(side);
        Styles.toggle(graphMessage, vm.feedback());
        graphMessage.visibleProperty().bind(vm.feedback().messageProperty().isNotEmpty());
        graphMessage.managedProperty().bind(graphMessage.visibleProperty());
        countSource.setText(StateGraphViewModel.COUNT_SOURCE);
        recountButton.setVisible(vm.canRecount());
        recountButton.setManaged(vm.canRecount());
        recountButton.disableProperty().bind(vm.recountCommand().executableProperty().not());
        thresholdsButton.setVisible(vm.canEditThresholds());
        thresholdsButton.setManaged(vm.canEditThresholds());
        exportMenu.disableProperty().bind(vm.snapshotProperty().isNull().or(vm.exportCommand().executableProperty().not()));
        recountButton.setTooltip(new Tooltip("Runs the reconciliation's compare and its \"Live counters disagree\" repair"));
        // Until the first reading arrives the page says it is reading, or why it could not.
        loading.visibleProperty().bind(vm.snapshotProperty().isNull());
        loading.managedProperty().bind(loading.visibleProperty());
        vm.feedback().messageProperty().addListener((o, a, m) -> loading.setText(vm.feedback().errorProperty().get()
                ? "No graph yet: the rules and counts could not be read (see above). F5 tries again."
                : "Reading the rules and the counts…"));
        vm.snapshotProperty().addListener((o, a, s) -> show(s));
        scroll.viewportBoundsProperty().addListener((o, a, b) -> fit());
        show(vm.snapshotProperty().get());
    }

    /** @return the page's root node */
    public BorderPane root() {
        return root;
    }

    private void show(Snapshot s) {
        if (s == null) {
            return;
        }
        if (s.layout() != drawn) {
            draw(s);
        }
        rulesLabel.setText("rules version " + s.rules().version());
        updated.setText("updated " + Formats.time(s.atMs()) + " " + Formats.zone());
        for (OrderStatus st : OrderStatus.values()) {
            countLabels.get(st).setText(Long.toString(s.liveCount(st)));
            Button badge = stuckBadges.get(st);
            Long stuck = s.stuckCount(st);
            badge.setVisible(stuck != null);
            badge.setManaged(stuck != null);
            if (stuck != null) {
                badge.setText(stuck + " stuck");
                Styles.toggle(badge, Styles.STUCK_NONE, stuck == 0);
                badge.setTooltip(new Tooltip("In " + st + " longer than " + Formats.duration(s.thresholds().get(st))
                        + ". Click to list them."));
            }
        }
        edgeLabels.forEach((route, label) -> label.setText(s.lastHour(route.edge()) + " /h"));
    }

    private void draw(Snapshot s) {
        drawn = s.layout();
        canvas.getChildren().clear();
        countLabels.clear();
        stuckBadges.clear();
        edgeLabels.clear();
        canvas.setPrefSize(drawn.width(), drawn.height());
        for (Route r : drawn.routes()) {
            drawEdge(r);
        }
        drawn.nodes().forEach((st, box) -> canvas.getChildren().add(node(st, box, s.rules().isTerminal(st))));
        fit();
    }

    /** Shrinks the drawing to the visible area (never enlarges it); scroll bars appear only below half size. */
    private void fit() {
        if (drawn == null) {
            return;
        }
        double w = scroll.getViewportBounds().getWidth() - 16;
        double h = scroll.getViewportBounds().getHeight() - 16;
        double scale = w <= 0 || h <= 0 ? 1 : Math.max(0.5, Math.min(1, Math.min(w / drawn.width(), h / drawn.height())));
        canvas.setScaleX(scale);
        canvas.setScaleY(scale);
    }

    private void drawEdge(Route r) {
        List<Point> pts = r.points();
        Polyline line = new Polyline();
        pts.forEach(p -> line.getPoints().addAll(p.x(), p.y()));
        line.getStyleClass().add(Styles.GRAPH_EDGE);
        Point end = pts.get(pts.size() - 1);
        Point before = pts.get(pts.size() - 2);
        double angle = Math.atan2(end.y() - before.y(), end.x() - before.x());
        double len = 10;
        double spread = Math.toRadians(25);
        Polygon head = new Polygon(end.x(), end.y(),
                end.x() - len * Math.cos(angle - spread), end.y() - len * Math.sin(angle - spread),
                end.x() - len * Math.cos(angle + spread), end.y() - len * Math.sin(angle + spread));
        head.getStyleClass().add(Styles.GRAPH_ARROW);
        Box lb = r.label();
        Label label = new Label();
        label.setId("edge-" + r.edge().from() + "-" + r.edge().to());
        label.getStyleClass().add(Styles.GRAPH_EDGE_LABEL);
        label.setAlignment(Pos.CENTER);
        label.relocate(lb.x(), lb.y());
        label.setPrefSize(lb.width(), lb.height());
        label.setTooltip(new Tooltip("Transitions " + r.edge() + " applied in the last hour"));
        edgeLabels.put(r, label);
        canvas.getChildren().addAll(line, head, label);
    }

    private VBox node(OrderStatus st, Box box, boolean terminal) {
        Label name = new Label(st.name());
        name.getStyleClass().add(Styles.GRAPH_NODE_NAME);
        Label count = new Label("–");
        count.setId("count-" + st.name());
        count.getStyleClass().add(Styles.GRAPH_NODE_COUNT);
        Button badge = new Button();
        badge.setMnemonicParsing(false);
        badge.setId("stuck-" + st.name());
        badge.getStyleClass().add(Styles.STUCK_BADGE);
        badge.setFocusTraversable(true);
        badge.setOnKeyPressed(e -> {
            if (e.getCode() == KeyCode.ENTER) {
                badge.fire();
                e.consume();
            }
        });
        badge.setOnAction(e -> vm.open(st, true));
        VBox v = new VBox(2, name, count, badge);
        v.setId("node-" + st.name());
        v.setAlignment(Pos.CENTER);
        v.getStyleClass().addAll(Styles.GRAPH_NODE, Styles.status(st));
        Styles.toggle(v, Styles.TERMINAL, terminal);
        v.relocate(box.x(), box.y());
        v.setPrefSize(box.width(), box.height());
        v.setOnMouseClicked(e -> vm.open(st, false));
        // Reachable by keyboard: Tab to a status, Enter or Space lists its orders.
        v.setFocusTraversable(true);
        v.setOnKeyPressed(e -> {
            if ((e.getCode() == KeyCode.ENTER || e.getCode() == KeyCode.SPACE) && e.getTarget() == v) {
                vm.open(st, false);
                e.consume();
            }
        });
        v.setAccessibleText(st + " orders");
        Tooltip.install(v, new Tooltip("Click to list the orders in " + st));
        countLabels.put(st, count);
        stuckBadges.put(st, badge);
        return v;
    }

    @FXML
    private void onRecount() {
        vm.recount();
    }

    @FXML
    private void onThresholds() {
        vm.editThresholds();
    }

    @FXML
    private void onExportPlantUml() {
        vm.export(RulesDiagram.Format.PLANTUML);
    }

    @FXML
    private void onExportMermaid() {
        vm.export(RulesDiagram.Format.MERMAID);
    }

    @FXML
    private void onExportPng() {
        vm.export(RulesDiagram.Format.PNG);
    }
}
