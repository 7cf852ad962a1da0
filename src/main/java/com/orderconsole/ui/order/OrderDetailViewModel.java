package com.orderconsole.ui.order;

import com.orderconsole.app.Messages;
import com.orderconsole.domain.HistoryEntry;
import com.orderconsole.domain.Operator;
import com.orderconsole.domain.OrderStatus;
import com.orderconsole.domain.Role;
import com.orderconsole.domain.TransitionRequest;
import com.orderconsole.domain.TransitionResult;
import com.orderconsole.service.order.OrderDetails;
import com.orderconsole.service.order.OrderNotFoundException;
import com.orderconsole.service.order.Orders;
import com.orderconsole.service.order.OrderSummary;
import com.orderconsole.service.transition.TransitionOutcome;
import com.orderconsole.service.transition.Transitions;
import com.orderconsole.ui.common.Background;
import com.orderconsole.ui.common.Command;
import com.orderconsole.ui.common.DialogService;
import com.orderconsole.ui.common.Feedback;
import com.orderconsole.ui.common.OrderText;
import com.orderconsole.ui.common.Refreshable;
import javafx.beans.property.ObjectProperty;
import javafx.beans.property.ReadOnlyLongProperty;
import javafx.beans.property.ReadOnlyLongWrapper;
import javafx.beans.property.ReadOnlyObjectProperty;
import javafx.beans.property.ReadOnlyObjectWrapper;
import javafx.beans.property.SimpleBooleanProperty;
import javafx.beans.property.SimpleObjectProperty;
import javafx.collections.FXCollections;
import javafx.collections.ObservableList;

import java.time.Duration;
import java.util.Arrays;
import java.util.List;
import java.util.Optional;
import java.util.function.Consumer;

/**
 * One order: its MySQL and Redis state, history, and the moves the operator may make. Every move
 * carries the version the operator saw, so nothing is applied to an order that changed in between;
 * every move asks for a reason first. Loads and moves share one lane: the latest load wins, and a move
 * waits for no load.
 */
public final class OrderDetailViewModel implements Refreshable {
    /** Source written to the history for moves made here. */
    public static final String SOURCE = "console"; // i18n-ok: machine text, written to the history
    /** How long a move waits for MySQL before it reports that MySQL is not updated yet. */
    static final Duration MYSQL_WAIT = Duration.ofSeconds(2);

    private final Orders orders;
    private final Transitions transitions;
    private final Operator operator;
    private final DialogService dialogs;
    private final ReadOnlyObjectWrapper<OrderDetails> details = new ReadOnlyObjectWrapper<>();
    private final ObservableList<HistoryEntry> history = FXCollections.observableArrayList();
    private final ObservableList<OrderStatus> legalTargets = FXCollections.observableArrayList();
    private final ObservableList<OrderStatus> overrideTargets = FXCollections.observableArrayList();
    private final ObjectProperty<OrderStatus> overrideTarget = new SimpleObjectProperty<>();
    /** The order whose override targets are listed (a choice is kept only while the same order is shown). */
    private String overrideFor;
    private final Feedback feedback = new Feedback();
    private final Command work;
    private final Command moveCommand;
    private final Command overrideCommand;
    private final ReadOnlyLongWrapper readAtMs = new ReadOnlyLongWrapper();
    private final OrderStoryViewModel story;
    private Consumer<OrderSummary> changed = s -> { };
    private String orderId;
    /** True after a read failed or found nothing: its message goes once the order reads again. */
    private boolean readFailed;

    /**
     * @param orders reads the order
     * @param transitions applies moves and waits for MySQL to follow
     * @param operator who moves; written to the history
     * @param background where reads and moves run
     * @param dialogs asks for the reason of every move
     */
    public OrderDetailViewModel(Orders orders, Transitions transitions, Operator operator, Background background,
                                DialogService dialogs) {
        this.orders = orders;
        this.transitions = transitions;
        this.operator = operator;
        this.dialogs = dialogs;
        this.work = new Command(background, feedback::error);
        this.story = new OrderStoryViewModel(orders, background, dialogs);
        this.moveCommand = work.when(new SimpleBooleanProperty(canMove()));
        this.overrideCommand = work.when(details.isNotNull().and(overrideTarget.isNotNull()));
    }

