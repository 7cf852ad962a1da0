package com.orderconsole.ui.rules;

import com.orderconsole.domain.Operator;
import com.orderconsole.domain.OrderStatus;
import com.orderconsole.domain.Role;
import com.orderconsole.domain.TransitionRules;
import com.orderconsole.ui.ViewModelTestBase;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/** The rules page's model: the document in force, faults in words, apply as the next version, role refusal. */
class RulesViewModelTest extends ViewModelTestBase {
    /** The default rules plus PAID → CANCELLED (a refund before shipping). */
    static final String WITH_REFUND = """
            { "terminal": ["FINISHED", "CANCELLED"],
              "transitions": { "WAIT_PAY": ["PAID", "CANCELLED"], "PAID": ["WAIT_SHIP", "CANCELLED"],
                               "WAIT_SHIP": ["SHIPPED"], "SHIPPED": ["FINISHED"] } }
            """;
    /** An edge out of a terminal status and an unknown status. */
    static final String INVALID = """
            { "terminal": ["FINISHED", "CANCELLED"],
              "transitions": { "WAIT_PAY": ["PAID", "CANCELLED"], "PAID": ["WAIT_SHIP"],
                               "WAIT_SHIP": ["SHIPPED"], "SHIPPED": ["FINISHED"], "FINISHED": ["PAID"] } }
            """;

    private int applied;

    private RulesViewModel rules(String name, Role role) {
        return new RulesViewModel(pages(role).rules(), pages(role).rulesWhatIf(), new Operator(name, role), background, dialogs, () -> applied++);
    }

    @Test
    void showsTheDocumentInForceAndItsVersion() {
        RulesViewModel vm = rules("olga", Role.OPS);
        vm.refresh();
        assertThat(vm.inForceProperty().get().version()).isEqualTo(1);
        assertThat(vm.textProperty().get()).contains("\"WAIT_PAY\" : [ \"PAID\", \"CANCELLED\" ]");
        assertThat(vm.editedProperty().get()).isFalse();
    }

    @Test
    void anInvalidDocumentListsItsFaultsAndChangesNothing() {
        RulesViewModel vm = rules("olga", Role.OPS);
        vm.refresh();
        vm.textProperty().set(INVALID);
        assertThat(vm.editedProperty().get()).isTrue();

        vm.validate();
        assertThat(vm.faults()).containsExactly("Line 3, column 71: terminal status FINISHED has outgoing edges to [PAID]");
        assertThat(vm.feedback().messageProperty().get()).isEqualTo("1 fault: nothing was changed.");
        assertThat(vm.feedback().errorProperty().get()).isTrue();

        vm.confirmAndApply();
        assertThat(dialogs.asked()).as("no confirmation for an invalid document").isEmpty();
        vm.apply();
        assertThat(vm.faults()).hasSize(1);
        assertThat(services.rules().current().version()).isEqualTo(1);
        assertThat(services.rules().current().sameGraph(TransitionRules.defaults())).isTrue();
        assertThat(applied).isZero();

        vm.textProperty().set("{ \"terminal\": [\"FINISHED\"");
        vm.validate();
        // Issue 12, minor: line and column in words, no parser internals.
        assertThat(vm.faults()).singleElement().asString()
                .isEqualTo("Line 1, column 26: not valid JSON: the document ends too early: a closing ] is missing"
                        + " (opened at line 1, column 15)")
                .doesNotContain("Source").doesNotContain("StreamReadFeature");
    }

    @Test
    void aValidDocumentIsConfirmedWithItsChangesAndAppliedAsTheNextVersion() {
        RulesViewModel vm = rules("olga", Role.OPS);
        vm.refresh();
        vm.textProperty().set(WITH_REFUND);
        vm.validate();
        assertThat(vm.faults()).isEmpty();
        assertThat(vm.feedback().messageProperty().get()).startsWith("Valid: 6 transitions");

        dialogs.yes();
        vm.confirmAndApply();
        assertThat(dialogs.asked()).singleElement().satisfies(q -> {
            assertThat(q.confirmLabel()).isEqualTo("Apply as version 2");
            assertThat(q.details()).as("the one change, then what applying means").startsWith("adds PAID → CANCELLED\n\n");
        });

        assertThat(services.rules().current().version()).isEqualTo(2);
        assertThat(services.rules().current().allows(OrderStatus.PAID, OrderStatus.CANCELLED)).isTrue();
        assertThat(vm.inForceProperty().get().version()).isEqualTo(2);
        assertThat(vm.editedProperty().get()).isFalse();
        assertThat(vm.textProperty().get()).contains("\"version\" : 2");
        assertThat(vm.feedback().messageProperty().get()).startsWith("Rules version 2 is in force");
        assertThat(applied).isEqualTo(1);

        vm.confirmAndApply();
        assertThat(dialogs.asked()).as("same rules again: nothing to confirm").hasSize(1);
        assertThat(vm.feedback().messageProperty().get()).contains("nothing to apply");
    }

