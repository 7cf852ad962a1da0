package com.orderconsole.ui.recon;

import com.orderconsole.domain.Operator;
import com.orderconsole.domain.Role;
import com.orderconsole.service.deadletter.DeadLetter;
import com.orderconsole.service.deadletter.DeadLetterService;
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
import java.util.Locale;
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

    private final DeadLetterService deadLetters;
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
    public DeadLettersViewModel(DeadLetterService deadLetters, Operator operator, Background background, DialogService dialogs) {
        this.deadLetters = deadLetters;
        this.operator = operator;
        this.dialogs = dialogs;
        this.reading = new Command(background, feedback::error);
        this.actions = new Command(background, feedback::error);
        this.letterCommand = actions.when(selected.isNotNull());
    }

    @Override
    public void refresh() {
        reading.run("read the dead letters", job -> deadLetters.open(SHOWN), this::show);
    }

    private void show(List<DeadLetter> open) {
        letters.setAll(open);
        DeadLetter was = selected.get();
        selected.set(was == null ? null : open.stream().filter(d -> d.id() == was.id()).findFirst().orElse(null));
    }

    /** Asks, then retries the selected letter: its order is restored in Redis from MySQL, the durable record. */
    public void retrySelected() {
        DeadLetter d = selected.get();
        if (d == null || !dialogs.confirm("Retry dead letter", "Retry dead letter " + d.id() + (d.orderId() == null ? "" : " of order "
                + d.orderId()) + "?", "Its order's Redis state is restored from MySQL, the durable record, and the letter is closed.\n"
                + "Found: " + d.body(), "Retry letter " + d.id())) {
            return;
        }
        act("retry dead letter " + d.id(), () -> deadLetters.retry(operator, d.id()));
    }

    /** Asks for a reason, then discards the selected letter (it stays on record, closed). */
    public void discardSelected() {
        DeadLetter d = selected.get();
        if (d == null) {
            return;
        }
        dialogs.askReason("Discard dead letter", "Discard dead letter " + d.id() + (d.orderId() == null ? "" : " of order "
                + d.orderId()) + "? Nothing is restored; the letter is closed with your reason.", "Discard letter " + d.id())
                .ifPresent(reason -> act("discard dead letter " + d.id(), () -> deadLetters.discard(operator, d.id(), reason)));
    }

    private void act(String what, Supplier<DeadLetter> work) {
        actions.run(what, job -> work.get(), closed -> {
            feedback.ok("Dead letter " + closed.id() + " " + closed.state().toLowerCase(Locale.ROOT) + ": "
                    + closed.resolution());
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
