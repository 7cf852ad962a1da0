package com.orderconsole.cli;

import com.orderconsole.app.EngineConfig;
import com.orderconsole.app.Messages;
import com.orderconsole.app.Profile;
import com.orderconsole.app.ProfileException;
import com.orderconsole.app.Profiles;
import com.orderconsole.domain.Environment;
import com.orderconsole.domain.Operator;
import com.orderconsole.domain.Role;
import picocli.CommandLine.Option;
import picocli.CommandLine.ScopeType;

import java.io.PrintStream;
import java.nio.file.Path;
import java.util.Objects;

/**
 * Options every subcommand accepts (inherited from the top command): where the servers are, who signs
 * in, and the output format. Holds the output streams and the password prompt of the run.
 */
class GlobalOptions {
    final PrintStream out;
    final PrintStream err;
    private final OrderCli.PasswordPrompt prompt;
    private final OrderCli.YesPrompt yesPrompt;
    private final boolean serversOwnedLocally;

    @Option(scope = ScopeType.INHERIT, names = "--redis", paramLabel = "URI", converter = Converters.RedisUriConverter.class,
            descriptionKey = "cli.opt.redis")
    String redisUri;

    @Option(scope = ScopeType.INHERIT, names = "--jdbc", paramLabel = "URL", converter = Converters.JdbcUrlConverter.class,
            descriptionKey = "cli.opt.jdbc")
    String jdbcUrl;

    @Option(scope = ScopeType.INHERIT, names = "--db-user", paramLabel = "NAME", descriptionKey = "cli.opt.db-user")
    String dbUser;

    @Option(scope = ScopeType.INHERIT, names = "--db-password-env", paramLabel = "VAR", descriptionKey = "cli.opt.db-password-env")
    String dbPasswordEnv;

    @Option(scope = ScopeType.INHERIT, names = "--data-dir", paramLabel = "DIR", descriptionKey = "cli.opt.data-dir")
    Path dataDir;

    @Option(scope = ScopeType.INHERIT, names = "--json", descriptionKey = "cli.opt.json")
    boolean json;

    /** Read before parsing (see Languages#flag): declared here so the parser accepts it and --help lists it. */
    @Option(scope = ScopeType.INHERIT, names = "--lang", paramLabel = "LANG", descriptionKey = "cli.opt.lang")
    String lang;

    @Option(scope = ScopeType.INHERIT, names = "--operator", paramLabel = "NAME", hidden = true,
            descriptionKey = "cli.opt.operator")
    String operatorName;

    @Option(scope = ScopeType.INHERIT, names = "--role", paramLabel = "ROLE", converter = Converters.RoleConverter.class,
            descriptionKey = "cli.opt.role")
    Role role;

    @Option(scope = ScopeType.INHERIT, names = "--buckets", paramLabel = "N", converter = Converters.BucketsConverter.class, descriptionKey = "cli.opt.buckets")
    Integer buckets;

    @Option(scope = ScopeType.INHERIT, names = "--terminal-retention", paramLabel = "DURATION", converter = Converters.DurationConverter.class,
            descriptionKey = "cli.opt.terminal-retention")
    java.time.Duration terminalRetention;

    @Option(scope = ScopeType.INHERIT, names = "--profile", paramLabel = "NAME", descriptionKey = "cli.option.profile")
    String profileName;

    /** Remote mode: serve's API base URL; the command acts through it and opens no store connection. */
    @Option(scope = ScopeType.INHERIT, names = "--server", paramLabel = "URL", converter = Converters.ServerUrlConverter.class,
            descriptionKey = "cli.opt.server")
    java.net.URI server;

    /** Remote mode: the environment variable holding the access token (scripts). */
    @Option(scope = ScopeType.INHERIT, names = "--token-env", paramLabel = "VAR", descriptionKey = "cli.opt.token-env")
    String tokenEnv;

    /** Remote mode: a program printing the access token, run by the shell. */
    @Option(scope = ScopeType.INHERIT, names = "--token-command", paramLabel = "CMD", descriptionKey = "cli.opt.token-command")
    String tokenCommand;

    /** Remote mode, a person at a terminal: the identity provider signed in with by device code. */
    @Option(scope = ScopeType.INHERIT, names = "--issuer", paramLabel = "URL", converter = Converters.IssuerUrlConverter.class,
            descriptionKey = "cli.opt.issuer")
    java.net.URI issuer;

