package com.orderconsole.ui.graph;

import com.orderconsole.app.Messages;
import com.orderconsole.app.RulesDiagram;
import com.orderconsole.domain.OrderStatus;
import com.orderconsole.domain.TransitionRules;

import javax.imageio.ImageIO;
import java.awt.BasicStroke;
import java.awt.Color;
import java.awt.Font;
import java.awt.FontMetrics;
import java.awt.Graphics2D;
import java.awt.RenderingHints;
import java.awt.geom.Path2D;
import java.awt.geom.RoundRectangle2D;
import java.awt.image.BufferedImage;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.List;

/**
 * Draws the state graph to a PNG with Java2D, from the same ELK layout and sizes as the graph page, with
 * the live counts: no JavaFX stage is needed, so the console's export and the headless CLI ({@code rules
 * export --format png}) draw the same picture. JavaFX-free on purpose (java.awt works with
 * {@code java.awt.headless=true}).
 */
public final class GraphPainter {
    private static final Color EDGE = new Color(0x55, 0x5f, 0x6d);
    private static final Color NODE = new Color(0xee, 0xf3, 0xfb);
    private static final Color NODE_BORDER = new Color(0x3b, 0x6e, 0xc4);
    private static final Color TERMINAL = new Color(0xe9, 0xec, 0xef);
    private static final Color TEXT = new Color(0x1f, 0x23, 0x28);
    private static final int MARGIN = 24;

    private GraphPainter() {
    }

    /**
     * @param rules the rules to draw
     * @param counts counts beside statuses and edges (null: the bare rules)
     * @param scale 1 for the graph page's size, 2 for a sharper image
     * @return the PNG file's bytes
     */
    public static byte[] png(TransitionRules rules, RulesDiagram.Counts counts, double scale) {
        StateGraphLayout.Result layout = StateGraphLayout.layout(rules, StateGraphViewModel.NODE_W, StateGraphViewModel.NODE_H,
                StateGraphViewModel.LABEL_W, StateGraphViewModel.LABEL_H);
        int titleH = 28;
        int w = (int) Math.ceil((layout.width() + 2 * MARGIN) * scale);
        int h = (int) Math.ceil((layout.height() + 2 * MARGIN + titleH) * scale);
        BufferedImage img = new BufferedImage(w, h, BufferedImage.TYPE_INT_ARGB);
        Graphics2D g = img.createGraphics();
        try {
            g.setRenderingHint(RenderingHints.KEY_ANTIALIASING, RenderingHints.VALUE_ANTIALIAS_ON);
            g.setRenderingHint(RenderingHints.KEY_TEXT_ANTIALIASING, RenderingHints.VALUE_TEXT_ANTIALIAS_ON);
            g.setColor(Color.WHITE);
            g.fillRect(0, 0, w, h);
            g.scale(scale, scale);
            g.setColor(TEXT);
            g.setFont(new Font(Font.SANS_SERIF, Font.BOLD, 15));
            g.drawString(Messages.format("diagram.title", Long.toString(rules.version())), MARGIN, MARGIN + 4);
            g.translate(MARGIN, MARGIN + titleH);
            g.setStroke(new BasicStroke(1.6f));
            for (StateGraphLayout.Route r : layout.routes()) {
                edge(g, r, RulesDiagram.edgeLabel(r.edge().from(), r.edge().to(), counts));
            }
            layout.nodes().forEach((s, box) -> node(g, s, box, rules.isTerminal(s), RulesDiagram.nodeLabel(s, counts)));
        } finally {
            g.dispose();
        }
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        try {
            ImageIO.write(img, "png", out);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return out.toByteArray();
    }

    private static void edge(Graphics2D g, StateGraphLayout.Route r, String label) {
        List<StateGraphLayout.Point> pts = r.points();
        Path2D.Double path = new Path2D.Double();
        path.moveTo(pts.get(0).x(), pts.get(0).y());
        for (int i = 1; i < pts.size(); i++) {
            path.lineTo(pts.get(i).x(), pts.get(i).y());
        }
        g.setColor(EDGE);
        g.draw(path);
        StateGraphLayout.Point end = pts.get(pts.size() - 1);
        StateGraphLayout.Point before = pts.get(pts.size() - 2);
        double angle = Math.atan2(end.y() - before.y(), end.x() - before.x());
        double len = 10;
        double spread = Math.toRadians(25);
        Path2D.Double head = new Path2D.Double();
        head.moveTo(end.x(), end.y());
        head.lineTo(end.x() - len * Math.cos(angle - spread), end.y() - len * Math.sin(angle - spread));
        head.lineTo(end.x() - len * Math.cos(angle + spread), end.y() - len * Math.sin(angle + spread));
        head.closePath();
        g.fill(head);
        if (!label.isEmpty()) {
            StateGraphLayout.Box b = r.label();
            g.setFont(new Font(Font.SANS_SERIF, Font.PLAIN, 11));
            FontMetrics fm = g.getFontMetrics();
            g.setColor(TEXT);
            g.drawString(label, (float) (b.x() + (b.width() - fm.stringWidth(label)) / 2), (float) (b.y() + b.height() - 4));
        }
    }

    private static void node(Graphics2D g, OrderStatus s, StateGraphLayout.Box b, boolean terminal, String counts) {
        RoundRectangle2D.Double rect = new RoundRectangle2D.Double(b.x(), b.y(), b.width(), b.height(), 14, 14);
        g.setColor(terminal ? TERMINAL : NODE);
        g.fill(rect);
        g.setColor(NODE_BORDER);
        g.setStroke(new BasicStroke(terminal ? 2.6f : 1.6f));
        g.draw(rect);
        g.setStroke(new BasicStroke(1.6f));
        g.setColor(TEXT);
        g.setFont(new Font(Font.SANS_SERIF, Font.BOLD, 13));
        FontMetrics fm = g.getFontMetrics();
        double mid = b.x() + b.width() / 2;
        double y = b.y() + (counts.isEmpty() ? b.height() / 2 + 5 : b.height() / 2 - 4);
        g.drawString(s.name(), (float) (mid - fm.stringWidth(s.name()) / 2.0), (float) y);
        if (!counts.isEmpty()) {
            g.setFont(new Font(Font.SANS_SERIF, Font.PLAIN, 12));
            fm = g.getFontMetrics();
            g.drawString(counts, (float) (mid - fm.stringWidth(counts) / 2.0), (float) (y + 20));
        }
    }
}
