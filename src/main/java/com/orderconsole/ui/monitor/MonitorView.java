package com.orderconsole.ui.monitor;

import com.orderconsole.app.Messages;
import com.orderconsole.domain.ResultCode;
import com.orderconsole.ui.common.Formats;
import com.orderconsole.ui.common.Fxml;
import com.orderconsole.ui.common.Styles;
import com.orderconsole.ui.monitor.MonitorViewModel.Reading;
import javafx.fxml.FXML;
import javafx.scene.chart.BarChart;
import javafx.scene.chart.LineChart;
import javafx.scene.chart.XYChart;
import javafx.scene.control.Label;
import javafx.scene.layout.StackPane;
import javafx.scene.layout.BorderPane;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/** The Monitor page: rejections by result code and transitions/rejections per minute ({@link MonitorViewModel}). */
public final class MonitorView {
    private final MonitorViewModel vm;
    private final BorderPane root;
    private final XYChart.Series<String, Number> rejections = new XYChart.Series<>();
    private final XYChart.Series<Number, Number> appliedPerMinute = new XYChart.Series<>();
    private final XYChart.Series<Number, Number> rejectedPerMinute = new XYChart.Series<>();

    @FXML private Label totals;
    @FXML private Label monitorMessage;
    @FXML private Label updated;
    @FXML private BarChart<String, Number> rejectionChart;
    @FXML private LineChart<Number, Number> minuteChart;

    public MonitorView(MonitorViewModel vm) {
        this.vm = vm;
        this.root = Fxml.load("/fxml/monitor/MonitorView.fxml", this);
        rejectionChart.getData().add(rejections);
        appliedPerMinute.setName(Messages.get("monitor.series.applied"));
        rejectedPerMinute.setName(Messages.get("monitor.series.rejected"));
        minuteChart.getData().setAll(List.of(appliedPerMinute, rejectedPerMinute));
        Styles.toggle(monitorMessage, vm.feedback());
        vm.readingProperty().addListener((o, a, r) -> show(r));
    }

    /**
     * Writes a bar's value above it, so a bar of 1 beside one of 744 (a fraction of a pixel tall) is still
     * seen and read; a bar above zero is drawn at least 2 pixels tall.
     */
    private static void labelBar(XYChart.Data<String, Number> d) {
        Runnable attach = () -> {
            if (!(d.getNode() instanceof StackPane bar)) {
                return;
            }
            Label value = new Label(Messages.format("monitor.bar", d.getYValue().longValue()));
            value.getStyleClass().add(Styles.BAR_VALUE);
            value.setManaged(false);
            bar.getChildren().setAll(value);
            bar.layoutBoundsProperty().addListener((o, a, b) -> {
                value.autosize();
                value.relocate((b.getWidth() - value.getWidth()) / 2, -value.getHeight() - 2);
            });
            if (d.getYValue().longValue() > 0) {
                Styles.toggle(bar, Styles.BAR_NONZERO, true);
            }
        };
        if (d.getNode() != null) {
            attach.run();
        } else {
            d.nodeProperty().addListener((o, a, n) -> attach.run());
        }
    }

    /** @return the page's root node */
    public BorderPane root() {
        return root;
    }

    private void show(Reading r) {
        totals.setText(Messages.format("monitor.totals", r.applied(), r.rejections()));
        updated.setText(Messages.format("monitor.updated", Formats.time(r.atMs()), Formats.zone()));
        List<XYChart.Data<String, Number>> bars = new ArrayList<>();
        for (Map.Entry<ResultCode, Long> e : r.resultCounts().entrySet()) {
            if (!e.getKey().applied()) {
                bars.add(new XYChart.Data<>(Messages.get("monitor.code." + e.getKey().name()), e.getValue()));
            }
        }
        rejections.getData().setAll(bars);
        bars.forEach(MonitorView::labelBar);
        List<XYChart.Data<Number, Number>> applied = new ArrayList<>();
        List<XYChart.Data<Number, Number>> rejected = new ArrayList<>();
        for (MonitorViewModel.MinutePoint m : r.minutes()) {
            applied.add(new XYChart.Data<>(m.minutesAgo(), m.applied()));
            rejected.add(new XYChart.Data<>(m.minutesAgo(), m.rejected()));
        }
        appliedPerMinute.getData().setAll(applied);
        rejectedPerMinute.getData().setAll(rejected);
    }
}
