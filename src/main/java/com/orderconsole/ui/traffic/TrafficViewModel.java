package com.orderconsole.ui.traffic;

import com.orderconsole.app.Messages;
import com.orderconsole.app.ProductionGuard;
import com.orderconsole.ui.common.DialogService;
import com.orderconsole.domain.Operator;
import com.orderconsole.domain.Role;
import com.orderconsole.service.traffic.SimulatorSettings;
import com.orderconsole.service.traffic.SimulatorStatus;
import com.orderconsole.service.traffic.TrafficSimulator;
import com.orderconsole.ui.common.Background;
import com.orderconsole.ui.common.Command;
import com.orderconsole.ui.common.Feedback;
import com.orderconsole.ui.common.Formats;
import com.orderconsole.ui.common.Refreshable;
import javafx.beans.binding.Bindings;
import javafx.beans.binding.BooleanBinding;
import javafx.beans.property.ReadOnlyBooleanProperty;
import javafx.beans.property.ReadOnlyBooleanWrapper;
import javafx.beans.property.ReadOnlyObjectProperty;
import javafx.beans.property.ReadOnlyObjectWrapper;
import javafx.beans.property.SimpleStringProperty;
import javafx.beans.property.StringProperty;

import java.time.Duration;
import java.util.Locale;

/**
 * Live traffic for demos: the settings as typed (rate, shares in percent, payment timeout), start and
 * stop of the engine's traffic simulator, and its counters. Starting needs the ops role; the service
 * refuses it for lower roles whatever the console offers.
 */
public final class TrafficViewModel implements Refreshable {
    private final TrafficSimulator simulator;
    private final Operator operator;
    private final StringProperty rate = new SimpleStringProperty();
    private final StringProperty payPercent = new SimpleStringProperty();
    private final StringProperty latePayPercent = new SimpleStringProperty();
    private final StringProperty timeout = new SimpleStringProperty();
    private final ReadOnlyObjectWrapper<SimulatorStatus> status = new ReadOnlyObjectWrapper<>();
    private final ReadOnlyBooleanWrapper settingsLocked = new ReadOnlyBooleanWrapper();
    private final Feedback feedback = new Feedback();
    private final DialogService dialogs;
    private final ProductionGuard guard;
    private final Command reading;
    private final Command startCommand;
    private final Command stopCommand;

    /**
     * The fields start at {@link SimulatorSettings#demo()}.
     *
     * @param simulator the engine's traffic simulator, or null where there is none (the console works through serve):
     *     the panel then says why and starts nothing
     * @param operator who starts it; the service refuses roles below ops
     * @param background where reads, starts and stops run
     * @param dialogs asks for the typed confirmation on staging; its environment decides (production: refused)
     */
    public TrafficViewModel(TrafficSimulator simulator, Operator operator, Background background, DialogService dialogs) {
        this.simulator = simulator;
        this.operator = operator;
        this.dialogs = dialogs;
        this.guard = new ProductionGuard(dialogs.environment());
        BooleanBinding running = Bindings.createBooleanBinding(() -> status.get() != null && status.get().running(), status);
        Command actions = new Command(background, feedback::error);
        this.reading = new Command(background, feedback::error);
        // Production: the button stays disabled and the reason is shown (fake orders would mix with real ones).
        this.startCommand = actions.when(status.isNotNull().and(running.not())
                .and(new javafx.beans.property.SimpleBooleanProperty(guard.simulator() != ProductionGuard.Simulator.REFUSED)));
        this.stopCommand = actions.when(running);
        // Settings apply at start; while it runs they are locked so what is shown is what runs.
        settingsLocked.bind(running.or(actions.runningProperty()));
        SimulatorSettings d = SimulatorSettings.demo();
        rate.set(number(d.ordersPerSecond()));
        payPercent.set(number(d.payShare() * 100));
        latePayPercent.set(number(d.latePayShare() * 100));
        timeout.set(Formats.duration(d.paymentTimeout()));
        if (!refusal().isEmpty()) {
            // The reason beside the disabled button, from the first look at the panel.
            feedback.error(refusal());
        }
    }

    /** Reads the simulator's counters; skipped while the previous read is still running. */
    @Override
    public void refresh() {
        if (simulator == null) {
            return;
        }
        reading.run(Messages.get("traffic.read.action"), job -> simulator.status(), status::set);
    }

    /**
     * @return why the simulator may not start here (production, or a console working through serve), in words; "" where
     *     it may
     */
    public String refusal() {
        if (simulator == null) {
            return Messages.get("traffic.remote");
        }
        return guard.simulator() == ProductionGuard.Simulator.REFUSED
                ? Messages.format("guard.console.simulator.refused", guard.environment().name()) : "";
    }