    /**
     * Loads an order in the background; a load or move still under way for another order is superseded.
     *
     * @param id the order id as typed or clicked (validated by the service)
     */
    public void load(String id) {
        // Another order's details are never shown while this one loads (nor after it fails).
        if (!id.equals(orderId)) {
            showNothing();
        }
        orderId = id;
        feedback.clear();
        reload();
    }

    @Override
    public void refresh() {
        if (orderId != null && !work.isRunning()) {
            reload();
        }
    }

    /** Clears the panel (e.g. when the table no longer shows the order). */
    public void clear() {
        orderId = null;
        work.abandon();
        showNothing();
        feedback.clear();
    }

    /**
     * Takes back what is shown when it is only an error (an id no order has, a failed read): the user went to another
     * listing, which that error is not about (issue 34: it survived Clear and page changes). An order shown stays.
     */
    public void dismissError() {
        if (details.get() == null && orderId != null) {
            clear();
        }
    }

    /**
     * Asks for the reason of a move, then makes it ({@link #move}); nothing happens when the user cancels.
     *
     * @param target one of {@link #legalTargets()}
     */
    public void askAndMove(OrderStatus target) {
        OrderSummary s = summary();
        if (s == null) {
            return;
        }
        dialogs.askReason(Messages.get("order.move.title"), Messages.format("order.move.statement", s.orderId(),
                        OrderText.status(s.status()), OrderText.status(target), s.expectedVersion()) + fromMySql(s),
                        Messages.format("order.move.confirm", OrderText.status(target)))
                .ifPresent(reason -> move(target, reason));
    }

    /** Asks for the reason of an override to {@link #overrideTargetProperty()}, then makes it ({@link #override}). */
    public void askAndOverride() {
        OrderSummary s = summary();
        OrderStatus target = overrideTarget.get();
        if (s == null || target == null) {
            return;
        }
        String title = Messages.get("order.override.title");
        String statement = Messages.format("order.override.statement", s.orderId(), OrderText.status(s.status()),
                OrderText.status(target), s.expectedVersion()) + fromMySql(s);
        dialogs.askReason(title, statement, Messages.format("order.override.confirm", OrderText.status(target)))
                .filter(reason -> dialogs.confirmOnProduction(title, statement, s.orderId()))
                .ifPresent(reason -> override(target, reason));
    }

    /** @return the line saying the order is put back from MySQL's record first, when Redis holds no state for it */
    private static String fromMySql(OrderSummary s) {
        return s.redisStatus() == null ? Messages.get("order.override.fromMySql") : "";
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
     * Succeeds only while the order's version is still the one shown (MySQL's record when Redis holds no state).
     *
     * @param target any status but the current one and WAIT_PAY
     * @param reason why, required
     */
    public void override(OrderStatus target, String reason) {
        submit(target, reason, true);
    }

    private void submit(OrderStatus target, String reason, boolean override) {
        OrderDetails seen = details.get();
        if (seen == null || work.isRunning()) {
            return;
        }
        if (reason == null || reason.isBlank()) {
            feedback.error(Messages.get("order.reasonRequired"));
            return;
        }
        String id = seen.summary().orderId();
        // Redis' version, or MySQL's record when Redis holds no state: the transition rebuilds Redis from that record
        // before its compare-and-set, so an order past its retention is moved at the version the operator saw.
        long version = seen.summary().expectedVersion();
        work.run(override ? Messages.get("order.override.action") : Messages.get("order.move.action"), job -> {
            // Wait for MySQL so the history below already shows this move.
            TransitionOutcome o = transitions.transitionAndWait(operator,
                    new TransitionRequest(id, target, version, SOURCE, reason.strip(), override), MYSQL_WAIT);
            String syncNote = o.mysqlSynced() ? "" : Messages.format("order.mysqlBehind", o.mysql().detail());
            return new Outcome(o.result(), syncNote, orders.lookup(id), System.currentTimeMillis());
        }, outcome -> {
            readAtMs.set(outcome.atMs());
            show(outcome.details());
            if (outcome.result().applied()) {
                feedback.ok(OrderText.result(outcome.result()) + outcome.syncNote());
            } else {
                feedback.error(OrderText.result(outcome.result()));
            }
        });
    }

