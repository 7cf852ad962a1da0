package com.orderconsole.cli;

import com.orderconsole.app.EngineConfig;
import com.orderconsole.domain.Operator;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.ScopeType;
import picocli.CommandLine.Spec;
import picocli.CommandLine;

import java.io.PrintStream;
import java.io.PrintWriter;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.function.BiConsumer;

/**
 * The headless command line: the same service layer as the console, one subcommand per run.
 *
 * <pre>
 * order-console [global options] import --csv FILE
 * order-console create --id ID [--expire-in 30m] [--customer ID]
 * order-console transition --id ID --to PAID [--actor NAME] [--reason TEXT] [--expect-version N]
 * order-console show --id ID
 * order-console sweep --once
 * order-console sync
 * order-console reconcile [--repair]
 * order-console stats
 * order-console rules show | rules validate FILE | rules set FILE
 * </pre>
 *
 * Global options (accepted before or after the subcommand): {@code --redis URI}, {@code --jdbc URL},
 * {@code --db-user NAME}, {@code --db-password-env VAR}, {@code --data-dir DIR}, {@code --json},
 * {@code --operator NAME}, {@code --role ROLE}. Without {@code --redis}/{@code --jdbc} embedded servers
 * run in the data directory (default {@code $XDG_DATA_HOME/order-console}, else {@code ~/.local/share/order-console}).
 *
 * <p>Exit codes: {@value #OK} success; {@value #REJECTED} a transition was rejected (the result code is
 * in the output); {@value #USAGE} usage error; {@value #FAILED} any other failure (message on stderr). With
 * {@code --json} a failure also prints {@code {"error": "...", "code": N}} on stdout, N being the exit code.
 */
public final class OrderCli {
    /** Success. */
    public static final int OK = 0;
    /** Any other failure; the message is on stderr. */
    public static final int FAILED = 1;
    /** The command line is wrong: unknown option, missing or malformed value. */
    public static final int USAGE = 2;
    /** The transition script rejected the transition; the output has the code. */
    public static final int REJECTED = 3;

    /** Property read by logback.xml: the CLI keeps its own log lines to warnings (on stderr). */
    static final String LOG_LEVEL_PROPERTY = "oc.log.level";

    private OrderCli() {
    }

    /**
     * Runs one command line.
     *
     * @param args the arguments, e.g. {@code ["show", "--id", "o-1", "--json"]}
     * @param out where results go (with --json exactly one JSON document)
     * @param err where errors, warnings and progress go
     * @return the exit code: 0 ok, 1 failure, 2 usage error, 3 transition rejected
     */
    public static int run(String[] args, PrintStream out, PrintStream err) {
        return run(args, out, err, null);
    }

    /**
     * Runs one command line; without a subcommand, opens the console with the global options.
     *
     * @param openConsole called with the engine configuration (background jobs on) and the operator when no
     *     subcommand is given; returns when the console closes. Null: a subcommand is required.
     * @return the exit code, as {@link #run(String[], PrintStream, PrintStream)}
     */
    public static int run(String[] args, PrintStream out, PrintStream err, BiConsumer<EngineConfig, Operator> openConsole) {
        if (System.getProperty(LOG_LEVEL_PROPERTY) == null) {
            // Read when logging starts (first engine use): the CLI's stdout stays clean and stderr quiet.
            System.setProperty(LOG_LEVEL_PROPERTY, "WARN");
        }
        // Shown by --help as the default data directory: the one the engine will use ($XDG_DATA_HOME honoured).
        System.setProperty(DEFAULT_DATA_DIR_PROPERTY, EngineConfig.defaultDataDir().toString());
        boolean json = Arrays.asList(args).contains("--json");
        Root root = new Root(out, err, openConsole);
        CommandLine cl = new CommandLine(root);
        cl.setOut(new PrintWriter(out, true, StandardCharsets.UTF_8));
        cl.setErr(new PrintWriter(err, true, StandardCharsets.UTF_8));
        cl.setParameterExceptionHandler((ex, a) -> {
            err.println("error: " + ex.getMessage());
            CommandLine c = ex.getCommandLine();
            err.println("Run '" + c.getCommandSpec().qualifiedName() + " --help' for usage.");
            return jsonError(json, out, ex.getMessage(), USAGE);
        });
        cl.setExecutionExceptionHandler((ex, c, parseResult) -> {
            err.println("error: " + Cli.message(ex));
            return jsonError(json, out, Cli.message(ex), FAILED);
        });
        return cl.execute(args);
    }

    /** System property the --data-dir help text reads: the default data directory of this user. */
    static final String DEFAULT_DATA_DIR_PROPERTY = "order-console.default-data-dir";

    /**
     * With --json every run prints one JSON document on stdout, failures included.
     *
     * @return {@code code}, the exit code, after printing {@code {"error": message, "code": code}} when json is set
     */
    private static int jsonError(boolean json, PrintStream out, String message, int code) {
        if (json) {
            Map<String, Object> doc = new LinkedHashMap<>();
            doc.put("error", message);
            doc.put("code", code);
            out.println(Cli.json(doc));
        }
        return code;
    }

    /** The top command: global options; subcommands do the work. */
    @Command(name = "order-console", scope = ScopeType.INHERIT, mixinStandardHelpOptions = true,
            version = "order-console 0.1.0",
            description = "Order State Console, headless. Without a subcommand, java -jar opens the console.",
            subcommands = {ImportCommand.class, CreateCommand.class, TransitionCommand.class, ShowCommand.class,
                    SweepCommand.class, FollowerCommand.class, ReconcileCommand.class, StatsCommand.class, RulesCommand.class,
                    DeadLettersCommand.class},
            footer = {"", "Exit codes: 0 ok, 1 failure (message on stderr), 2 usage error, 3 transition rejected (code in the output)."})
    static final class Root extends GlobalOptions implements Runnable {
        private final BiConsumer<EngineConfig, Operator> openConsole;

        Root(PrintStream out, PrintStream err, BiConsumer<EngineConfig, Operator> openConsole) {
            super(out, err);
            this.openConsole = openConsole;
        }

        @Spec
        CommandSpec spec;

        @Override
        public void run() {
            if (openConsole == null) {
                throw new ParameterException(spec.commandLine(), "a subcommand is needed");
            }
            // The console runs the cancel sweeper (1 s) and the MySQL follower itself, unlike one-shot commands.
            openConsole.accept(config(password()).withBackgroundJobs(Duration.ofSeconds(1), Duration.ofMillis(200)),
                    operator(null));
        }
    }
}
