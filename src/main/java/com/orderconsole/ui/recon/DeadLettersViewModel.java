package com.orderconsole.ui.recon;

import com.orderconsole.app.Messages;
import com.orderconsole.app.ProductionGuard;
import com.orderconsole.domain.Operator;
import com.orderconsole.domain.Role;
import com.orderconsole.service.deadletter.DeadLetter;
import com.orderconsole.service.deadletter.DeadLetters;
import com.orderconsole.ui.common.Background;
import com.orderconsole.ui.common.Command;
import com.orderconsole.ui.common.DialogService;
import com.orderconsole.ui.common.Feedback;
import com.orderconsole.ui.common.Refreshable;
import javafx.beans.property.ObjectProperty;
import javafx.beans.property.SimpleObjectProperty;
import javafx.collections.FXCollections;
import javafx.collections.ObservableList;

import java.util.List;
import java.util.function.Supplier;

/**
 * The dead letters, on the reconciliation page: records set aside because they could not be processed
 * (outbox entries the follower cannot read, malformed order records in Redis, conflicts with MySQL's
 * history). Ops retry one after a confirmation (its order is restored in Redis from MySQL) or discard it
 * with a reason; both are kept with who and when. One action runs at a time.
 */
public final class DeadLettersViewModel implements Refreshable {
    /** Open letters listed, oldest first. */
    public static final int SHOWN = 500;

    private final DeadLetters deadLetters;
    private final Operator operator;
    private final DialogService dialogs;
    private final ObservableList<DeadLetter> letters = FXCollections.observableArrayList();
    private final ObjectProperty<DeadLetter> selected = new SimpleObjectProperty<>();
    private final Feedback feedback = new Feedback();
    private final Command reading;
    private final Command actions;
    private final Command letterCommand;

    /**
     * @param deadLetters lists, retries and discards letters
     * @param operator who acts; the service refuses roles below ops
     * @param background where reads and actions run
     * @param dialogs asks before a retry and for the reason of a discard
     */
    public DeadLettersViewModel(DeadLetters deadLetters, Operator operator, Background background, DialogService dialogs) {
        this.deadLetters = deadLetters;
        this.operator = operator;
        this.dialogs = dialogs;
        this.reading = new Command(background, feedback::error);
        this.actions = new Command(background, feedback::error);
        this.letterCommand = actions.when(selected.isNotNull());
    }

    @Override
    public void refresh() {
        reading.run(Messages.get("deadletter.read.action"), job -> deadLetters.open(SHOWN), this::show);
    }

    private void show(List<DeadLetter> open) {
        letters.setAll(open);
        DeadLetter was = selected.get();
        selected.set(was == null ? null : open.stream().filter(d -> d.id() == was.id()).findFirst().orElse(null));
    }

    /** Asks, then retries the selected letter: its order is restored in Redis from MySQL, the durable record. */
    public void retrySelected() {
        DeadLetter d = selected.get();
        if (d == null || !dialogs.confirm(Messages.get("deadletter.retry.title"), d.orderId() == null
                ? Messages.format("deadletter.retry.statement", d.id()) : Messages.format("deadletter.retry.statement.order", d.id(), d.orderId()),
                Messages.format("deadletter.retry.details", d.body()), Messages.format("deadletter.retry.confirm", d.id()))
                || !typedOnProduction(Messages.get("deadletter.retry.title"), Messages.format("cli.deadletters.what.retry", d.id()))) {
            return;
        }
        act(Messages.format("deadletter.retry.action", d.id()), () -> deadLetters.retry(operator, d.id()));
    }

    /** Asks for a reason, then discards the selected letter (it stays on record, closed). */
    public void discardSelected() {
        DeadLetter d = selected.get();
        if (d == null) {
            return;
        }
        dialogs.askReason(Messages.get("deadletter.discard.title"), d.orderId() == null
                ? Messages.format("deadletter.discard.statement", d.id()) : Messages.format("deadletter.discard.statement.order", d.id(), d.orderId()),
                Messages.format("deadletter.discard.confirm", d.id()))
                .filter(reason -> typedOnProduction(Messages.get("deadletter.discard.title"), Messages.format("cli.deadletters.what.discard", d.id())))
                .ifPresent(reason -> act(Messages.format("deadletter.discard.action", d.id()), () -> deadLetters.discard(operator, d.id(), reason)));
    }

    /** On production a dead-letter action also asks for its count (one letter) to be typed. */
    private boolean typedOnProduction(String title, String what) {
        return dialogs.confirmCount(ProductionGuard.Action.DEAD_LETTER, 1, title, Messages.format("guard.console.deadletter.statement", what, 1));
    }

    private void act(String what, Supplier<DeadLetter> work) {
        actions.run(what, job -> work.get(), closed -> {
            String outcome = "RETRIED".equals(closed.state()) ? "deadletter.retried" : "deadletter.discarded"; // i18n-ok: keys
            feedback.ok(Messages.format(outcome, closed.id(), closed.resolution()));
            refresh();
        }, error -> {
            feedback.error(error);
            refresh();
        });
    }

    /** @return true when the operator may retry and discard (ops and up) */
    public boolean canAct() {
        return operator.role().includes(Role.OPS);
    }

    /** @return the open letters, oldest first */
    public ObservableList<DeadLetter> letters() {
        return letters;
    }

    /** @return the letter the actions apply to; kept across readings by its id */
    public ObjectProperty<DeadLetter> selectedProperty() {
        return selected;
    }

    /** @return retry and discard: executable while a letter is selected and no action runs */
    public Command letterCommand() {
        return letterCommand;
    }

    /** @return the last outcome or error in words */
    public Feedback feedback() {
        return feedback;
    }
}
