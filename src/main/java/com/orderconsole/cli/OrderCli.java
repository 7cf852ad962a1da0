package com.orderconsole.cli;

import com.orderconsole.app.ConsoleStart;
import com.orderconsole.app.EngineConfig;
import com.orderconsole.app.Languages;
import com.orderconsole.app.Messages;
import com.orderconsole.app.Settings;
import com.orderconsole.app.Profiles;
import com.orderconsole.app.SignIn;
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
import java.util.List;
import java.util.LinkedHashMap;
import java.util.Locale;
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
 * order-console migrate --jdbc URL --db-user ADMIN
 * order-console traffic [--rate N] [--seconds S]
 * </pre>
 *
 * Global options (accepted before or after the subcommand): {@code --redis URI}, {@code --jdbc URL},
 * {@code --db-user NAME}, {@code --db-password-env VAR}, {@code --data-dir DIR}, {@code --json},
 * {@code --role ROLE}, {@code --lang en|zh-CN} (else the console's settings, else the OS locale; help texts and
 * messages come from the bundles, --json stays English). Without {@code --redis}/{@code --jdbc} embedded servers run in the data directory
 * (default {@code $XDG_DATA_HOME/order-console}, else {@code ~/.local/share/order-console}) and the OS user
 * is their admin. With {@code --jdbc} the operator signs in with their own database account (password from
 * the variable named by {@code --db-password-env}, or typed at the terminal): that account is the name in the
 * history and its database roles give the console role, which {@code --role} can only lower.
 *
 * <p>Exit codes are {@link ExitCode}'s. With {@code --json} a failure prints
 * {@code {"error": {"message": "...", "kind": "usage"}, "exit": 2}} on stdout: an object under {@code error}, never a
 * number a script could take for a result code.
 */
public final class OrderCli {

    /** Property read by the logging set-up: the CLI keeps its own log lines to warnings (on stderr). */
    static final String LOG_LEVEL_PROPERTY = com.orderconsole.app.LogSetup.LEVEL_PROPERTY;

    private OrderCli() {
    }

    /**
     * Runs one command line.
     *
     * @param args the arguments, e.g. {@code ["show", "--id", "o-1", "--json"]}
     * @param out where results go (with --json exactly one JSON document)
     * @param err where errors, warnings and progress go
     * @return the exit code, one of {@link ExitCode}
     */
    public static int run(String[] args, PrintStream out, PrintStream err) {
        return run(args, out, err, null);
    }

    /** Reads a password from the person at the terminal, without echo. */
    @FunctionalInterface
    public interface PasswordPrompt {
        /** The process's terminal; none when input or output is redirected. */
        PasswordPrompt TERMINAL = text -> System.console() == null ? null : System.console().readPassword("%s", text);

        /**
         * @param text what to ask, e.g. "Password of database account 'alice': "
         * @return the password typed, or null when there is no terminal to ask at
         */
        char[] read(String text);
    }

    /** Asks the person at the terminal to confirm a change on production, the count in the question. */
    @FunctionalInterface
    public interface YesPrompt {
        /** The process's terminal (stdin and stdout not redirected); none otherwise. */
        YesPrompt TERMINAL = question -> {
            java.io.Console c = System.console();
            if (c == null) {
                return null;
            }
            String answer = c.readLine("%s [y/N] ", question);
            return answer != null && (answer.strip().equalsIgnoreCase("y") || answer.strip().equalsIgnoreCase("yes"));
        };

        /**
         * @param question e.g. "[prod-eu] bulk: move 120 orders to WAIT_SHIP (120)?"
         * @return true for yes, false for anything else, null when there is no terminal to ask at
         */
        Boolean ask(String question);
    }

    /**
     * Runs one command line; without a subcommand, opens the console with the global options.
     *
     * @param openConsole called when no subcommand is given, with the engine configuration (background jobs
     *     on) and the operator: on local servers the OS user as admin; with --jdbc and --db-password-env the
     *     account, already checked; with --jdbc alone null, and the configuration has no password: the
     *     console's sign-in dialog asks. Returns when the console closes. Null: a subcommand is required.
     * @return the exit code, as {@link #run(String[], PrintStream, PrintStream)}
     */
    public static int run(String[] args, PrintStream out, PrintStream err, BiConsumer<EngineConfig, Operator> openConsole) {
        return run(args, out, err, openConsole, PasswordPrompt.TERMINAL);
    }

