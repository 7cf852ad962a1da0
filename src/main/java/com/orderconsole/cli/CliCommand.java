package com.orderconsole.cli;

import com.orderconsole.app.Engine;
import com.orderconsole.domain.Operator;
import com.orderconsole.service.Services;
import com.orderconsole.service.SyncStatus;
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
        return Engine.start(global().config(password));
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
     * Applies every pending outbox entry to MySQL before the process exits, so the durable record
     * holds what this command changed.
     *
     * @return true when MySQL caught up; false after a warning on stderr (the changes wait in Redis
     *         and the next sync or the console's follower applies them)
     */
    boolean syncMySql(Services s) {
        if (s.sync().awaitCaughtUp(SYNC_WAIT)) {
            return true;
        }
        String detail;
        try {
            SyncStatus st = s.sync().status();
            detail = st.pending() + (st.pendingCapped() ? "+" : "") + " changes wait in the Redis outbox"
                    + (st.lastError() == null ? "" : " (" + st.lastError() + ")");
        } catch (RuntimeException e) {
            detail = "changes wait in the Redis outbox (" + Cli.message(e) + ")";
        }
        err().println("warning: MySQL is not in sync yet: " + detail + "; run 'sync' later");
        return false;
    }
}