    private void reload() {
        String id = orderId;
        work.runLatest(Messages.format("order.load.action", id), job -> {
            try {
                return Optional.of(new Read(orders.lookup(id), System.currentTimeMillis()));
            } catch (OrderNotFoundException e) {
                return Optional.<Read>empty();
            }
        }, read -> {
            if (read.isPresent()) {
                readAtMs.set(read.get().atMs());
                show(read.get().details());
                // A refresh keeps the last move's outcome; it only takes back the error of a failed read.
                if (readFailed) {
                    feedback.clear();
                }
                readFailed = false;
            } else {
                showNothing();
                readFailed = true;
                feedback.error(Messages.format("order.notFound", id));
            }
        }, error -> {
            showNothing();
            readFailed = true;
            feedback.error(error);
        });
    }

    private record Read(OrderDetails details, long atMs) {
    }

    private void show(OrderDetails d) {
        details.set(d);
        story.follow(d.summary().orderId());
        changed.accept(d.summary());
        history.setAll(d.history());
        legalTargets.setAll(d.legalTargets().stream().sorted().toList());
        OrderStatus current = d.summary().status();
        // The service refuses overrides back to WAIT_PAY (no payment deadline any more).
        List<OrderStatus> any = Arrays.stream(OrderStatus.values())
                .filter(s -> s != current && s != OrderStatus.WAIT_PAY).toList();
        // The admin's choice stays across refreshes of the same order (the 2 s auto-refresh cleared it); it goes when
        // another order is shown or the order now stands in the chosen status. The list is only replaced when it
        // changes: replacing it resets the combo box's choice.
        OrderStatus chosen = d.summary().orderId().equals(overrideFor) ? overrideTarget.get() : null;
        if (!overrideTargets.equals(any)) {
            overrideTargets.setAll(any);
        }
        overrideTarget.set(chosen != null && any.contains(chosen) ? chosen : null);
        overrideFor = d.summary().orderId();
    }

    private void showNothing() {
        details.set(null);
        story.follow(null);
        readAtMs.set(0);
        history.clear();
        legalTargets.clear();
        overrideTargets.clear();
        overrideTarget.set(null);
        overrideFor = null;
    }

    private record Outcome(TransitionResult result, String syncNote, OrderDetails details, long atMs) {
    }

    /** @return the story of the order shown (read when it is open) */
    public OrderStoryViewModel story() {
        return story;
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

    /** @return the status chosen for an override, null until one is chosen; kept across refreshes of the same order */
    public ObjectProperty<OrderStatus> overrideTargetProperty() {
        return overrideTarget;
    }

    /** @return true when the operator may make rule-checked moves (support and up) */
    public boolean canMove() {
        return operator.role().includes(Role.SUPPORT);
    }

    /** @return true when the operator may override (admin) */
    public boolean canOverride() {
        return operator.role().includes(Role.ADMIN);
    }

    /** @return executable while nothing loads or moves and the operator may move (support and up) */
    public Command moveCommand() {
        return moveCommand;
    }

    /** @return executable while nothing loads or moves and an override target is chosen */
    public Command overrideCommand() {
        return overrideCommand;
    }

    /** @return the last outcome or error in words */
    public Feedback feedback() {
        return feedback;
    }

    /**
     * @param listener told on the UI thread whenever the order is read again (a refresh, after a move), so
     *     the order table's row shows the same state as the details
     */
    public void setOnRead(Consumer<OrderSummary> listener) {
        changed = listener;
    }

    /** @return when the shown state was read, epoch ms; 0 while nothing is shown */
    public ReadOnlyLongProperty readAtMsProperty() {
        return readAtMs.getReadOnlyProperty();
    }

    /** @return the id last asked for (shown, loading, failed or not found), or null */
    public String orderId() {
        return orderId;
    }

    /** @return the summary of the loaded order, or null */
    public OrderSummary summary() {
        return details.get() == null ? null : details.get().summary();
    }
}
