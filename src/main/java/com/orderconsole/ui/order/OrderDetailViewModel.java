package com.orderconsole.ui.order;

import com.orderconsole.domain.HistoryEntry;
import com.orderconsole.domain.OrderStatus;
import com.orderconsole.domain.Role;
import com.orderconsole.domain.TransitionRequest;
import com.orderconsole.domain.TransitionResult;
import com.orderconsole.service.order.OrderDetails;
import com.orderconsole.service.order.OrderSummary;
import com.orderconsole.service.transition.TransitionOutcome;
import com.orderconsole.ui.ConsoleContext;
import com.orderconsole.ui.common.Refreshable;
import javafx.beans.property.ReadOnlyBooleanProperty;
import javafx.beans.property.ReadOnlyBooleanWrapper;
import javafx.beans.property.ReadOnlyObjectProperty;
import javafx.beans.property.ReadOnlyObjectWrapper;
import javafx.beans.property.ReadOnlyStringProperty;
import javafx.beans.property.ReadOnlyStringWrapper;
import javafx.collections.FXCollections;
import javafx.collections.ObservableList;

import java.time.Duration;
import java.util.Arrays;
import java.util.List;

/**
 * One order: its MySQL and Redis state, history, and the moves the operator may make. Every move
 * carries the version the operator saw, so nothing is applied to an order that changed in between.
 */
public final class OrderDetailViewModel implements Refreshable {
    /** Source written to the history for moves made here. */
    public static final String SOURCE = "console";
    /** How long a move waits for MySQL before it reports that MySQL is not updated yet. */
    static final Duration MYSQL_WAIT = Duration.ofSeconds(2);

    private final ConsoleContext ctx;
    private final ReadOnlyObjectWrapper<OrderDetails> details = new ReadOnlyObjectWrapper<>();
    private final ObservableList<HistoryEntry> history = FXCollections.observableArrayList();
    private final ObservableList<OrderStatus> legalTargets = FXCollections.observableArrayList();
    private final ObservableList<OrderStatus> overrideTargets = FXCollections.observableArrayList();
    private final ReadOnlyBooleanWrapper busy = new ReadOnlyBooleanWrapper();
    private final ReadOnlyStringWrapper message = new ReadOnlyStringWrapper("");
    private final ReadOnlyBooleanWrapper messageIsError = new ReadOnlyBooleanWrapper();
    private String orderId;

    public OrderDetailViewModel(ConsoleContext ctx) {
        this.ctx = ctx;
    }

    /**
     * Loads an order in the background.
     *
     * @param id the order id as typed or clicked (validated by the service)
     */
    public void load(String id) {
        orderId = id;
        message.set("");
        reload();
    }

    @Override
    public void refresh() {
        if (orderId != null && !busy.get()) {
            reload();
        }
    }

    /** Clears the panel (e.g. when the table no longer shows the order). */
    public void clear() {
        orderId = null;
        details.set(null);
        history.clear();
        legalTargets.clear();
        overrideTargets.clear();
        message.set("");
    }

    /**
     * Moves the order to a status the rules allow, guarded by the version the operator saw.
     *
     * @param target one of {@link #legalTargets()}
     * @param reason why, required, kept in the history
     */
    public void move(OrderStatus target, String reason) {
        submit(target, reason, false);
    }

    /**
     * Moves the order to any status outside the rules (admin only; the service refuses other roles).
     * Succeeds only while the order's version is still the one shown.
     *
     * @param target any status but the current one and WAIT_PAY
     * @param reason why, required
     */
    public void override(OrderStatus target, String reason) {
        submit(target, reason, true);
    }