    /**
     * Runs one command line, asking for passwords with the given prompt.
     *
     * @param prompt where a password is asked for when --jdbc is given without --db-password-env
     * @return the exit code, as {@link #run(String[], PrintStream, PrintStream)}
     */
    public static int run(String[] args, PrintStream out, PrintStream err, BiConsumer<EngineConfig, Operator> openConsole,
                          PasswordPrompt prompt) {
        return run(new Root(out, err, openConsole == null ? null : s -> openConsole.accept(s.config(), s.operator()), prompt,
                YesPrompt.TERMINAL, false), args);
    }

    /**
     * Runs one command line; without a subcommand, opens the console with what the command line named:
     * servers, a profile, or nothing (then the console offers the profiles there are, if any).
     *
     * @param openConsole called with the console's start; returns when the console closes
     * @return the exit code, as {@link #run(String[], PrintStream, PrintStream)}
     */
    public static int runConsole(String[] args, PrintStream out, PrintStream err, java.util.function.Consumer<ConsoleStart> openConsole) {
        return run(new Root(out, err, openConsole, PasswordPrompt.TERMINAL, YesPrompt.TERMINAL, false), args);
    }

    /**
     * Runs one command line against servers that are the OS user's own (the test fixtures), so that nobody
     * signs in: as on the embedded servers, the OS user is the admin.
     */
    static int runOnLocalServers(String[] args, PrintStream out, PrintStream err) {
        return runOnLocalServers(args, out, err, question -> null);
    }

    /** As {@link #runOnLocalServers(String[], PrintStream, PrintStream)}, a person answering y/N with {@code yes}. */
    static int runOnLocalServers(String[] args, PrintStream out, PrintStream err, YesPrompt yes) {
        return run(new Root(out, err, (java.util.function.Consumer<ConsoleStart>) null, PasswordPrompt.TERMINAL, yes, true), args);
    }

    /** As {@link #runOnLocalServers(String[], PrintStream, PrintStream)}, environment variables read from {@code env}. */
    static int runWithEnvironment(String[] args, PrintStream out, PrintStream err, java.util.function.Function<String, String> env) {
        Root root = new Root(out, err, (java.util.function.Consumer<ConsoleStart>) null, PasswordPrompt.TERMINAL, question -> null, true);
        root.env = env;
        return run(root, args);
    }

    /** As {@link #runOnLocalServers(String[], PrintStream, PrintStream)}, with {@code err} taken for a terminal or not. */
    static int runOnLocalServers(String[] args, PrintStream out, PrintStream err, boolean errIsTerminal) {
        Root root = new Root(out, err, (java.util.function.Consumer<ConsoleStart>) null, PasswordPrompt.TERMINAL, question -> null, true);
        root.stderrTerminal = () -> errIsTerminal;
        return run(root, args);
    }

