package com.orderconsole.ui.rules;

import com.orderconsole.ui.common.OrderText;
import com.orderconsole.app.Messages;
import com.orderconsole.app.ProductionGuard;
import com.orderconsole.domain.InvalidRulesException;
import com.orderconsole.domain.Operator;
import com.orderconsole.domain.OrderStatus;
import com.orderconsole.domain.Role;
import com.orderconsole.domain.RulesFault;
import com.orderconsole.app.RulesWords;
import com.orderconsole.service.rules.RulesImpact;
import com.orderconsole.service.rules.WhatIf;
import com.orderconsole.domain.TransitionRules;
import com.orderconsole.service.rules.RulesJson;
import com.orderconsole.service.rules.Rules;
import com.orderconsole.ui.common.Background;
import com.orderconsole.ui.common.Command;
import com.orderconsole.ui.common.DialogService;
import com.orderconsole.ui.common.Feedback;
import com.orderconsole.ui.common.Refreshable;
import javafx.beans.property.ReadOnlyBooleanProperty;
import javafx.beans.property.ReadOnlyBooleanWrapper;
import javafx.beans.property.ReadOnlyObjectProperty;
import javafx.beans.property.ReadOnlyObjectWrapper;
import javafx.beans.property.SimpleStringProperty;
import javafx.beans.property.StringProperty;
import javafx.collections.FXCollections;
import javafx.collections.ObservableList;

import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.function.Consumer;
import java.util.function.Supplier;

/**
 * The rules page: the rules document in force and its version, an editable copy, validation that
 * names every fault, and applying it as the next version (ops and up; the service refuses lower
 * roles). Applying asks for a confirmation that lists what changes, and redraws the state graph.
 * Validations and applies run one at a time.
 */
public final class RulesViewModel implements Refreshable {
    private final Rules rules;
    private final WhatIf whatIf;
    private final ReadOnlyObjectWrapper<RulesImpact> impact = new ReadOnlyObjectWrapper<>();
    private final Operator operator;
    private final DialogService dialogs;
    private final Runnable onApplied;
    private final StringProperty text = new SimpleStringProperty("");
    private final ReadOnlyObjectWrapper<TransitionRules> inForce = new ReadOnlyObjectWrapper<>();
    private final ReadOnlyBooleanWrapper edited = new ReadOnlyBooleanWrapper();
    private final ObservableList<String> faults = FXCollections.observableArrayList();
    private final Feedback feedback = new Feedback();
    private final Command reading;
    private final Command editCommand;
    private final Command revertCommand;
    private String inForceText = "";

    /** Outcome of a validation or an apply: the rules, or the faults that stopped them. */
    private record Checked(TransitionRules rules, List<RulesFault> faults) {
    }

    /**
     * @param rules reads, validates and stores the rules
     * @param whatIf what a change would do to the orders there are now, shown in the confirmation
     * @param operator who applies; the service refuses roles below ops
     * @param background where reads, validations and applies run
     * @param dialogs asks before new rules are applied
     * @param onApplied run after new rules are in force (the console redraws the graph and the status bar)
     */
    public RulesViewModel(Rules rules, WhatIf whatIf, Operator operator, Background background, DialogService dialogs,
                          Runnable onApplied) {
        this.rules = rules;
        this.whatIf = whatIf;
        this.operator = operator;
        this.dialogs = dialogs;
        this.onApplied = onApplied;
        this.reading = new Command(background, feedback::error);
        this.editCommand = new Command(background, feedback::error);
        this.revertCommand = editCommand.when(edited);
        text.addListener((o, a, t) -> edited.set(!t.equals(inForceText)));
    }

    /** Reads the rules in force; an edited document is left as it is (only the version shown moves). */
    @Override
    public void refresh() {
        reading.run(Messages.get("rules.read.action"), job -> rules.current(), r -> showInForce(r, !edited.get()));
    }

    /** Throws the edits away and shows the document in force again. */
    public void revert() {
        text.set(inForceText);
        faults.clear();
        feedback.clear();
    }

    /** Checks the edited document without storing anything; every fault is listed. */
    public void validate() {
        check(r -> feedback.ok(Messages.format("rules.valid", summary(r))));
    }