    private void submit(OrderStatus target, String reason, boolean override) {
        OrderDetails seen = details.get();
        if (seen == null || busy.get()) {
            return;
        }
        if (reason == null || reason.isBlank()) {
            showError("A reason is required.");
            return;
        }
        String id = seen.summary().orderId();
        long version = seen.summary().redisVersion();
        busy.set(true);
        ctx.background().run(override ? "override the order status" : "move the order", job -> {
            // Wait for MySQL so the history below already shows this move.
            TransitionOutcome o = ctx.services().transitions().transitionAndWait(ctx.operator(),
                    new TransitionRequest(id, target, version, SOURCE, reason.strip(), override), MYSQL_WAIT);
            String syncNote = o.mysqlSynced() ? "" : " MySQL is not updated yet: " + o.mysql().detail();
            return new Outcome(o.result(), syncNote, ctx.services().orders().lookup(id));
        }, outcome -> {
            busy.set(false);
            show(outcome.details());
            if (outcome.result().applied()) {
                message.set(resultText(outcome.result()) + outcome.syncNote());
                messageIsError.set(false);
            } else {
                showError(resultText(outcome.result()));
            }
        }, error -> {
            busy.set(false);
            showError(error);
        });
    }

    private void reload() {
        String id = orderId;
        busy.set(true);
        ctx.background().run("load order " + id, job -> ctx.services().orders().lookup(id), d -> {
            busy.set(false);
            if (id.equals(orderId)) {
                show(d);
            }
        }, error -> {
            busy.set(false);
            details.set(null);
            history.clear();
            legalTargets.clear();
            overrideTargets.clear();
            showError(error);
        });
    }

    private void show(OrderDetails d) {
        details.set(d);
        history.setAll(d.history());
        legalTargets.setAll(d.legalTargets().stream().sorted().toList());
        OrderStatus current = d.summary().status();
        // The service refuses overrides back to WAIT_PAY (no payment deadline any more).
        List<OrderStatus> any = Arrays.stream(OrderStatus.values())
                .filter(s -> s != current && s != OrderStatus.WAIT_PAY).toList();
        overrideTargets.setAll(any);
    }

    private void showError(String text) {
        message.set(text);
        messageIsError.set(true);
    }

    /**
     * @param r a transition outcome
     * @return the outcome in words, e.g. "Applied: PAID → WAIT_SHIP, now version 3." or
     *         "Not applied: order changed since it was read (version conflict). The order is PAID, version 4."
     */
    public static String resultText(TransitionResult r) {
        if (r.applied()) {
            return "Applied: " + r.from() + " → " + r.target() + ", now version " + r.version() + ".";
        }
        String now = r.from() == null ? "" : " The order is " + r.from() + ", version " + r.version() + ".";
        return "Not applied: " + r.code().description() + "." + now;
    }

    private record Outcome(TransitionResult result, String syncNote, OrderDetails details) {
    }

    /** @return the loaded order, or null before a load or after a failed one */
    public ReadOnlyObjectProperty<OrderDetails> detailsProperty() {
        return details.getReadOnlyProperty();
    }

    /** @return the order's history, oldest first */
    public ObservableList<HistoryEntry> history() {
        return history;
    }

    /** @return statuses the current rules allow from the order's status */
    public ObservableList<OrderStatus> legalTargets() {
        return legalTargets;
    }

    /** @return statuses an admin may force the order into */
    public ObservableList<OrderStatus> overrideTargets() {
        return overrideTargets;
    }

    /** @return true when the operator may make rule-checked moves (support and up) */
    public boolean canMove() {
        return ctx.can(Role.SUPPORT);
    }

    /** @return true when the operator may override (admin) */
    public boolean canOverride() {
        return ctx.can(Role.ADMIN);
    }

    public ReadOnlyBooleanProperty busyProperty() {
        return busy.getReadOnlyProperty();
    }

    /** @return the last outcome or error in words, "" when none */
    public ReadOnlyStringProperty messageProperty() {
        return message.getReadOnlyProperty();
    }

    /** @return true when {@link #messageProperty()} reports a refusal or failure */
    public ReadOnlyBooleanProperty messageIsErrorProperty() {
        return messageIsError.getReadOnlyProperty();
    }

    /** @return the summary of the loaded order, or null */
    public OrderSummary summary() {
        return details.get() == null ? null : details.get().summary();
    }
}
