package com.orderconsole.ui.rules;

import com.orderconsole.domain.InvalidRulesException;
import com.orderconsole.domain.OrderStatus;
import com.orderconsole.domain.Role;
import com.orderconsole.domain.TransitionRules;
import com.orderconsole.service.rules.RulesJson;
import com.orderconsole.ui.ConsoleContext;
import com.orderconsole.ui.common.Refreshable;
import javafx.beans.property.ReadOnlyBooleanProperty;
import javafx.beans.property.ReadOnlyBooleanWrapper;
import javafx.beans.property.ReadOnlyObjectProperty;
import javafx.beans.property.ReadOnlyObjectWrapper;
import javafx.beans.property.ReadOnlyStringProperty;
import javafx.beans.property.ReadOnlyStringWrapper;
import javafx.beans.property.SimpleStringProperty;
import javafx.beans.property.StringProperty;
import javafx.collections.FXCollections;
import javafx.collections.ObservableList;

import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.function.Consumer;

/**
 * The rules page: the rules document in force and its version, an editable copy, validation that
 * names every fault, and applying it as the next version (ops and up; the service refuses lower
 * roles). Applying asks for a confirmation that lists what changes, and redraws the state graph.
 */
public final class RulesViewModel implements Refreshable {
    private final ConsoleContext ctx;
    private final Runnable onApplied;
    private final StringProperty text = new SimpleStringProperty("");
    private final ReadOnlyObjectWrapper<TransitionRules> inForce = new ReadOnlyObjectWrapper<>();
    private final ReadOnlyBooleanWrapper edited = new ReadOnlyBooleanWrapper();
    private final ObservableList<String> faults = FXCollections.observableArrayList();
    private final ReadOnlyBooleanWrapper busy = new ReadOnlyBooleanWrapper();
    private final ReadOnlyStringWrapper message = new ReadOnlyStringWrapper("");
    private final ReadOnlyBooleanWrapper messageIsError = new ReadOnlyBooleanWrapper();
    private String inForceText = "";
    private boolean loading;

    /**
     * What applying the edited document would change, for the confirmation.
     *
     * @param nextVersion the version it will get
     * @param changes one line per change, e.g. "adds PAID → CANCELLED"
     */
    public record Change(long nextVersion, List<String> changes) {
    }

    /** Outcome of a validation or an apply: the rules, or the faults that stopped them. */
    private record Checked(TransitionRules rules, List<String> faults) {
    }

    /**
     * @param ctx the session
     * @param onApplied run after new rules are in force (the console redraws the graph and the status bar)
     */
    public RulesViewModel(ConsoleContext ctx, Runnable onApplied) {
        this.ctx = ctx;
        this.onApplied = onApplied;
        text.addListener((o, a, t) -> edited.set(!t.equals(inForceText)));
    }

    /** Reads the rules in force; an edited document is left as it is (only the version shown moves). */
    @Override
    public void refresh() {
        if (loading) {
            return;
        }
        loading = true;
        ctx.background().run("read the transition rules", job -> ctx.services().rules().current(), r -> {
            loading = false;
            showInForce(r, !edited.get());
        }, error -> {
            loading = false;
            showMessage(error, true);
        });
    }

    /** Throws the edits away and shows the document in force again. */
    public void revert() {
        text.set(inForceText);
        faults.clear();
        showMessage("", false);
    }

    /** Checks the edited document without storing anything; every fault is listed. */
    public void validate() {
        check(r -> showMessage("Valid: " + summary(r) + ". Nothing is stored until you apply it.", false));
    }

    /**
     * Validates the edited document and, when it is valid and differs from the rules in force, asks
     * {@code confirm} to confirm; then the caller calls {@link #apply()}.
     *
     * @param confirm shown what would change
     */
    public void prepareApply(Consumer<Change> confirm) {
        check(r -> {
            TransitionRules now = inForce.get();
            if (now != null && now.sameGraph(r)) {
                showMessage("This document describes the rules in force (version " + now.version() + "); nothing to apply.", false);
                return;
            }
            showMessage("", false);
            confirm.accept(new Change((now == null ? 0 : now.version()) + 1, changes(now, r)));
        });
    }

