package com.orderconsole.app;

import com.orderconsole.domain.Environment;

import java.util.Objects;

/**
 * What an environment's kind allows, for the console and the command line alike: the demo sample and the
 * traffic simulator belong to local and dev; on production every change of more than one order, every
 * override, repair, bulk move, rules change and dead-letter action needs its count confirmed (typed in the
 * console, {@code --yes=COUNT} or a y/N at the terminal in commands). Source of the rules: issue 26.
 *
 * @param environment where the console or command works
 */
public record ProductionGuard(Environment environment) {
    /** Actions the guard knows; each says whether it is guarded on production whatever its count. */
    public enum Action {
        /** Moving orders along the rules, one or more at a time: guarded from two orders on. */
        MOVE(false),
        /** A forced move: any target, rules not consulted. */
        OVERRIDE(true),
        /** A reconciliation repair. */
        REPAIR(true),
        /** A bulk move. */
        BULK(true),
        /** A new version of the transition rules. */
        RULES_CHANGE(true),
        /** Retrying or discarding dead letters. */
        DEAD_LETTER(true),
        /**
         * Stopping or removing work of the cancel queue: pausing or resuming the cancel sweeper (every sweeper, serve's
         * too), removing an entry (that order is then never cancelled by its deadline), cancelling an order from the
         * queue. Guarded on production whatever the count, and always with a reason kept in the audit trail (issue 34).
         */
        QUEUE(true);

        private final boolean always;

        Action(boolean always) {
            this.always = always;
        }
    }

    /** What the traffic simulator may do on an environment. */
    public enum Simulator {
        /** Local and dev: starts at once. */
        ALLOWED,
        /** Staging: starts after a typed confirmation (console) or {@code --yes} (command). */
        CONFIRM,
        /** Production: never starts; fake orders would mix with real ones under a real name. */
        REFUSED
    }

    public ProductionGuard {
        Objects.requireNonNull(environment, "environment");
    }

    /**
     * @return true on local and dev only: there the first start imports the bundled Olist sample into an empty
     *     store; on staging and production an empty database stays empty
     */
    public boolean demoDataAllowed() {
        return environment.kind() == Environment.Kind.LOCAL || environment.kind() == Environment.Kind.DEV;
    }

    /** @return whether the traffic simulator may start here, and how */
    public Simulator simulator() {
        return switch (environment.kind()) {
            case LOCAL, DEV -> Simulator.ALLOWED;
            case STAGING -> Simulator.CONFIRM;
            case PRODUCTION -> Simulator.REFUSED;
        };
    }

    /** @return why the simulator is refused here, in words naming the environment; "" where it is not */
    public String simulatorRefusal() {
        return simulator() == Simulator.REFUSED ? Messages.format("guard.simulator.refused", environment.name()) : "";
    }

    /**
     * @param action what is about to change
     * @param count how many orders (findings for a repair, letters for dead letters, 1 for a rules change)
     * @return true when the count must be confirmed first: on production, for a guarded action or more than one order
     */
    public boolean needsCount(Action action, long count) {
        return environment.production() && (action.always || count > 1);
    }

    /**
     * Checks a command's {@code --yes} against the count about to change.
     *
     * @param action what is about to change
     * @param count how many, as in {@link #needsCount}
     * @param what the change in words, e.g. "move 120 orders to WAIT_SHIP", for the refusal
     * @param yes the value of {@code --yes}: null when not given, "" when given without a count
     * @throws NotConfirmedException in words saying what to type, when the count is needed and {@code yes} is not it
     */
    public void requireCount(Action action, long count, String what, String yes) {
        if (!needsCount(action, count)) {
            return;
        }
        if (yes == null || yes.isBlank()) {
            throw new NotConfirmedException(Messages.format("guard.count.missing", environment.name(), what, count));
        }
        if (!yes.strip().equals(Long.toString(count))) {
            throw new NotConfirmedException(Messages.format("guard.count.wrong", environment.name(), what, count, yes.strip()));
        }
    }
}
