package com.orderconsole.app;

import com.orderconsole.domain.Environment;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import java.util.Locale;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * Issue 34: the rules both front ends ask by for the actions that stop or remove work (pause and resume the sweepers,
 * remove a queue entry, cancel from the queue) and for an import: on production each needs its count confirmed, and the
 * queue actions a reason of one plain line; elsewhere neither, but a reason given must still be plain text.
 */
class ProductionGuardRulesTest {
    private final ProductionGuard production = new ProductionGuard(new Environment("prod-eu", Environment.Kind.PRODUCTION, "#c62828"));
    private final ProductionGuard staging = new ProductionGuard(new Environment("stage", Environment.Kind.STAGING, "#ef6c00"));

    @BeforeEach
    void inEnglish() {
        Messages.use(Locale.ENGLISH);
    }

    @Test
    void onProductionTheQueueActionsNeedTheCountAndAReason() {
        for (ProductionGuard.Action a : new ProductionGuard.Action[]{ProductionGuard.Action.SWEEPER_PAUSE, ProductionGuard.Action.SWEEPER_RESUME,
                ProductionGuard.Action.QUEUE_REMOVE, ProductionGuard.Action.QUEUE_CANCEL}) {
            assertThat(production.needsCount(a, 1)).as(a.name()).isTrue();
            assertThat(production.needsReason(a)).as(a.name()).isTrue();
            assertThat(production.reasonProblem(a, "  ")).as(a.name()).isEqualTo(
                    "[prod-eu] production: this stops or removes work and needs a reason, kept in the audit trail (--reason TEXT). "
                            + "Nothing was changed.");
            assertThat(production.reasonProblem(a, "provider outage")).isEmpty();
            assertThat(staging.needsCount(a, 1)).isFalse();
            assertThat(staging.reasonProblem(a, "")).as("no reason needed off production").isEmpty();
        }
        assertThat(production.needsCount(ProductionGuard.Action.IMPORT, 1)).as("even one row").isTrue();
        assertThat(production.needsReason(ProductionGuard.Action.BULK)).as("bulk has its own --reason rule").isFalse();
    }

    @Test
    void aReasonIsOnePlainLineOfAtMost500CharactersEverywhere() {
        assertThat(staging.reasonProblem(ProductionGuard.Action.SWEEPER_PAUSE, "outage\nsee INC-12")).contains("line break");
        assertThat(production.reasonProblem(ProductionGuard.Action.QUEUE_REMOVE, "x".repeat(501)))
                .isEqualTo("the reason is 501 characters long (at most 500)");
        assertThatThrownBy(() -> production.requireReason(ProductionGuard.Action.QUEUE_CANCEL, null))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("needs a reason");
    }
}