    /**
     * Starts the simulator with the settings as typed, or says in words which field is wrong. Refused on production;
     * on staging only once the environment's name is typed.
     */
    public void start() {
        if (!refusal().isEmpty()) {
            feedback.error(refusal());
            return;
        }
        if (guard.simulator() == ProductionGuard.Simulator.CONFIRM && !dialogs.confirmTyped(Messages.get("guard.console.simulator.title"),
                Messages.format("guard.console.simulator.statement", guard.environment().name()), guard.environment().name())) {
            return;
        }
        SimulatorSettings s;
        try {
            s = settings();
        } catch (IllegalArgumentException e) {
            feedback.error(e.getMessage());
            return;
        }
        act(startCommand, Messages.get("traffic.start.action"), () -> simulator.start(operator, s),
                Messages.format("traffic.started", number(s.ordersPerSecond()), number(s.payShare() * 100),
                        number(s.latePayShare() * 100), Formats.duration(s.paymentTimeout())));
    }

    /** Stops creating orders; orders already created stay where they are (the sweeper still cancels unpaid ones). */
    public void stop() {
        act(stopCommand, Messages.get("traffic.stop.action"), simulator::stop, Messages.get("traffic.stoppedNote"));
    }

    private void act(Command command, String what, Runnable action, String done) {
        command.run(what, job -> {
            action.run();
            return simulator.status();
        }, s -> {
            status.set(s);
            feedback.ok(done);
        });
    }

    /**
     * @return the settings as typed
     * @throws IllegalArgumentException naming the field and what it accepts
     */
    SimulatorSettings settings() {
        double r = parse(rate.get(), Messages.get("traffic.field.rate"));
        if (!(r > 0 && r <= SimulatorSettings.MAX_RATE)) {
            throw new IllegalArgumentException(Messages.format("traffic.badRate", number(SimulatorSettings.MAX_RATE), rate.get().strip()));
        }
        double pay = percent(payPercent.get(), Messages.get("traffic.field.pay"));
        double late = percent(latePayPercent.get(), Messages.get("traffic.field.late"));
        if (pay + late > 100) {
            throw new IllegalArgumentException(Messages.format("traffic.badShares", number(pay + late)));
        }
        Duration t = Formats.parseDuration(timeout.get());
        if (t.compareTo(Duration.ofSeconds(1)) < 0) {
            throw new IllegalArgumentException(Messages.get("traffic.badTimeout"));
        }
        return new SimulatorSettings(r, pay / 100, late / 100, t);
    }

    private static double percent(String text, String field) {
        double p = parse(text, field);
        if (!(p >= 0 && p <= 100)) {
            throw new IllegalArgumentException(Messages.format("traffic.badPercent", field, text.strip()));
        }
        return p;
    }

    private static double parse(String text, String field) {
        String t = text == null ? "" : text.strip().replace(',', '.');
        try {
            return Double.parseDouble(t);
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException(Messages.format("traffic.badNumber", field, text == null ? "" : text.strip()));
        }
    }

    /** @return e.g. "5", "2.5" */
    private static String number(double d) {
        return d == Math.rint(d) ? Long.toString((long) d) : String.format(Locale.ROOT, "%.2f", d).replaceAll("0+$", "");
    }

    /** @return true when this console has a simulator of its own (false when it works through serve) */
    public boolean available() {
        return simulator != null;
    }

    /** @return true when the operator may run the simulator (ops and up) */
    public boolean canRun() {
        return operator.role().includes(Role.OPS);
    }

    /** @return new orders per second, as typed */
    public StringProperty rateProperty() {
        return rate;
    }

    /** @return share of orders that pay in time, percent, as typed */
    public StringProperty payPercentProperty() {
        return payPercent;
    }

    /** @return share of orders that pay after the deadline, percent, as typed */
    public StringProperty latePayPercentProperty() {
        return latePayPercent;
    }

    /** @return payment timeout of simulated orders, as typed (e.g. "20 s") */
    public StringProperty timeoutProperty() {
        return timeout;
    }

    /** @return the simulator's last reading, null before the first */
    public ReadOnlyObjectProperty<SimulatorStatus> statusProperty() {
        return status.getReadOnlyProperty();
    }

    /** @return true while the simulator runs or a start or stop is under way: the settings are not editable */
    public ReadOnlyBooleanProperty settingsLockedProperty() {
        return settingsLocked.getReadOnlyProperty();
    }

    /** @return executable while the simulator is stopped (as last read) and no start or stop is under way */
    public Command startCommand() {
        return startCommand;
    }

    /** @return executable while the simulator runs and no start or stop is under way */
    public Command stopCommand() {
        return stopCommand;
    }

    /** @return the last action's outcome or error in words */
    public Feedback feedback() {
        return feedback;
    }
}