    /** Remote mode, a person at a terminal: the command line's public client id at the identity provider. */
    @Option(scope = ScopeType.INHERIT, names = "--client-id", paramLabel = "ID", descriptionKey = "cli.opt.client-id")
    String clientId;

    /** @return this run's remote mode (on when --server is given) */
    RemoteMode remote() {
        return new RemoteMode(this);
    }

    /**
     * Null when not given, "" when given without a count ({@code --yes} alone: enough for the simulator on staging); a count
     * otherwise. Anything else ({@code --yes=abc}) is a usage error, not a refused confirmation.
     */
    @Option(scope = ScopeType.INHERIT, names = "--yes", paramLabel = "COUNT", arity = "0..1", fallbackValue = "",
            converter = Converters.YesConverter.class, descriptionKey = "cli.opt.yes")
    String yes;

    /** Reads an environment variable (--token-env, --db-password-env's kin); tests give their own environment. */
    java.util.function.Function<String, String> env = System::getenv;

    /** Asked once per run whether stderr is a terminal (progress lines); tests give their own answer. */
    java.util.function.BooleanSupplier stderrTerminal = () -> false;
    private Boolean stderrIsTerminal;

    /** @return whether this run's stderr is a terminal, asked once */
    boolean stderrIsTerminal() {
        if (stderrIsTerminal == null) {
            stderrIsTerminal = stderrTerminal.getAsBoolean();
        }
        return stderrIsTerminal;
    }

    /** The profile named by --profile, once read; null without one. */
    private Profile profile;

    /**
     * @param prompt asks for the database password when no variable names it
     * @param yesPrompt asks y/N at the terminal before a guarded change on production when --yes is not given
     * @param serversOwnedLocally true when the servers named by --redis/--jdbc are the OS user's own (tests):
     *     nobody signs in, and without a profile they are a local environment
     */
    GlobalOptions(PrintStream out, PrintStream err, OrderCli.PasswordPrompt prompt, OrderCli.YesPrompt yesPrompt,
                  boolean serversOwnedLocally) {
        this.out = out;
        this.err = err;
        this.prompt = prompt;
        this.yesPrompt = yesPrompt;
        this.serversOwnedLocally = serversOwnedLocally;
    }

    /** @return true when an operator signs in with a database account (--jdbc on servers not owned locally) */
    boolean signInRequired() {
        return jdbcUrl != null && !serversOwnedLocally;
    }

    /** @return the database account to sign in with: --db-user, else the OS user name */
    String account() {
        return dbUser != null ? dbUser : Objects.requireNonNullElse(System.getProperty("user.name"), "");
    }

    /**
     * Refuses self-declared identities: the name in the history is the signed-in account, or on the
     * local embedded servers the OS user; there, and only there, {@code transition --actor} may name
     * someone else (e.g. a payment gateway whose callback is replayed by hand).
     *
     * @param actor the command's --actor, or null
     * @throws IllegalArgumentException saying why, for a usage error
     */
    void checkIdentity(String actor) {
        applyProfile();
        if (operatorName != null) {
            throw new IllegalArgumentException(Messages.get(signInRequired() ? "cli.operator.refused.account" : "cli.operator.refused.local"));
        }
        if (actor != null) {
            if (signInRequired()) {
                throw new IllegalArgumentException(Messages.format("cli.actor.refused", account()));
            }
            new Operator(actor, Role.READ_ONLY); // the name's syntax, before any server starts
        }
    }

    /**
     * Reads the profile named by --profile (once) and takes its servers, account and password variable
     * where no option gives them.
     *
     * @throws IllegalArgumentException when the profile cannot be read (file, line and field named), or
     *     --redis, --jdbc or --data-dir are given beside it
     */
    /** @return the profile named by --profile, read by {@link #applyProfile}; null without one */
    Profile profile() {
        return profile;
    }

