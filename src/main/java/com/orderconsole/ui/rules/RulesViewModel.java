package com.orderconsole.ui.rules;

import com.orderconsole.ui.common.OrderText;
import com.orderconsole.app.Messages;
import com.orderconsole.domain.InvalidRulesException;
import com.orderconsole.domain.Operator;
import com.orderconsole.domain.OrderStatus;
import com.orderconsole.domain.Role;
import com.orderconsole.domain.TransitionRules;
import com.orderconsole.service.rules.RulesJson;
import com.orderconsole.service.rules.RulesService;
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
import java.util.regex.Matcher;
import java.util.regex.Pattern;
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
    private final RulesService rules;
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
    private record Checked(TransitionRules rules, List<String> faults) {
    }

    /**
     * @param rules reads, validates and stores the rules
     * @param operator who applies; the service refuses roles below ops
     * @param background where reads, validations and applies run
     * @param dialogs asks before new rules are applied
     * @param onApplied run after new rules are in force (the console redraws the graph and the status bar)
     */
    public RulesViewModel(RulesService rules, Operator operator, Background background, DialogService dialogs, Runnable onApplied) {
        this.rules = rules;
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
     * for a confirmation that lists what changes; then {@link #apply()}. Nothing is stored when the
     * document has faults, describes the rules in force, or the user declines.
     */
    public void confirmAndApply() {
        check(r -> {
            TransitionRules now = inForce.get();
            if (now != null && now.sameGraph(r)) {
                feedback.ok(Messages.format("rules.same", now.version()));
                return;
            }
            feedback.clear();
            long next = (now == null ? 0 : now.version()) + 1;
            if (dialogs.confirm(Messages.get("rules.apply.title"), Messages.format("rules.apply.statement", next),
                    String.join(System.lineSeparator(), changes(now, r)) + System.lineSeparator() + System.lineSeparator()
                            + Messages.get("rules.apply.details"),
                    Messages.format("rules.apply.confirm", next))) {
                apply();
            }
        });
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
            return new Checked(null, e.faults());
        }
    }

    private void showFaults(List<String> found) {
        faults.setAll(found.stream().map(RulesViewModel::inWords).toList());
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

    // These patterns read the service's and the JSON parser's English text; what the user sees comes from the bundle.
    private static final Pattern MALFORMED = Pattern.compile("malformed JSON at line (\\d+), column (\\d+): (.*)", Pattern.DOTALL); // i18n-ok: parser text read
    private static final Pattern START_MARKER = Pattern.compile(
            "\\s*\\(start marker at \\[Source:.*?line: (\\d+), column: (\\d+)\\]\\)", Pattern.DOTALL); // i18n-ok: parser text read
    private static final Pattern SOURCE = Pattern.compile("\\s*at \\[Source:.*", Pattern.DOTALL); // i18n-ok: parser text read
    private static final Pattern CODE = Pattern.compile("\\s*\\(code -?\\d+\\)");

    /**
     * A parser's fault in words: where, and what, without the parser's internals (sources, features, codes).
     *
     * @param fault one fault as the service names it
     * @return e.g. "Not valid JSON at line 3, column 5: unexpected character ('}'): was expecting double-quote to
     *         start field name"; other faults unchanged
     */
    static String inWords(String fault) {
        Matcher m = MALFORMED.matcher(fault);
        if (!m.matches()) {
            return fault;
        }
        String what = m.group(3);
        Matcher start = START_MARKER.matcher(what);
        if (start.find()) {
            what = start.replaceFirst(java.util.regex.Matcher.quoteReplacement(Messages.format("rules.json.opened", start.group(1), start.group(2))));
        }
        what = SOURCE.matcher(what).replaceFirst("");
        what = CODE.matcher(what).replaceAll("");
        what = what.lines().findFirst().orElse("").strip();
        what = what.replace("expected close marker for Array", Messages.get("rules.json.noCloseArray")) // i18n-ok: parser text read
                .replace("expected close marker for Object", Messages.get("rules.json.noCloseObject")); // i18n-ok: parser text read
        String endOfInput = "Unexpected end-of-input"; // i18n-ok: parser text read
        if (what.startsWith(endOfInput)) {
            what = Messages.get("rules.json.endsEarly") + what.substring(endOfInput.length());
        }
        if (!what.isEmpty()) {
            what = Character.toLowerCase(what.charAt(0)) + what.substring(1);
        }
        return what.isEmpty() ? Messages.format("rules.json.invalid", m.group(1), m.group(2))
                : Messages.format("rules.json.invalidWhat", m.group(1), m.group(2), what);
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
                    out.add(Messages.format(after ? "rules.change.adds" : "rules.change.removes", OrderText.status(a), OrderText.status(b)));
                }
            }
        }
        for (OrderStatus s : OrderStatus.values()) {
            boolean before = from != null && from.isTerminal(s);
            if (to.isTerminal(s) != before) {
                out.add(Messages.format(to.isTerminal(s) ? "rules.change.terminal" : "rules.change.notTerminal", OrderText.status(s)));
            }
        }
        return out;
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
