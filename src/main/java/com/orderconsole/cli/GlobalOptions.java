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
    private final boolean serversOwnedLocally;

    @Option(scope = ScopeType.INHERIT, names = "--redis", paramLabel = "URI", description = "Redis URI, e.g. "
            + "redis://host:6379/0 or redis://user:password@host:6379 (default: embedded Redis)")
    String redisUri;

    @Option(scope = ScopeType.INHERIT, names = "--jdbc", paramLabel = "URL", description = "JDBC URL of the orders "
            + "schema, e.g. jdbc:mysql://host:3306/orders (default: embedded MariaDB, where you are the local admin)")
    String jdbcUrl;

    @Option(scope = ScopeType.INHERIT, names = "--db-user", paramLabel = "NAME", description = "your database "
            + "account with --jdbc; it is the name recorded in the history (default: your user name)")
    String dbUser;

    @Option(scope = ScopeType.INHERIT, names = "--db-password-env", paramLabel = "VAR", description = "read the "
            + "database password from this environment variable (never printed); without it you are asked at the terminal")
    String dbPasswordEnv;

    @Option(scope = ScopeType.INHERIT, names = "--data-dir", paramLabel = "DIR", description = "data directory of "
            + "the embedded servers (default: ${sys:order-console.default-data-dir})")
    Path dataDir;

    @Option(scope = ScopeType.INHERIT, names = "--json", description = "print one JSON document on stdout instead of "
            + "text")
    boolean json;

    @Option(scope = ScopeType.INHERIT, names = "--operator", paramLabel = "NAME", hidden = true,
            description = "no longer accepted: who acts is the signed-in account")
    String operatorName;

    @Option(scope = ScopeType.INHERIT, names = "--role", paramLabel = "ROLE", converter = Cli.RoleConverter.class,
            description = "work in a lower role than your account holds: read_only, support, ops or admin "
                    + "(default: the highest your database account holds; admin on the embedded servers)")
    Role role;

    @Option(scope = ScopeType.INHERIT, names = "--profile", paramLabel = "NAME", descriptionKey = "cli.option.profile",
            description = "connection profile: profiles/NAME.properties in the configuration directory (servers, account, "
                    + "environment); instead of --redis, --jdbc and --data-dir")
    String profileName;

    /** The profile named by --profile, once read; null without one. */
    private Profile profile;

    /**
     * @param prompt asks for the database password when no variable names it
     * @param serversOwnedLocally true when the servers named by --redis/--jdbc are the OS user's own (tests):
     *     nobody signs in
     */
    GlobalOptions(PrintStream out, PrintStream err, OrderCli.PasswordPrompt prompt, boolean serversOwnedLocally) {
        this.out = out;
        this.err = err;
        this.prompt = prompt;
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
            throw new IllegalArgumentException("--operator is no longer accepted: the history records "
                    + (signInRequired() ? "the database account you sign in with (--db-user)" : "your user name on the local servers"));
        }
        if (actor != null) {
            if (signInRequired()) {
                throw new IllegalArgumentException("--actor is accepted on the local embedded servers only; with --jdbc "
                        + "the history records the database account you sign in with (--db-user " + account() + ")");
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
     *     nobody is less careful on a server they did not say is harmless
     */
    Environment environment() {
        if (profile != null) {
            return profile.environment();
        }
        return jdbcUrl == null ? Environment.LOCAL : Environment.external(Messages.get("env.external"));
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
                throw new IllegalArgumentException("environment variable " + dbPasswordEnv + " (from --db-password-env) is not set");
            }
            return password;
        }
        if (!signInRequired()) {
            return "";
        }
        char[] typed = prompt.read("Password of database account '" + account() + "': ");
        if (typed == null) {
            throw new IllegalArgumentException("no password for database account '" + account() + "': name an environment "
                    + "variable holding it with --db-password-env VAR, or run at a terminal to be asked");
        }
        return new String(typed);
    }

    /**
     * The engine configuration of one command: no background jobs (commands that need the sweeper or
     * the MySQL follower run them once themselves); embedded servers unless --redis/--jdbc are given.
     *
     * @param password the database password (see {@link #password()})
     */
    EngineConfig config(String password) {
        EngineConfig config = EngineConfig.embeddedDefault().withBackgroundJobs(null, null).withRole(role);
        if (dataDir != null) {
            config = config.withDataDir(dataDir.toAbsolutePath());
        }
        if (redisUri != null && jdbcUrl == null || redisUri == null && jdbcUrl != null) {
            throw new IllegalArgumentException((redisUri != null ? "--redis was given without --jdbc" : "--jdbc was given without --redis")
                    + ": give both (external servers) or neither (the embedded servers of the data directory); "
                    + "one external server beside an embedded one would split the system");
        }
        if (redisUri != null) {
            config = config.withServers(redisUri, jdbcUrl, serversOwnedLocally ? config.dbUser() : account(), password);
        }
        return serversOwnedLocally ? config.withLocalIdentity() : config;
    }
}