    private static int run(Root root, String[] args) {
        if (root.out == System.out && root.err == System.err) {
            root.stderrTerminal = StderrTerminal::check;
        }
        PrintStream out = root.out;
        PrintStream err = root.err;
        if (System.getProperty(LOG_LEVEL_PROPERTY) == null) {
            // Read when logging starts (first engine use): the CLI's stdout stays clean and stderr quiet.
            System.setProperty(LOG_LEVEL_PROPERTY, "WARN");
        }
        // Shown by --help as the default data directory: the one the engine will use ($XDG_DATA_HOME honoured).
        System.setProperty(DEFAULT_DATA_DIR_PROPERTY, EngineConfig.defaultDataDir().toString());
        boolean json = Arrays.asList(args).contains("--json");
        // The language first: picocli reads the help texts from the bundle when the command line is built.
        try {
            Settings settings = Settings.load();
            Messages.use(Languages.choose(Languages.flag(args), settings.language(), Locale.getDefault()));
            settings.problems().forEach(p -> err.println(Messages.format("cli.warning", p)));
        } catch (IllegalArgumentException e) {
            err.println(Messages.format("cli.error", e.getMessage()));
            return jsonError(json, out, e.getMessage(), ExitCode.USAGE, ExitCode.USAGE.kind());
        }
        CommandLine cl = new CommandLine(root);
        cl.setResourceBundle(Messages.bundle());
        cl.setOut(new PrintWriter(out, true, StandardCharsets.UTF_8));
        cl.setErr(new PrintWriter(err, true, StandardCharsets.UTF_8));
        cl.setParameterExceptionHandler((ex, a) -> {
            err.println(Messages.format("cli.error", ex.getMessage()));
            if (ex instanceof CommandLine.UnmatchedArgumentException u && !u.getSuggestions().isEmpty()) {
                // picocli's own nearest names ("trasition" -> transition, "--reson" -> --reason)
                err.println(Messages.format("cli.usage.suggest", String.join(", ", u.getSuggestions())));
            }
            CommandLine c = ex.getCommandLine();
            err.println(Messages.format("cli.usage.hint", c.getCommandSpec().qualifiedName()));
            return jsonError(json, out, ex.getMessage(), ExitCode.USAGE, ExitCode.USAGE.kind());
        });
        cl.setExecutionExceptionHandler((ex, c, parseResult) -> {
            err.println(Messages.format("cli.error", Cli.message(ex)));
            ExitCode exit = ex instanceof com.orderconsole.app.NotConfirmedException ? ExitCode.NOT_CONFIRMED : ExitCode.FAILED;
            return jsonError(json, out, Cli.message(ex), exit, errorKind(ex, exit));
        });
        // The remote options are checked together, and against the command, before any command runs.
        cl.setExecutionStrategy(parseResult -> {
            checkRemote(root, parseResult);
            return new CommandLine.RunLast().execute(parseResult);
        });
        Map<String, String> exitCodes = new LinkedHashMap<>();
        for (ExitCode e : ExitCode.values()) {
            exitCodes.put(Integer.toString(e.code()), Messages.get(e.descriptionKey()));
        }
        // Every command's --help (and the man page) lists the exit codes from the one enum.
        applyExitCodes(cl, exitCodes);
        return cl.execute(args);
    }

    /**
     * Checks the remote options of the run (see {@link RemoteMode#check}); a help request is answered whatever they say.
     *
     * @throws ParameterException in words, for a usage error
     */
    private static void checkRemote(Root root, CommandLine.ParseResult parseResult) {
        List<CommandLine> chain = parseResult.asCommandLineList();
        if (chain.stream().anyMatch(c -> c.isUsageHelpRequested() || c.isVersionHelpRequested())) {
            return;
        }
        CommandLine.ParseResult sub = parseResult.subcommand();
        try {
            root.remote().check(sub == null ? null : sub.commandSpec().name());
        } catch (IllegalArgumentException e) {
            throw new ParameterException(chain.get(chain.size() - 1), e.getMessage());
        }
    }

    /** System property the --data-dir help text reads: the default data directory of this user. */
    static final String DEFAULT_DATA_DIR_PROPERTY = "order-console.default-data-dir";

    private static void applyExitCodes(CommandLine cl, Map<String, String> exitCodes) {
        cl.getCommandSpec().usageMessage().exitCodeListHeading(Messages.get("cli.exit.heading")).exitCodeList(exitCodes);
        cl.getSubcommands().values().forEach(sub -> applyExitCodes(sub, exitCodes));
    }

    /**
     * @return what kind of failure, for {@code error.kind}: "not_found", "permission", "not_confirmed", else "failed"
     */
    private static String errorKind(Throwable ex, ExitCode exit) {
        return com.orderconsole.app.ErrorDocument.kindOf(ex, com.orderconsole.app.ErrorKind.FAILED).word();
    }

