package com.orderconsole.app;

import com.orderconsole.domain.ControlChars;
import com.orderconsole.domain.Environment;
import com.orderconsole.domain.TransitionRequest;

import java.util.Objects;

/**
 * What an environment's kind allows, for the console and the command line alike: the demo sample and the
 * traffic simulator belong to local and dev; on production every change of more than one order, every
 * override, repair, bulk move, rules change, dead-letter action, import and queue action needs its count confirmed
 * (typed in the console, {@code --yes=COUNT} or a y/N at the terminal in commands). Actions that stop or remove work
 * (pausing or resuming the sweepers, removing a queue entry, cancelling from the queue) also need a reason on
 * production, kept in the audit trail ({@link #reasonProblem}). Source of the rules: issues 26 and 34.
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
        /** Importing orders from a CSV file: the count is the file's data rows. */
        IMPORT(true),
        /** Pausing every cancel sweeper ({@code serve}'s too): unpaid orders stop being cancelled. Count 1. */
        SWEEPER_PAUSE(true, true),
        /** Resuming the cancel sweepers: every overdue order is cancelled at once. Count 1. */
        SWEEPER_RESUME(true, true),
        /** Removing an order's cancel-queue entry: that order is then never cancelled by its deadline. Count 1. */
        QUEUE_REMOVE(true, true),
        /** Cancelling an unpaid order from the cancel queue before the sweeper does. Count 1. */
        QUEUE_CANCEL(true, true);

        private final boolean always;
        private final boolean reason;

        Action(boolean always) {
            this(always, false);
        }

        Action(boolean always, boolean reason) {
            this.always = always;
            this.reason = reason;
        }

        /** @return true when the action stops or removes work: on production it needs a reason as well as the count */
        public boolean stopsWork() {
            return reason;
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
     * @param action what is about to change
     * @return true when the action needs a reason here: on production, for an action that stops or removes work
     */
    public boolean needsReason(Action action) {
        return environment.production() && action.reason;
    }

    /**
     * What is wrong with a reason for an action, before anything is asked of a server: a dialog shows it while it
     * is still open, a command refuses with it (usage error).
     *
     * @param action what is about to change
     * @param reason the operator's reason as typed (null or blank when none)
     * @return the problem in words naming the environment, or "" when the reason will do
     */
    public String reasonProblem(Action action, String reason) {
        if (needsReason(action) && (reason == null || reason.isBlank())) {
            return Messages.format("guard.reason.missing", environment.name());
        }
        int length = TransitionRequest.reasonLength(reason);
        if (length > TransitionRequest.MAX_REASON) {
            return Messages.format("guard.reason.tooLong", length, TransitionRequest.MAX_REASON);
        }
        // A line break or escape code could forge audit lines or recolour a terminal (the history's rule, TransitionRequest).
        if (reason != null && ControlChars.in(reason)) {
            return Messages.get("guard.reason.control");
        }
        return "";
    }

    /**
     * Refuses an action whose reason will not do ({@link #reasonProblem}).
     *
     * @throws IllegalArgumentException in words, when the reason is missing on production or not plain text
     */
    public void requireReason(Action action, String reason) {
        String problem = reasonProblem(action, reason);
        if (!problem.isEmpty()) {
            throw new IllegalArgumentException(problem);
        }
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
