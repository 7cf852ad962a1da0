package com.orderconsole.cli;

import com.orderconsole.app.Messages;
import com.orderconsole.app.Engine;
import com.orderconsole.app.EngineConfig;
import com.orderconsole.app.NotConfirmedException;
import com.orderconsole.app.ProductionGuard;
import com.orderconsole.app.ProgressThrottle;
import com.orderconsole.domain.Operator;
import com.orderconsole.app.ConsoleServices;
import com.orderconsole.service.audit.Audit;
import com.orderconsole.service.follower.CatchUp;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Spec;

import java.io.PrintStream;
import java.time.Duration;
import java.util.concurrent.Callable;
import java.util.function.Function;
import java.util.function.Supplier;

/**
 * Base of the subcommands: access to the global options, the engine and the output. Marked a command (with no
 * attributes, so the subcommands' own apply) because picocli-codegen's annotation processor, on the class path for
 * the {@code man} command, accepts {@code @Spec} only inside one.
 */
@picocli.CommandLine.Command
abstract class CliCommand implements Callable<Integer> {
    /** How long a state-changing command waits for MySQL to catch up before it exits. */
    static final Duration SYNC_WAIT = Duration.ofSeconds(30);

    @Spec
    CommandSpec spec;

    private Operator operator;

    GlobalOptions global() {
        return (GlobalOptions) spec.root().userObject();
    }

    PrintStream out() {
        return global().out;
    }

    PrintStream err() {
        return global().err;
    }

    boolean json() {
        return global().json;
    }

    /**
     * The services a command that reads or changes orders works on: in local mode the in-process services of an engine
     * started here (see {@link #engine(String)}); {@link #operator()} is set once it returns.
     *
     * @return the services; close the session when done
     */
    Session<ConsoleServices> session() {
        return session(null);
    }

    /**
     * As {@link #session()}, acting in another person's name where that is allowed.
     *
     * @param actor the command's --actor (local servers only), or null
     * @return the services; close the session when done
     */
    Session<ConsoleServices> session(String actor) {
        Engine engine = engine(actor);
        return new Session<>(engine.services(), engine::close);
    }

    /**
     * The audit view alone: in local mode read from MySQL only, so that it answers while Redis is down.
     *
     * @return the audit view; close the session when done
     */
    Session<Audit> auditSession() {
        Engine engine = engineOnMySqlOnly();
        return new Session<>(engine.audit(), engine::close);
    }

    /** @return a started engine (close it), the operator signed in; see {@link #engine(String)} */
    Engine engine() {
        return engine(null);
    }

    /**
     * Signs in and starts the engine. Bad identity options, an unset --db-password-env variable or a
     * missing password are usage errors; a refused sign-in fails the command with the reason in words.
     *
     * @param actor the command's --actor (local servers only), or null
     * @return a started engine; close it
     */
    Engine engine(String actor) {
        return engine(actor, c -> c);
    }

    /**
     * As {@link #engine(String)}, with the configuration adjusted before the engine starts.
     *
     * @param adjust e.g. turns the background jobs on ({@code serve})
     */
    Engine engine(String actor, java.util.function.UnaryOperator<EngineConfig> adjust) {
        return engine(actor, adjust, true);
    }

    /**
     * As {@link #engine()}, on MySQL alone: for commands that read only the durable record, so that they answer
     * while Redis is down.
     *
     * @return a started engine whose {@link Engine#audit()} works; close it
     */
    Engine engineOnMySqlOnly() {
        return engine(null, c -> c, false);
    }

    private Engine engine(String actor, java.util.function.UnaryOperator<EngineConfig> adjust, boolean withRedis) {
        GlobalOptions g = global();
        EngineConfig config;
        try {
            g.checkIdentity(actor);
            announceEnvironment();
            config = adjust.apply(g.config(g.password()));
        } catch (IllegalArgumentException e) {
            throw new ParameterException(spec.commandLine(), e.getMessage());
        }
        Engine engine = withRedis ? Engine.start(config) : Engine.startOnMySqlOnly(config);
        Operator signedIn = engine.operator();
        operator = actor == null ? signedIn : new Operator(actor, signedIn.role(), signedIn.local());
        return engine;
    }

    /**
     * Names the environment on stderr as the run's first line ("[prod-eu] production · bulk"), before any password is
     * asked or server started, so a person sees where the command works and a script's stdout stays one document.
     */
    void announceEnvironment() {
        com.orderconsole.domain.Environment env = global().environment();
        err().println(Messages.format("cli.environment", env.name(), Messages.get("env.kind." + env.kind().key()),
                spec.qualifiedName(" ").replaceFirst("^\\S+ ", "")));
    }