    /**
     * With --json every run prints one JSON document on stdout, failures included.
     *
     * @return the exit code, after printing {@link #errorDocument} when json is set
     */
    private static int jsonError(boolean json, PrintStream out, String message, ExitCode exit, String kind) {
        if (json) {
            out.println(Cli.json(errorDocument(message, exit, kind)));
        }
        return exit.code();
    }

    /**
     * The one shape of a {@code --json} failure: {@code {"error": {"message": ..., "kind": ...}, "exit": N}}. The error
     * is an object, so no script reads it as a result; {@code exit} is the process's exit code.
     *
     * @param kind e.g. "usage", "not_found", "not_confirmed", "invalid_rules"
     * @return a document to which a command may add fields of its own (e.g. a rules file's faults)
     */
    static Map<String, Object> errorDocument(String message, ExitCode exit, String kind) {
        // The shape is app's: the HTTP API answers its errors in it too (issue 32).
        return com.orderconsole.app.ErrorDocument.of(message, kind, exit.code());
    }

    /** The top command: global options; subcommands do the work. */
    @Command(name = "order-console", scope = ScopeType.INHERIT, mixinStandardHelpOptions = true,
            versionProvider = VersionProvider.class,
            subcommands = {CommandLine.HelpCommand.class, ImportCommand.class, CreateCommand.class, TransitionCommand.class, ShowCommand.class,
                    SweepCommand.class, QueueCommand.class, FollowerCommand.class, ReconcileCommand.class, StatsCommand.class, RulesCommand.class,
                    DeadLettersCommand.class, MigrateCommand.class, BulkCommand.class, AuditCommand.class,
                    ServeCommand.class, ApiClientCommand.class, TrafficCommand.class, CompletionCommand.class, ManCommand.class, InstallCommand.class})
    static final class Root extends GlobalOptions implements Runnable {
        private final java.util.function.Consumer<ConsoleStart> openConsole;

        Root(PrintStream out, PrintStream err, java.util.function.Consumer<ConsoleStart> openConsole, PasswordPrompt prompt,
             YesPrompt yes, boolean serversOwnedLocally) {
            super(out, err, prompt, yes, serversOwnedLocally);
            this.openConsole = openConsole;
        }

        @Spec
        CommandSpec spec;

        @Override
        public void run() {
            if (openConsole == null) {
                throw new ParameterException(spec.commandLine(), Messages.get("cli.subcommand.needed"));
            }
            if (remote().on() && (profile() == null || !profile().remote())) {
                // --server names serve for the commands; the console takes serve from a remote profile with its sign-in.
                throw new ParameterException(spec.commandLine(), Messages.get("cli.remote.console"));
            }
            // Nothing named on the command line: the console offers the profiles there are (none: local, as always).
            Profiles.Listing choices = noServersNamed() ? Profiles.list(Profiles.dir()) : new Profiles.Listing(java.util.List.of(),
                    java.util.List.of());
            EngineConfig config;
            boolean dialogAsks;
            try {
                checkIdentity(null);
                if (profile() != null && profile().remote()) {
                    // A remote profile starts no engine: the console signs the person in and works through serve.
                    Locale.setDefault(Messages.locale());
                    openConsole.accept(ConsoleStart.remote(profile()));
                    return;
                }
                // Without a password variable the console's sign-in dialog asks, not the terminal.
                dialogAsks = signInRequired() && dbPasswordEnv == null;
                config = config(dialogAsks ? "" : password());
            } catch (IllegalArgumentException e) {
                throw new ParameterException(spec.commandLine(), e.getMessage());
            }
            // The console runs the cancel sweeper (1 s) and the MySQL follower itself, unlike one-shot commands.
            config = config.withBackgroundJobs(Duration.ofSeconds(1), Duration.ofMillis(200));
            // JavaFX's own texts (date pickers, text menus, dialog buttons) follow the default locale.
            Locale.setDefault(Messages.locale());
            Operator who = dialogAsks || !choices.empty() ? null : SignIn.verify(config);
            openConsole.accept(new ConsoleStart(config, who, environment(), choices));
        }
    }
}
