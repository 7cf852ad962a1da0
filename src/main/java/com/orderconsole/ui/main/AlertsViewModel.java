package com.orderconsole.ui.main;

import com.orderconsole.app.Messages;
import com.orderconsole.service.metrics.Alert;
import com.orderconsole.service.metrics.AlertCheck;
import com.orderconsole.ui.common.Background;
import javafx.collections.FXCollections;
import javafx.collections.ObservableList;

import java.util.List;


/**
 * The alert thresholds as the console sees them: checked with the status bar (every tick), each
 * incident becomes one notice when it begins and one when it clears; the view shows each notice once as a
 * ControlsFX notification.
 */
public final class AlertsViewModel {
    /**
     * One notification to show.
     *
     * @param kind what it is about
     * @param raised true when an incident begins, false when it cleared
     * @param title short, e.g. "MySQL sync lag"
     * @param text the figure and the threshold in words
     */
    public record Notice(Alert.Kind kind, boolean raised, String title, String text) {
    }

    private final AlertCheck metrics;
    private final Background background;
    private final ObservableList<Notice> notices = FXCollections.observableArrayList();
    private boolean checking;

    /**
     * @param metrics the thresholds and the readings
     * @param background where the reading runs
     */
    public AlertsViewModel(AlertCheck metrics, Background background) {
        this.metrics = metrics;
        this.background = background;
    }

    /** Takes a reading and adds a notice per incident that began or cleared; skipped while one is running. */
    public void check() {
        if (checking) {
            return;
        }
        checking = true;
        background.run(Messages.get("alert.check.action"), job -> metrics.checkAlerts(), changes -> {
            checking = false;
            add(changes);
        }, error -> checking = false);
    }

    private void add(List<Alert> changes) {
        for (Alert a : changes) {
            notices.add(new Notice(a.kind(), a.raised(), title(a), text(a)));
        }
    }

    /** @return every notice so far, oldest first (the view shows each as it is added) */
    public ObservableList<Notice> notices() {
        return notices;
    }

    /** @return the notification's title, e.g. "MySQL sync lag" or "Cleared: MySQL sync lag" */
    static String title(Alert a) {
        String name = Messages.get("alert." + key(a.kind()) + ".title");
        return a.raised() ? name : Messages.format("alert.cleared", name);
    }

    /** @return the figure against its threshold, in words */
    static String text(Alert a) {
        String k = "alert." + key(a.kind()) + (a.raised() ? ".raised" : ".clear");
        if (a.kind() == Alert.Kind.REJECTION_RATE) {
            return Messages.format(k, Math.round(a.value() * 100), Math.round(a.threshold() * 100));
        }
        return Messages.format(k, Math.round(a.value()), Math.round(a.threshold()));
    }

    private static String key(Alert.Kind kind) {
        return switch (kind) {
            case SYNC_LAG -> "syncLag";
            case OLDEST_OVERDUE -> "overdue";
            case REJECTION_RATE -> "rejections";
            case SWEEPER_STALLED -> "sweeper";
        };
    }

}
