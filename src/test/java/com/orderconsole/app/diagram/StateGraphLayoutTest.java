package com.orderconsole.app.diagram;

import com.orderconsole.domain.OrderStatus;
import com.orderconsole.domain.TransitionRules;
import com.orderconsole.service.monitor.Edge;
import com.orderconsole.app.diagram.StateGraphLayout.Box;
import com.orderconsole.app.diagram.StateGraphLayout.Point;
import com.orderconsole.app.diagram.StateGraphLayout.Result;
import com.orderconsole.app.diagram.StateGraphLayout.Route;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;

import static com.orderconsole.domain.OrderStatus.CANCELLED;
import static com.orderconsole.domain.OrderStatus.FINISHED;
import static com.orderconsole.domain.OrderStatus.PAID;
import static com.orderconsole.domain.OrderStatus.SHIPPED;
import static com.orderconsole.domain.OrderStatus.WAIT_PAY;
import static com.orderconsole.domain.OrderStatus.WAIT_SHIP;
import static org.assertj.core.api.Assertions.assertThat;

class StateGraphLayoutTest {

    private static Result layout(TransitionRules rules) {
        return StateGraphLayout.layout(rules, 170, 92, 64, 18);
    }

    @Test
    void defaultRulesAreLaidOutLeftToRightWithoutOverlaps() {
        Result r = layout(TransitionRules.defaults());
        assertThat(r.nodes()).containsOnlyKeys(OrderStatus.values());
        assertThat(r.routes()).extracting(Route::edge).containsExactlyInAnyOrder(new Edge(WAIT_PAY, PAID),
                new Edge(WAIT_PAY, CANCELLED), new Edge(PAID, WAIT_SHIP), new Edge(WAIT_SHIP, SHIPPED), new Edge(SHIPPED, FINISHED));
        List<Box> boxes = new ArrayList<>(r.nodes().values());
        for (int i = 0; i < boxes.size(); i++) {
            for (int j = i + 1; j < boxes.size(); j++) {
                assertThat(overlaps(boxes.get(i), boxes.get(j))).as("nodes %s and %s", i, j).isFalse();
            }
        }
        // Layered: each status sits in a later layer than the one it comes from.
        assertThat(x(r, WAIT_PAY)).isLessThan(x(r, PAID));
        assertThat(x(r, PAID)).isLessThan(x(r, WAIT_SHIP));
        assertThat(x(r, WAIT_SHIP)).isLessThan(x(r, SHIPPED));
        assertThat(x(r, SHIPPED)).isLessThan(x(r, FINISHED));
        assertThat(r.width()).isGreaterThan(x(r, FINISHED));
    }

    @Test
    void everyEdgeRunsFromItsSourceToItsTargetAndItsLabelOverlapsNoNode() {
        Result r = layout(TransitionRules.defaults());
        for (Route route : r.routes()) {
            Point start = route.points().get(0);
            Point end = route.points().get(route.points().size() - 1);
            assertThat(onBorder(r.nodes().get(route.edge().from()), start)).as("start of %s", route.edge()).isTrue();
            assertThat(onBorder(r.nodes().get(route.edge().to()), end)).as("end of %s", route.edge()).isTrue();
            r.nodes().forEach((s, b) -> assertThat(overlaps(route.label(), b)).as("label of %s over %s", route.edge(), s).isFalse());
            // The label sits beside its own edge: within the edge's horizontal span and close to one of its segments.
            double cx = route.label().x() + route.label().width() / 2;
            double cy = route.label().y() + route.label().height() / 2;
            double minX = route.points().stream().mapToDouble(Point::x).min().orElseThrow();
            double maxX = route.points().stream().mapToDouble(Point::x).max().orElseThrow();
            assertThat(cx).as("label of %s", route.edge()).isBetween(minX, maxX);
            assertThat(route.points()).as("label of %s near the edge", route.edge())
                    .anyMatch(p -> Math.abs(p.y() - cy) <= route.label().height());
        }
    }

    @Test
    void aChangedRuleSetIsRedrawnFromTheRules() {
        // Ops adds "refund after payment" and "return after shipping back to the warehouse".
        TransitionRules changed = TransitionRules.of(2, Map.of(
                WAIT_PAY, Set.of(PAID, CANCELLED),
                PAID, Set.of(WAIT_SHIP, CANCELLED),
                WAIT_SHIP, Set.of(SHIPPED),
                SHIPPED, Set.of(FINISHED, WAIT_SHIP)), Set.of(FINISHED, CANCELLED));
        Result r = layout(changed);
        assertThat(r.routes()).hasSize(7);
        assertThat(r.routes()).extracting(Route::edge).contains(new Edge(PAID, CANCELLED), new Edge(SHIPPED, WAIT_SHIP));
        List<Box> boxes = new ArrayList<>(r.nodes().values());
        for (int i = 0; i < boxes.size(); i++) {
            for (int j = i + 1; j < boxes.size(); j++) {
                assertThat(overlaps(boxes.get(i), boxes.get(j))).isFalse();
            }
        }
        assertThat(x(r, CANCELLED)).as("CANCELLED now follows PAID").isGreaterThan(x(r, PAID));
    }

    private static boolean overlaps(Box a, Box b) {
        return a.x() < b.x() + b.width() && b.x() < a.x() + a.width() && a.y() < b.y() + b.height() && b.y() < a.y() + a.height();
    }

    private static double x(Result r, OrderStatus s) {
        return r.nodes().get(s).x();
    }

    private static boolean onBorder(Box b, Point p) {
        double eps = 1.0;
        boolean inX = p.x() >= b.x() - eps && p.x() <= b.x() + b.width() + eps;
        boolean inY = p.y() >= b.y() - eps && p.y() <= b.y() + b.height() + eps;
        boolean onVertical = Math.abs(p.x() - b.x()) <= eps || Math.abs(p.x() - (b.x() + b.width())) <= eps;
        boolean onHorizontal = Math.abs(p.y() - b.y()) <= eps || Math.abs(p.y() - (b.y() + b.height())) <= eps;
        return inX && inY && (onVertical || onHorizontal);
    }
}