    /** Stores the edited document as the next rules version; it takes effect for the next transition. */
    public void apply() {
        String doc = text.get();
        busy.set(true);
        ctx.background().run("apply the transition rules", job -> {
            try {
                return new Checked(ctx.services().rules().set(ctx.operator(), doc), List.of());
            } catch (InvalidRulesException e) {
                return new Checked(null, e.faults());
            }
        }, c -> {
            busy.set(false);
            if (c.rules() == null) {
                showFaults(c.faults());
                return;
            }
            faults.clear();
            showInForce(c.rules(), true);
            showMessage("Rules version " + c.rules().version() + " is in force: " + summary(c.rules())
                    + ". The next transition uses them.", false);
            onApplied.run();
        }, error -> {
            busy.set(false);
            showMessage(error, true);
        });
    }

    private void check(Consumer<TransitionRules> valid) {
        String doc = text.get();
        busy.set(true);
        ctx.background().run("validate the transition rules", job -> {
            try {
                return new Checked(ctx.services().rules().validate(doc), List.of());
            } catch (InvalidRulesException e) {
                return new Checked(null, e.faults());
            }
        }, c -> {
            busy.set(false);
            if (c.rules() == null) {
                showFaults(c.faults());
            } else {
                faults.clear();
                valid.accept(c.rules());
            }
        }, error -> {
            busy.set(false);
            showMessage(error, true);
        });
    }

    private void showFaults(List<String> found) {
        faults.setAll(found);
        showMessage((found.size() == 1 ? "1 fault" : found.size() + " faults") + ": nothing was changed.", true);
    }

    private void showInForce(TransitionRules r, boolean replaceText) {
        inForce.set(r);
        inForceText = RulesJson.write(r);
        if (replaceText) {
            text.set(inForceText);
        }
        edited.set(!text.get().equals(inForceText));
    }

    /**
     * @param from the rules in force, or null when unknown
     * @param to the new rules
     * @return one line per added or removed edge and per status that becomes or stops being terminal
     */
    static List<String> changes(TransitionRules from, TransitionRules to) {
        List<String> out = new ArrayList<>();
        for (OrderStatus a : OrderStatus.values()) {
            for (OrderStatus b : OrderStatus.values()) {
                boolean before = from != null && from.allows(a, b);
                boolean after = to.allows(a, b);
                if (after != before) {
                    out.add((after ? "adds " : "removes ") + a + " → " + b);
                }
            }
        }
        for (OrderStatus s : OrderStatus.values()) {
            boolean before = from != null && from.isTerminal(s);
            if (to.isTerminal(s) != before) {
                out.add(to.isTerminal(s) ? "makes " + s + " terminal" : s + " is no longer terminal");
            }
        }
        return out;
    }

    private static String summary(TransitionRules r) {
        long edges = r.edges().values().stream().mapToLong(Set::size).sum();
        return edges + " transitions, terminal " + r.terminal();
    }

    private void showMessage(String text, boolean error) {
        message.set(text);
        messageIsError.set(error);
    }

    /** @return true when the operator may change the rules (ops and up) */
    public boolean canEdit() {
        return ctx.can(Role.OPS);
    }

    /** @return the document as edited (the document in force until edited) */
    public StringProperty textProperty() {
        return text;
    }

    /** @return the rules in force, null before the first reading */
    public ReadOnlyObjectProperty<TransitionRules> inForceProperty() {
        return inForce.getReadOnlyProperty();
    }

    /** @return true while the document differs from the rules in force */
    public ReadOnlyBooleanProperty editedProperty() {
        return edited.getReadOnlyProperty();
    }

    /** @return every fault of the last validation or apply, in words; empty when it was valid */
    public ObservableList<String> faults() {
        return faults;
    }

    /** @return true while a validation or an apply runs */
    public ReadOnlyBooleanProperty busyProperty() {
        return busy.getReadOnlyProperty();
    }

    /** @return the last outcome or error in words */
    public ReadOnlyStringProperty messageProperty() {
        return message.getReadOnlyProperty();
    }

    public ReadOnlyBooleanProperty messageIsErrorProperty() {
        return messageIsError.getReadOnlyProperty();
    }
}
