package com.orderconsole.ui.traffic;

import com.orderconsole.domain.Role;
import com.orderconsole.service.traffic.SimulatorSettings;
import com.orderconsole.service.traffic.SimulatorStatus;
import com.orderconsole.ui.ConsoleContext;
import com.orderconsole.ui.common.Formats;
import com.orderconsole.ui.common.Refreshable;
import javafx.beans.property.ReadOnlyBooleanProperty;
import javafx.beans.property.ReadOnlyBooleanWrapper;
import javafx.beans.property.ReadOnlyObjectProperty;
import javafx.beans.property.ReadOnlyObjectWrapper;
import javafx.beans.property.ReadOnlyStringProperty;
import javafx.beans.property.ReadOnlyStringWrapper;
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
    private final ConsoleContext ctx;
    private final StringProperty rate = new SimpleStringProperty();
    private final StringProperty payPercent = new SimpleStringProperty();
    private final StringProperty latePayPercent = new SimpleStringProperty();
    private final StringProperty timeout = new SimpleStringProperty();
    private final ReadOnlyObjectWrapper<SimulatorStatus> status = new ReadOnlyObjectWrapper<>();
    private final ReadOnlyBooleanWrapper busy = new ReadOnlyBooleanWrapper();
    private final ReadOnlyStringWrapper message = new ReadOnlyStringWrapper("");
    private final ReadOnlyBooleanWrapper messageIsError = new ReadOnlyBooleanWrapper();
    private boolean loading;

    /** @param ctx the session; the fields start at {@link SimulatorSettings#demo()} */
    public TrafficViewModel(ConsoleContext ctx) {
        this.ctx = ctx;
        SimulatorSettings d = SimulatorSettings.demo();
        rate.set(number(d.ordersPerSecond()));
        payPercent.set(number(d.payShare() * 100));
        latePayPercent.set(number(d.latePayShare() * 100));
        timeout.set(Formats.duration(d.paymentTimeout()));
    }

    /** Reads the simulator's counters; skipped while the previous read is still running. */
    @Override
    public void refresh() {
        if (loading) {
            return;
        }
        loading = true;
        ctx.background().run("read the traffic simulator", job -> ctx.services().simulator().status(), s -> {
            loading = false;
            status.set(s);
        }, error -> {
            loading = false;
            showMessage(error, true);
        });
    }

    /** Starts the simulator with the settings as typed, or says in words which field is wrong. */
    public void start() {
        SimulatorSettings s;
        try {
            s = settings();
        } catch (IllegalArgumentException e) {
            showMessage(e.getMessage(), true);
            return;
        }
        act("start the traffic simulator", () -> ctx.services().simulator().start(ctx.operator(), s),
                String.format(Locale.ROOT, "Running: %s orders/s, %s %% pay in time, %s %% pay late, payment timeout %s.",
                        number(s.ordersPerSecond()), number(s.payShare() * 100), number(s.latePayShare() * 100),
                        Formats.duration(s.paymentTimeout())));
    }

    /** Stops creating orders; orders already created stay where they are (the sweeper still cancels unpaid ones). */
    public void stop() {
        act("stop the traffic simulator", () -> ctx.services().simulator().stop(),
                "Stopped. Orders already created stay; unpaid ones are cancelled when their timeout passes.");
    }

    private void act(String what, Runnable action, String done) {
        busy.set(true);
        ctx.background().run(what, job -> {
            action.run();
            return ctx.services().simulator().status();
        }, s -> {
            busy.set(false);
            status.set(s);
            showMessage(done, false);
        }, error -> {
            busy.set(false);
            showMessage(error, true);
        });
    }

    /**
     * @return the settings as typed
     * @throws IllegalArgumentException naming the field and what it accepts
     */
    SimulatorSettings settings() {
        double r = parse(rate.get(), "Rate");
        if (!(r > 0 && r <= SimulatorSettings.MAX_RATE)) {
            throw new IllegalArgumentException("Rate must be more than 0 and at most " + number(SimulatorSettings.MAX_RATE)
                    + " orders/s, not " + rate.get().strip() + ".");
        }
        double pay = percent(payPercent.get(), "Pay in time");
        double late = percent(latePayPercent.get(), "Pay late");
        if (pay + late > 100) {
            throw new IllegalArgumentException("Pay in time and pay late add up to " + number(pay + late)
                    + " %; together they can be at most 100 %.");
        }
        Duration t = Formats.parseDuration(timeout.get());
        if (t.compareTo(Duration.ofSeconds(1)) < 0) {
            throw new IllegalArgumentException("The payment timeout must be at least 1 s.");
        }
        return new SimulatorSettings(r, pay / 100, late / 100, t);
    }

    private static double percent(String text, String field) {
        double p = parse(text, field);
        if (!(p >= 0 && p <= 100)) {
            throw new IllegalArgumentException(field + " must be a percentage from 0 to 100, not " + text.strip() + ".");
        }
        return p;
    }

    private static double parse(String text, String field) {
        String t = text == null ? "" : text.strip().replace(',', '.');
        try {
            return Double.parseDouble(t);
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException(field + " must be a number, not '" + (text == null ? "" : text.strip()) + "'.");
        }
    }

    /** @return e.g. "5", "2.5" */
    private static String number(double d) {
        return d == Math.rint(d) ? Long.toString((long) d) : String.format(Locale.ROOT, "%.2f", d).replaceAll("0+$", "");
    }

    private void showMessage(String text, boolean error) {
        message.set(text);
        messageIsError.set(error);
    }

    /** @return true when the operator may run the simulator (ops and up) */
    public boolean canRun() {
        return ctx.can(Role.OPS);
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

    /** @return true while a start or stop is under way */
    public ReadOnlyBooleanProperty busyProperty() {
        return busy.getReadOnlyProperty();
    }

    /** @return the last action's outcome or error in words */
    public ReadOnlyStringProperty messageProperty() {
        return message.getReadOnlyProperty();
    }

    public ReadOnlyBooleanProperty messageIsErrorProperty() {
        return messageIsError.getReadOnlyProperty();
    }
}
