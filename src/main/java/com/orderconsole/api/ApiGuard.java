package com.orderconsole.api;

import com.orderconsole.app.ErrorKind;
import com.orderconsole.app.ProductionGuard;
import com.orderconsole.domain.Environment;

/**
 * The production guard as serve enforces it, whatever a client drew: a guarded operation carries its reason and the
 * count it confirms in the request ({@code "reason"}, {@code "confirmCount"}), and serve refuses it without them, before
 * anything is asked of a server. Which action needs what is {@link ProductionGuard}'s rule, the one the console and the
 * CLI follow; this class words its refusals for a request.
 */
final class ApiGuard {
    private final ProductionGuard guard;

    /** @param environment where this serve works (its profile's) */
    ApiGuard(Environment environment) {
        this.guard = new ProductionGuard(environment);
    }

    /**
     * @param action what is about to change
     * @param count how many orders (findings, letters; 1 for a rules change or a sweeper pause) it changes
     * @param what the change in words, e.g. "override order A-1 to CANCELLED"
     * @param reason the request's reason (null when none)
     * @param confirmCount the request's confirmed count (null when none)
     * @throws ApiProblem 400 when the reason is missing where needed or not plain text, 428 (not_confirmed) when the count
     *     is needed and not the one given; nothing was changed
     */
    void check(ProductionGuard.Action action, long count, String what, String reason, Long confirmCount) {
        String env = guard.environment().name();
        if (guard.needsReason(action) && (reason == null || reason.isBlank())) {
            throw ApiProblem.badInput("[" + env + "] production: " + what + " stops or removes work and needs a \"reason\", "
                    + "kept in the audit trail; nothing was changed");
        }
        String problem = guard.reasonProblem(action, reason);
        if (!problem.isEmpty()) {
            throw ApiProblem.badInput(problem + "; nothing was changed");
        }
        if (!guard.needsCount(action, count)) {
            return;
        }
        if (confirmCount == null) {
            throw notConfirmed("[" + env + "] production: " + what + " needs its count confirmed: send \"confirmCount\": " + count
                    + " in the request; nothing was changed");
        }
        if (confirmCount != count) {
            throw notConfirmed("[" + env + "] production: " + what + " changes " + count + ", but \"confirmCount\" says "
                    + confirmCount + "; nothing was changed: send " + count + " once the count is what you mean");
        }
    }

    private static ApiProblem notConfirmed(String words) {
        return new ApiProblem(ErrorKind.NOT_CONFIRMED, words);
    }
}