    /** @return who acts in this run: set by {@link #engine(String)} */
    Operator operator() {
        return operator;
    }

    /** @return what the environment worked on allows (the profile's kind; servers named without one: production) */
    ProductionGuard guard() {
        return new ProductionGuard(global().environment());
    }

    /**
     * Confirms a change before it is made: on production a guarded change needs {@code --yes=COUNT}, or, without
     * --yes and with a terminal, a y/N that shows the count. Call it after the preview and before any write.
     *
     * @param action what is about to change
     * @param count how many orders (findings, letters) it changes
     * @param what the change in words, e.g. "move 120 orders to WAIT_SHIP"
     * @throws NotConfirmedException in words, when not confirmed: the command then changes nothing
     */
    void confirm(ProductionGuard.Action action, long count, String what) {
        ProductionGuard guard = guard();
        if (!guard.needsCount(action, count)) {
            return;
        }
        if (global().yes == null) {
            Boolean answer = global().askYes(Messages.format("guard.count.ask", guard.environment().name(), what, count));
            if (answer != null) {
                if (answer) {
                    return;
                }
                throw new NotConfirmedException(Messages.format("guard.count.declined", guard.environment().name(), what));
            }
        }
        guard.requireCount(action, count, what, global().yes);
    }

    /**
     * @return true when progress goes to stderr: when stderr is a terminal (a person watching it), whatever stdout is;
     *     {@code 2>log} and pipes get no progress lines, {@code >file} and {@code --json} still show them
     */
    boolean showsProgress() {
        return global().stderrIsTerminal();
    }

    /**
     * The progress listener of a long job: {@code none} unless {@link #showsProgress()}, else the command's own listener
     * drawing on one {@link ProgressLine}. The import, the reconciliation and bulk moves report with different
     * listeners (the service's types) but draw the same way.
     *
     * @param none the service's listener that ignores progress
     * @param drawing builds the command's listener, in its own words, from the line it draws on
     * @return the listener to hand to the service
     */
    <P> P progress(P none, Function<ProgressLine, P> drawing) {
        return showsProgress() ? drawing.apply(new ProgressLine(err(), ProgressThrottle.standard())) : none;
    }

    /** One job's progress line on stderr, redrawn in place; throttled so a large job does not flood the terminal. */
    static final class ProgressLine {
        private final PrintStream err;
        private final ProgressThrottle throttle;

        /** @param throttle the pace: {@link ProgressThrottle#standard()} (tests give a slower one) */
        ProgressLine(PrintStream err, ProgressThrottle throttle) {
            this.err = err;
            this.throttle = throttle;
        }

        /**
         * Draws the text over the line when the throttle says it is due ({@link ProgressThrottle#EVERY_MS} ms apart),
         * and always the job's last report. Called from the job's thread.
         *
         * @param finished true for the job's last report
         * @param text the report in words, built only when drawn
         */
        void draw(boolean finished, Supplier<String> text) {
            if (throttle.due(System.currentTimeMillis(), finished)) {
                err.print("\r" + text.get());
            }
        }
    }

    /** Ends a progress line, when one was drawn, so the result starts on a line of its own. */
    void endProgress() {
        if (showsProgress()) {
            err().println();
        }
    }

    /** Prints the result: the JSON document with --json, else the text. */
    void emit(Object jsonDoc, String text) {
        if (json()) {
            out().println(Cli.json(jsonDoc));
        } else {
            out().print(text);
            out().flush();
        }
    }

    /**
     * Lets the MySQL follower apply every pending outbox entry before the process exits, so the
     * durable record holds what this command changed.
     *
     * @return true when MySQL caught up; false after a warning on stderr (the changes wait in Redis
     *         and the next {@code follower} run or the console applies them)
     */
    boolean catchUpMySql(ConsoleServices s) {
        return reportCatchUp(s, s.mysqlSync().catchUp(SYNC_WAIT));
    }

    /**
     * Warns on stderr when MySQL did not catch up; suggests the {@code follower} command only to an account that may run
     * it (elsewhere the follower of {@code serve} applies the changes, and the detail says so).
     *
     * @return whether it did
     */
    boolean reportCatchUp(ConsoleServices s, CatchUp c) {
        if (!c.caughtUp()) {
            err().println(Messages.format(s.mysqlSync().appliesHere() ? "cli.notInSync" : "cli.notInSyncElsewhere", c.detail()));
        }
        return c.caughtUp();
    }
}