    @Test
    void declinedRulesAreNotApplied() {
        RulesViewModel vm = rules("olga", Role.OPS);
        vm.refresh();
        vm.textProperty().set(WITH_REFUND);
        dialogs.no();
        vm.confirmAndApply();
        assertThat(dialogs.asked()).hasSize(1);
        assertThat(services.rules().current().version()).isEqualTo(1);
        assertThat(services.rules().current().allows(OrderStatus.PAID, OrderStatus.CANCELLED)).isFalse();
        assertThat(vm.editedProperty().get()).as("the edits are kept").isTrue();
        assertThat(applied).isZero();
    }

    @Test
    void refreshKeepsEditsAndRevertDropsThem() {
        RulesViewModel vm = rules("olga", Role.OPS);
        vm.refresh();
        String inForce = vm.textProperty().get();
        vm.textProperty().set(WITH_REFUND);
        vm.refresh();
        assertThat(vm.textProperty().get()).isEqualTo(WITH_REFUND);
        vm.revert();
        assertThat(vm.textProperty().get()).isEqualTo(inForce);
        assertThat(vm.editedProperty().get()).isFalse();
    }

    @Test
    void supportIsNotOfferedEditingAndTheServiceRefusesIt() {
        RulesViewModel vm = rules("alice", Role.SUPPORT);
        assertThat(vm.canEdit()).isFalse();
        vm.refresh();
        vm.textProperty().set(WITH_REFUND);
        vm.apply();
        assertThat(vm.feedback().messageProperty().get()).startsWith("Could not apply the transition rules: ").doesNotContain("Exception");
        assertThat(services.rules().current().version()).isEqualTo(1);
        assertThat(applied).isZero();
    }

    /** Issue 13.3: the confirmation says which live orders a change strands, with sample ids, before anything is stored. */
    @Test
    void theConfirmationShowsTheOrdersAChangeWouldStrand() {
        createOrder("ws-1");
        move("ws-1", OrderStatus.PAID);
        move("ws-1", OrderStatus.WAIT_SHIP);
        services.follower().drainOnce(); // sample ids come from MySQL
        RulesViewModel vm = rules("olga", Role.OPS);
        vm.refresh();
        vm.textProperty().set(com.orderconsole.service.rules.RulesWhatIfTest.STRANDS_WAIT_SHIP);
        dialogs.no();
        vm.confirmAndApply();
        assertThat(dialogs.asked()).singleElement().satisfies(q -> {
            assertThat(q.title()).isEqualTo("Apply transition rules: orders affected");
            assertThat(q.details()).contains("WAIT_SHIP loses every exit: its 1 live order (0 of them stuck) would stay there for good (e.g. ws-1)")
                    .contains("WAIT_PAY → CANCELLED stays")
                    .contains("In all: 1 live order would lose every exit");
        });
        assertThat(vm.impactProperty().get().stranded()).isEqualTo(1);
        assertThat(services.rules().current().version()).as("declined: nothing stored").isEqualTo(1);
    }

    /** Issue 26: on production a rules change also asks for its count (one change) to be typed; not typed, nothing changes. */
    @Test
    void onProductionARulesChangeAsksForTheCountTyped() {
        dialogs.on(com.orderconsole.domain.Environment.external("prod-eu"));
        RulesViewModel vm = rules("olga", Role.OPS);
        vm.refresh();
        vm.textProperty().set(WITH_REFUND);
        vm.validate();

        dialogs.yes().typed("2");
        vm.confirmAndApply();
        assertThat(dialogs.asked()).extracting(q -> q.kind()).containsExactly("confirm", "typed");
        assertThat(dialogs.asked().get(1).details()).isEqualTo("1");
        assertThat(services.rules().current().version()).as("not confirmed: nothing changed").isEqualTo(1);

        dialogs.yes().typed("1");
        vm.confirmAndApply();
        assertThat(services.rules().current().version()).isEqualTo(2);
    }
}
