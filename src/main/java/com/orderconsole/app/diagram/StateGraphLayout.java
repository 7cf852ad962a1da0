package com.orderconsole.app.diagram;

import com.orderconsole.domain.OrderStatus;
import com.orderconsole.domain.TransitionRules;
import com.orderconsole.service.monitor.Edge;
import org.eclipse.elk.alg.layered.options.LayeredOptions;
import org.eclipse.elk.core.RecursiveGraphLayoutEngine;
import org.eclipse.elk.core.math.ElkPadding;
import org.eclipse.elk.core.options.CoreOptions;
import org.eclipse.elk.core.options.Direction;
import org.eclipse.elk.core.options.EdgeLabelPlacement;
import org.eclipse.elk.core.options.EdgeRouting;
import org.eclipse.elk.core.util.BasicProgressMonitor;
import org.eclipse.elk.graph.ElkBendPoint;
import org.eclipse.elk.graph.ElkEdge;
import org.eclipse.elk.graph.ElkEdgeSection;
import org.eclipse.elk.graph.ElkLabel;
import org.eclipse.elk.graph.ElkNode;
import org.eclipse.elk.graph.util.ElkGraphUtil;

import java.util.ArrayList;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;

/**
 * Lays the state graph out with ELK Layered (left to right, orthogonal edges), from whatever rules
 * are in force: positions are computed, never hand-placed, so a changed rule set redraws sensibly.
 * Pure computation, no JavaFX: coordinates are in pixels from the top-left corner of the drawing.
 */
public final class StateGraphLayout {
    /** Size of a status box and of an edge label as the graph page draws them, in pixels (PNG export uses the same). */
    public static final double NODE_W = 150;
    /** @see #NODE_W */
    public static final double NODE_H = 88;
    /** @see #NODE_W */
    public static final double LABEL_W = 64;
    /** @see #NODE_W */
    public static final double LABEL_H = 18;

    private StateGraphLayout() {
    }

    /** A rectangle: top-left corner and size, pixels. */
    public record Box(double x, double y, double width, double height) {
    }

    /** A point, pixels. */
    public record Point(double x, double y) {
    }

    /**
     * One drawn edge.
     *
     * @param edge the transition
     * @param points start, bend points and end (at the target's border)
     * @param label where the edge's label goes
     */
    public record Route(Edge edge, List<Point> points, Box label) {
    }

    /**
     * The laid-out graph.
     *
     * @param width drawing width, pixels
     * @param height drawing height, pixels
     * @param nodes one box per status
     * @param routes one route per legal transition
     */
    public record Result(double width, double height, Map<OrderStatus, Box> nodes, List<Route> routes) {
    }

    /**
     * Computes the layout.
     *
     * @param rules the transitions to draw; every status becomes a node
     * @param nodeWidth node width, pixels
     * @param nodeHeight node height, pixels
     * @param labelWidth space reserved for an edge label, pixels
     * @param labelHeight edge label height, pixels
     * @return node boxes and edge routes
     */
    public static Result layout(TransitionRules rules, double nodeWidth, double nodeHeight, double labelWidth,
                                double labelHeight) {
        ElkNode root = ElkGraphUtil.createGraph();
        root.setProperty(CoreOptions.ALGORITHM, LayeredOptions.ALGORITHM_ID);
        root.setProperty(CoreOptions.DIRECTION, Direction.RIGHT);
        root.setProperty(CoreOptions.EDGE_ROUTING, EdgeRouting.ORTHOGONAL);
        root.setProperty(CoreOptions.PADDING, new ElkPadding(24));
        root.setProperty(CoreOptions.SPACING_NODE_NODE, 36.0);
        // Centre edge labels get a layer of their own, so layers can sit closer than usual.
        root.setProperty(LayeredOptions.SPACING_NODE_NODE_BETWEEN_LAYERS, 24.0);
        root.setProperty(LayeredOptions.SPACING_EDGE_NODE_BETWEEN_LAYERS, 16.0);
        root.setProperty(LayeredOptions.EDGE_LABELS_INLINE, true);
        root.setProperty(CoreOptions.SPACING_EDGE_LABEL, 4.0);

        Map<OrderStatus, ElkNode> nodes = new EnumMap<>(OrderStatus.class);
        for (OrderStatus s : OrderStatus.values()) {
            ElkNode n = ElkGraphUtil.createNode(root);
            n.setIdentifier(s.name());
            n.setDimensions(nodeWidth, nodeHeight);
            nodes.put(s, n);
        }
        List<Edge> edges = new ArrayList<>();
        List<ElkEdge> elkEdges = new ArrayList<>();
        rules.edges().forEach((from, tos) -> {
            for (OrderStatus to : tos) {
                ElkEdge e = ElkGraphUtil.createSimpleEdge(nodes.get(from), nodes.get(to));
                // ELK skips labels without text; the text here only stands for the count drawn later.
                ElkLabel l = ElkGraphUtil.createLabel("0 /h", e);
                l.setDimensions(labelWidth, labelHeight);
                l.setProperty(CoreOptions.EDGE_LABELS_PLACEMENT, EdgeLabelPlacement.CENTER);
                edges.add(new Edge(from, to));
                elkEdges.add(e);
            }
        });

        new RecursiveGraphLayoutEngine().layout(root, new BasicProgressMonitor());

        Map<OrderStatus, Box> boxes = new EnumMap<>(OrderStatus.class);
        nodes.forEach((s, n) -> boxes.put(s, new Box(n.getX(), n.getY(), n.getWidth(), n.getHeight())));
        List<Route> routes = new ArrayList<>();
        for (int i = 0; i < edges.size(); i++) {
            ElkEdge e = elkEdges.get(i);
            // All nodes sit directly in the root, so edge coordinates are root coordinates.
            List<Point> pts = new ArrayList<>();
            for (ElkEdgeSection sec : e.getSections()) {
                pts.add(new Point(sec.getStartX(), sec.getStartY()));
                for (ElkBendPoint b : sec.getBendPoints()) {
                    pts.add(new Point(b.getX(), b.getY()));
                }
                pts.add(new Point(sec.getEndX(), sec.getEndY()));
            }
            ElkLabel l = e.getLabels().get(0);
            routes.add(new Route(edges.get(i), pts, new Box(l.getX(), l.getY(), l.getWidth(), l.getHeight())));
        }
        return new Result(root.getWidth(), root.getHeight(), boxes, routes);
    }
}