    /**
     * Validates the edited document and, when it is valid and differs from the rules in force, asks
     * for a confirmation that lists what changes and what it would do to the orders there are now (the
     * what-if: statuses that lose every exit, exits stuck orders lose, whether WAIT_PAY → CANCELLED
     * survives, with sample ids); then {@link #apply()}. Nothing is stored when the document has faults,
     * describes the rules in force, or the user declines.
     */
    public void confirmAndApply() {
        String doc = text.get();
        editCommand.run(Messages.get("rules.validate.action"), job -> {
            Checked c = checked(() -> rules.validate(doc));
            return new Assessed(c, c.rules() == null ? null : whatIf.whatIf(doc));
        }, a -> {
            if (a.checked().rules() == null) {
                showFaults(a.checked().faults());
                return;
            }
            faults.clear();
            TransitionRules r = a.checked().rules();
            TransitionRules now = inForce.get();
            if (now != null && now.sameRules(r)) {
                feedback.ok(Messages.format("rules.same", now.version()));
                return;
            }
            impact.set(a.impact());
            feedback.clear();
            long next = (now == null ? 0 : now.version()) + 1;
            List<String> effect = RulesWords.impact(a.impact());
            String nl = System.lineSeparator();
            if (dialogs.confirm(Messages.get(a.impact().harmful() ? "rules.whatif.confirmTitle" : "rules.apply.title"),
                    Messages.format("rules.apply.statement", next),
                    String.join(nl, changes(now, r)) + nl + nl + Messages.get("rules.whatif.heading") + nl + String.join(nl, effect)
                            + nl + nl + Messages.get("rules.apply.details"),
                    Messages.format("rules.apply.confirm", next))
                    && dialogs.confirmCount(ProductionGuard.Action.RULES_CHANGE, 1, Messages.get("rules.apply.title"),
                    Messages.get("guard.console.rules.statement"))) {
                apply();
            }
        });
    }

    /** A validation with, for a valid document, its what-if. */
    private record Assessed(Checked checked, RulesImpact impact) {
    }

    /** Stores the edited document as the next rules version; it takes effect for the next transition. */
    public void apply() {
        String doc = text.get();
        editCommand.run(Messages.get("rules.apply.action"), job -> checked(() -> rules.set(operator, doc)), c -> {
            if (c.rules() == null) {
                showFaults(c.faults());
                return;
            }
            faults.clear();
            showInForce(c.rules(), true);
            feedback.ok(Messages.format("rules.applied", c.rules().version(), summary(c.rules())));
            onApplied.run();
        });
    }

    private void check(Consumer<TransitionRules> valid) {
        String doc = text.get();
        editCommand.run(Messages.get("rules.validate.action"), job -> checked(() -> rules.validate(doc)), c -> {
            if (c.rules() == null) {
                showFaults(c.faults());
            } else {
                faults.clear();
                valid.accept(c.rules());
            }
        });
    }

    /** Runs a validation or an apply; invalid rules are an answer (their faults), not a failure. */
    private static Checked checked(Supplier<TransitionRules> call) {
        try {
            return new Checked(call.get(), List.of());
        } catch (InvalidRulesException e) {
            return new Checked(null, e.details());
        }
    }

    private void showFaults(List<RulesFault> found) {
        faults.setAll(found.stream().map(RulesWords::fault).toList());
        feedback.error(Messages.format("rules.faults", found.size()));
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
        return RulesWords.changes(from, to);
    }

    private static String summary(TransitionRules r) {
        long edges = r.edges().values().stream().mapToLong(Set::size).sum();
        return Messages.format("rules.summary", edges, r.terminal().stream().map(OrderText::status).toList());
    }

    /** @return true when the operator may change the rules (ops and up) */
    public boolean canEdit() {
        return operator.role().includes(Role.OPS);
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

    /** @return the what-if of the last change confirmed or declined, null before one */
    public ReadOnlyObjectProperty<RulesImpact> impactProperty() {
        return impact.getReadOnlyProperty();
    }

    /** @return validate and apply: executable while neither runs */
    public Command editCommand() {
        return editCommand;
    }

    /** @return executable while the document is edited and no validation or apply runs */
    public Command revertCommand() {
        return revertCommand;
    }

    /** @return the last outcome or error in words */
    public Feedback feedback() {
        return feedback;
    }
}
