package com.orderconsole.cli;

import com.orderconsole.app.Messages;
import com.orderconsole.app.ProductionGuard;
import com.orderconsole.app.ConsoleServices;
import com.orderconsole.domain.TransitionResult;
import com.orderconsole.service.queue.QueueSummary;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Spec;

import java.util.LinkedHashMap;
import java.util.Map;

/**
 * {@code queue show|pause|resume|remove|cancel}: the cancel queue and its sweepers, the console's queue page for an on-call
 * engineer at a terminal. Every action that stops or removes work takes {@code --reason TEXT} (required on production,
 * kept in the audit trail or the order's history) and, on production, {@code --yes=1} or a y/N: the rules of
 * {@link ProductionGuard}, the same the console asks by.
 */
@Command(name = "queue", subcommands = {QueueCommand.Show.class, QueueCommand.Pause.class, QueueCommand.Resume.class,
        QueueCommand.Remove.class, QueueCommand.Cancel.class})
final class QueueCommand implements Runnable {
    /** The source written to the audit trail and the history. */
    static final String SOURCE = "cli";

    @Spec
    CommandSpec spec;

    @Override
    public void run() {
        throw new ParameterException(spec.commandLine(), Messages.get("cli.queue.what"));
    }

    /** Base of the actions: the reason option, and the reason and count checks before anything changes. */
    abstract static class Action extends CliCommand {
        @Option(names = "--reason", paramLabel = "TEXT", descriptionKey = "cli.opt.reason.queue")
        String reason;

        /**
         * Refuses a missing or malformed reason (usage error, exit 2) and asks for the count on production (exit 5 when not
         * given), before any change; call it with the engine started (the profile read).
         */
        void check(ProductionGuard.Action action, String what) {
            try {
                guard().requireReason(action, reason);
            } catch (IllegalArgumentException e) {
                throw new ParameterException(spec.commandLine(), e.getMessage());
            }
            confirm(action, 1, what);
        }

        String reason() {
            return reason == null ? "" : reason.strip();
        }
    }

    /** {@code queue show}: depth, overdue, and the sweepers' state. */
    @Command(name = "show")
    static final class Show extends CliCommand {
        @Override
        public Integer call() {
            try (Session<ConsoleServices> session = session()) {
                QueueSummary q = session.services().queue().summary();
                Map<String, Object> doc = new LinkedHashMap<>();
                doc.put("depth", q.depth());
                doc.put("overdue", q.overdue());
                doc.put("oldestOverdueAgeMs", q.oldestOverdueAgeMs());
                doc.put("nextDue", q.nextDueMs() == null ? null : Cli.time(q.nextDueMs()));
                doc.put("sweeper", q.sweeper());
                Long last = q.sweeper().lastTickMs();
                String state = Messages.get(q.sweeper().paused() ? "cli.queue.sweeper.paused"
                        : last == null ? "cli.queue.sweeper.never" : "cli.queue.sweeper.running");
                emit(doc, Messages.format("cli.queue.summary", q.depth(), q.overdue(), state,
                        last == null ? "-" : Cli.time(last), q.sweeper().lastTickBy() == null ? "-" : q.sweeper().lastTickBy())
                        + System.lineSeparator());
                return ExitCode.OK.code();
            }
        }
    }

    /** {@code queue pause --reason TEXT}: stops every cancel sweeper (serve's too) until resumed. */
    @Command(name = "pause")
    static final class Pause extends Action {
        @Override
        public Integer call() {
            return pauseOrResume(this, true);
        }
    }

    /** {@code queue resume --reason TEXT}: every sweeper cancels again, the overdue orders first. */
    @Command(name = "resume")
    static final class Resume extends Action {
        @Override
        public Integer call() {
            return pauseOrResume(this, false);
        }
    }

    private static int pauseOrResume(Action a, boolean pause) {
        try (Session<ConsoleServices> session = a.session()) {
            ConsoleServices s = session.services();
            a.check(pause ? ProductionGuard.Action.SWEEPER_PAUSE : ProductionGuard.Action.SWEEPER_RESUME,
                    Messages.get(pause ? "cli.queue.what.pause" : "cli.queue.what.resume"));
            s.queue().setPaused(a.operator(), pause, SOURCE, a.reason());
            Map<String, Object> doc = new LinkedHashMap<>();
            doc.put("paused", pause);
            doc.put("reason", a.reason());
            a.emit(doc, Messages.get(pause ? "cli.queue.paused" : "cli.queue.resumed") + System.lineSeparator());
            return ExitCode.OK.code();
        }
    }

    /**
     * {@code queue remove --id ID --reason TEXT}: drops the order's entry; its deadline no longer cancels it. The id is
     * checked by the service, which also takes the exact characters of a malformed id found in the queue (as typed, or
     * printed with {@code \}{@code uXXXX} escapes), so ops can clear one.
     */
    @Command(name = "remove")
    static final class Remove extends Action {
        @Option(names = "--id", required = true, paramLabel = "ID", descriptionKey = "cli.opt.id")
        String id;

        @Override
        public Integer call() {
            String shown = com.orderconsole.domain.OrderId.printable(id);
            try (Session<ConsoleServices> session = session()) {
                check(ProductionGuard.Action.QUEUE_REMOVE, Messages.format("cli.queue.what.remove", shown));
                boolean removed = session.services().queue().remove(operator(), id, SOURCE, reason());
                Map<String, Object> doc = new LinkedHashMap<>();
                doc.put("id", shown);
                doc.put("removed", removed);
                emit(doc, Messages.format(removed ? "cli.queue.removed" : "cli.queue.noEntry", shown) + System.lineSeparator());
                return removed ? ExitCode.OK.code() : ExitCode.FAILED.code();
            }
        }
    }

    /** {@code queue cancel --id ID --reason TEXT}: cancels an unpaid order now, as the sweeper would at its deadline. */
    @Command(name = "cancel")
    static final class Cancel extends Action {
        @Option(names = "--id", required = true, paramLabel = "ID", converter = Converters.OrderIdConverter.class, descriptionKey = "cli.opt.id")
        String id;

        @Override
        public Integer call() {
            try (Session<ConsoleServices> session = session()) {
                check(ProductionGuard.Action.QUEUE_CANCEL, Messages.format("cli.queue.what.cancel", id));
                ConsoleServices s = session.services();
                TransitionResult r = s.queue().cancelNow(operator(), id, reason());
                boolean synced = r.applied() && catchUpMySql(s);
                Map<String, Object> doc = new LinkedHashMap<>();
                doc.put("id", id);
                doc.put("applied", r.applied());
                doc.put("code", r.code().name());
                doc.put("mysqlSynced", synced);
                emit(doc, (r.applied() ? Messages.format("cli.queue.cancelled", id)
                        : Messages.format("cli.queue.notCancelled", id, r.code().description())) + System.lineSeparator());
                return r.applied() ? ExitCode.OK.code() : ExitCode.REJECTED.code();
            }
        }
    }
}