    void applyProfile() {
        if (profileName == null || profile != null) {
            return;
        }
        if (redisUri != null || jdbcUrl != null || dataDir != null) {
            throw new IllegalArgumentException(Messages.format("profile.error.withServers", profileName));
        }
        try {
            profile = Profiles.load(Profiles.dir(), profileName);
            if (profile.external()) {
                redisUri = profile.redisWithCredentials();
                jdbcUrl = profile.jdbcUrl();
                if (dbUser == null) {
                    dbUser = profile.dbUser();
                }
                if (dbPasswordEnv == null) {
                    dbPasswordEnv = profile.passwordEnv();
                }
            } else {
                dataDir = profile.dataDir();
            }
        } catch (ProfileException e) {
            throw new IllegalArgumentException(e.getMessage(), e);
        }
    }

    /**
     * @return the environment worked on: the profile's, else "local" on the embedded servers, else
     *     {@link Environment#external()}: servers named without a profile count as production, so that
     *     nobody is less careful on a server they did not say is harmless (the test fixtures' own servers excepted)
     */
    Environment environment() {
        if (profile != null) {
            return profile.environment();
        }
        if (server != null) {
            // serve named without a profile counts as production, as servers named without one do.
            return Environment.external(server.getAuthority());
        }
        return jdbcUrl == null || serversOwnedLocally ? Environment.LOCAL : Environment.external(Messages.get("env.external"));
    }

    /**
     * Asks y/N at the terminal (never with --json, whose stdout is for the one document).
     *
     * @param question what is about to change, with its count
     * @return the answer, or null when there is nobody to ask
     */
    Boolean askYes(String question) {
        return json ? null : yesPrompt.ask(question);
    }

    /** @return true when the command line names no servers and no profile: the console may offer its profiles */
    boolean noServersNamed() {
        return profileName == null && redisUri == null && jdbcUrl == null && dataDir == null;
    }

    /**
     * @return the database password: from the --db-password-env variable, else typed at the terminal;
     *     "" when nobody signs in
     * @throws IllegalArgumentException when the variable is not set, or no variable is named and there is
     *     no terminal to ask at
     */
    String password() {
        if (dbPasswordEnv != null) {
            String password = System.getenv(dbPasswordEnv);
            if (password == null) {
                throw new IllegalArgumentException(Messages.format("cli.password.envUnset", dbPasswordEnv));
            }
            return password;
        }
        if (!signInRequired()) {
            return "";
        }
        char[] typed = prompt.read(Messages.format("cli.password.prompt", account()));
        if (typed == null) {
            throw new IllegalArgumentException(Messages.format("cli.password.none", account()));
        }
        return new String(typed);
    }

    /**
     * The configuration {@code migrate} needs: the database and the administrator's account only. Unlike
     * {@link #config} it does not ask for --redis beside --jdbc: a migration opens no Redis, so nothing can
     * be split (the DBA guide's set-up step names --jdbc alone).
     *
     * @param password the database password (see {@link #password()})
     */
    EngineConfig migrationConfig(String password) {
        EngineConfig config = EngineConfig.embeddedDefault();
        return config.withServers(null, jdbcUrl, serversOwnedLocally ? config.dbUser() : account(), password);
    }

    /**
     * The engine configuration of one command: no background jobs (commands that need the sweeper or
     * the MySQL follower run them once themselves); embedded servers unless --redis/--jdbc are given.
     *
     * @param password the database password (see {@link #password()})
     */
    EngineConfig config(String password) {
        if (profile != null && profile.remote()) {
            // A remote profile never starts or reaches the stores: an engine made from it would be the embedded one.
            throw new IllegalArgumentException(Messages.format("profile.error.remoteEngine", profile.name()));
        }
        EngineConfig config = EngineConfig.embeddedDefault().withBackgroundJobs(null, null).withRole(role).withBuckets(buckets);
        if (terminalRetention != null) {
            config = config.withTerminalRetention(terminalRetention);
        }
        if (dataDir != null) {
            config = config.withDataDir(dataDir.toAbsolutePath());
        }
        if (redisUri != null && jdbcUrl == null || redisUri == null && jdbcUrl != null) {
            throw new IllegalArgumentException(Messages.get(redisUri != null ? "cli.servers.redisOnly" : "cli.servers.jdbcOnly"));
        }
        if (redisUri != null) {
            config = config.withServers(redisUri, jdbcUrl, serversOwnedLocally ? config.dbUser() : account(), password);
        }
        return serversOwnedLocally ? config.withLocalIdentity() : config;
    }
}
