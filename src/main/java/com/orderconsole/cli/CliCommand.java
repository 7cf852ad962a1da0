package com.orderconsole.cli;

import com.orderconsole.app.Engine;
import com.orderconsole.app.EngineConfig;
import com.orderconsole.domain.Operator;
import com.orderconsole.service.Services;
import com.orderconsole.service.follower.CatchUp;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Spec;

import java.io.PrintStream;
import java.time.Duration;
import java.util.concurrent.Callable;

/** Base of the subcommands: access to the global options, the engine and the output. */
abstract class CliCommand implements Callable<Integer> {
    /** How long a state-changing command waits for MySQL to catch up before it exits. */
    static final Duration SYNC_WAIT = Duration.ofSeconds(30);

    @Spec
    CommandSpec spec;

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

    /** @return the operator of this run; a bad name is a usage error */
    Operator operator(String nameOverride) {
        try {
            return global().operator(nameOverride);
        } catch (IllegalArgumentException e) {
            throw new ParameterException(spec.commandLine(), e.getMessage());
        }
    }

    /** @return a started engine (close it); an unset --db-password-env variable is a usage error */
    Engine engine() {
        String password;
        try {
            password = global().password();
        } catch (IllegalArgumentException e) {
            throw new ParameterException(spec.commandLine(), e.getMessage());
        }
        EngineConfig config;
        try {
            config = global().config(password);
        } catch (IllegalArgumentException e) {
            throw new ParameterException(spec.commandLine(), e.getMessage());
        }
        return Engine.start(config);
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
    boolean catchUpMySql(Services s) {
        return reportCatchUp(s.follower().catchUp(SYNC_WAIT));
    }

    /** Warns on stderr when MySQL did not catch up. @return whether it did */
    boolean reportCatchUp(CatchUp c) {
        if (!c.caughtUp()) {
            err().println("warning: MySQL is not in sync yet: " + c.detail() + "; run 'follower' later");
        }
        return c.caughtUp();
    }
}
