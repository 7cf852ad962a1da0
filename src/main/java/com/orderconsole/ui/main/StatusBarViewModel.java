package com.orderconsole.ui.main;

import com.orderconsole.app.Messages;
import com.orderconsole.service.deadletter.DeadLetters;
import com.orderconsole.service.monitor.Health;
import com.orderconsole.service.monitor.HealthCheck;
import com.orderconsole.ui.common.Background;
import com.orderconsole.ui.common.Command;
import javafx.beans.property.ReadOnlyLongProperty;
import javafx.beans.property.ReadOnlyLongWrapper;
import javafx.beans.property.ReadOnlyObjectProperty;
import javafx.beans.property.ReadOnlyObjectWrapper;
import javafx.beans.property.SimpleStringProperty;
import javafx.beans.property.StringProperty;
import javafx.collections.FXCollections;
import javafx.collections.ObservableList;

import java.util.List;

/**
 * The status bar: Redis and MySQL up or down, rules version, warnings, and a notice from the console. The health check pings each
 * server within the engine's command timeout, so a server that stops answering shows DOWN within it.
 */
public final class StatusBarViewModel {
    private final HealthCheck healthService;
    private final DeadLetters deadLetters;
    private final ReadOnlyLongWrapper openDeadLetters = new ReadOnlyLongWrapper(-1);
    private final ReadOnlyObjectWrapper<Health> health = new ReadOnlyObjectWrapper<>();
    private final ObservableList<String> warnings = FXCollections.observableArrayList();
    private final StringProperty notice = new SimpleStringProperty("");
    private final Command checks;

    /**
     * @param healthService pings the servers (read-only)
     * @param deadLetters counts the open dead letters (read-only)
     * @param background where the checks run
     */
    public StatusBarViewModel(HealthCheck healthService, DeadLetters deadLetters, Background background) {
        this.healthService = healthService;
        this.deadLetters = deadLetters;
        // A check that fails outright says so as the one warning, with both servers shown down.
        this.checks = new Command(background, error -> show(new Health(false, false, null, List.of(error))));
    }

    /** Runs a health check in the background; skipped while the previous one is still waiting for a server. */
    public void check() {
        checks.run(Messages.get("main.health.action"), job -> new Reading(healthService.check(), countOpen()), r -> {
            show(r.health());
            openDeadLetters.set(r.openDeadLetters());
        });
    }

    /** @return open dead letters, -1 when MySQL cannot say (its health shows why) */
    private long countOpen() {
        try {
            return deadLetters.countOpen();
        } catch (RuntimeException e) {
            return -1;
        }
    }

    private record Reading(Health health, long openDeadLetters) {
    }

    private void show(Health h) {
        health.set(h);
        warnings.setAll(h.notices().stream().map(n -> Messages.format("health." + n.key(), n.args().toArray())).toList());
    }

    /** @return open dead letters at the last check; -1 before it or when MySQL could not say */
    public ReadOnlyLongProperty openDeadLettersProperty() {
        return openDeadLetters.getReadOnlyProperty();
    }

    /** @return the last health reading, null before the first */
    public ReadOnlyObjectProperty<Health> healthProperty() {
        return health.getReadOnlyProperty();
    }

    /** @return a one-off message from the console itself, e.g. that the sample was imported on first start; "" for none */
    public StringProperty noticeProperty() {
        return notice;
    }

    /** @return warnings in words from the last reading */
    public ObservableList<String> warnings() {
        return warnings;
    }
}
