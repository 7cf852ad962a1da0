package com.orderconsole.ui.metrics;

import com.orderconsole.app.Messages;
import com.orderconsole.service.metrics.MetricsService;
import com.orderconsole.ui.common.Background;
import javafx.beans.property.BooleanProperty;
import javafx.beans.property.ReadOnlyStringProperty;
import javafx.beans.property.ReadOnlyStringWrapper;
import javafx.beans.property.SimpleBooleanProperty;
import javafx.beans.property.SimpleStringProperty;
import javafx.beans.property.StringProperty;

/**
 * The switch for the Prometheus endpoint (a bar on the Monitor page): the same {@code /metrics} as the {@code serve}
 * command, served by this console on a loopback port while switched on.
 */
public final class MetricsEndpointViewModel {
    /** Port offered first: the port Prometheus exporters commonly use for a process's own metrics. */
    public static final String DEFAULT_PORT = "9464";

    private final MetricsService metrics;
    private final Background background;
    private final BooleanProperty serving = new SimpleBooleanProperty(false);
    private final StringProperty port = new SimpleStringProperty(DEFAULT_PORT);
    private final ReadOnlyStringWrapper status = new ReadOnlyStringWrapper(Messages.get("metrics.endpoint.off"));
    private final ReadOnlyStringWrapper error = new ReadOnlyStringWrapper("");

    /**
     * @param metrics serves the endpoint, or null where this console has none (it works through serve, which serves its
     *     own): the bar then says so and switches nothing on
     * @param background where binding and closing the port run
     */
    public MetricsEndpointViewModel(MetricsService metrics, Background background) {
        this.metrics = metrics;
        this.background = background;
        if (metrics == null) {
            status.set(Messages.get("metrics.endpoint.remote"));
            return;
        }
        metrics.endpointPort().ifPresent(p -> {
            serving.set(true);
            port.set(Integer.toString(p));
            status.set(Messages.format("metrics.endpoint.serving", url(p)));
        });
    }

    /**
     * Switches the endpoint on (on the typed port) or off. A bad port or one in use switches it back off
     * and says why.
     *
     * @param on true to serve
     */
    public void setServing(boolean on) {
        error.set("");
        if (metrics == null) {
            serving.set(false);
            error.set(on ? Messages.get("metrics.endpoint.remote") : "");
            return;
        }
        if (!on) {
            background.run(Messages.get("metrics.endpoint.stop.action"), job -> {
                metrics.stopEndpoint();
                return null;
            }, x -> {
                serving.set(false);
                status.set(Messages.get("metrics.endpoint.off"));
            }, error::set);
            return;
        }
        int p;
        try {
            p = Integer.parseInt(port.get().strip());
            if (p < 1 || p > 65535) {
                throw new NumberFormatException();
            }
        } catch (NumberFormatException e) {
            serving.set(false);
            error.set(Messages.format("metrics.endpoint.badPort", port.get()));
            return;
        }
        background.run(Messages.get("metrics.endpoint.start.action"), job -> metrics.startEndpoint(p), bound -> {
            serving.set(true);
            status.set(Messages.format("metrics.endpoint.serving", url(bound)));
        }, text -> {
            serving.set(false);
            status.set(Messages.get("metrics.endpoint.off"));
            error.set(Messages.format("metrics.endpoint.failed", text));
        });
    }

    private static String url(int p) {
        return "http://127.0.0.1:" + p + "/metrics";
    }

    /** @return true when this console can serve the endpoint (false when it works through serve) */
    public boolean available() {
        return metrics != null;
    }

    /** @return true while the endpoint is served */
    public BooleanProperty servingProperty() {
        return serving;
    }

    /** @return the port typed */
    public StringProperty portProperty() {
        return port;
    }

    /** @return where it is served, or that it is not */
    public ReadOnlyStringProperty statusProperty() {
        return status.getReadOnlyProperty();
    }

    /** @return why switching failed, "" when it did not */
    public ReadOnlyStringProperty errorProperty() {
        return error.getReadOnlyProperty();
    }
}
