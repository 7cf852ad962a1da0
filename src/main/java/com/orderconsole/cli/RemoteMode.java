package com.orderconsole.cli;

import com.orderconsole.app.Messages;
import com.orderconsole.app.Profile;
import com.orderconsole.app.remote.AccessTokens;
import com.orderconsole.app.remote.EnvToken;
import com.orderconsole.app.remote.OidcSession;
import com.orderconsole.app.remote.TokenCommand;

import java.io.PrintStream;
import java.net.URI;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;

/**
 * Remote mode of the command line: the command acts through serve's API ({@code --server URL}, or a profile naming
 * {@code server}) with an access token from {@code --token-env VAR}, {@code --token-command CMD}, the profile's token
 * command, or a person's sign-in with a device code ({@code --issuer} and {@code --client-id}, or the profile's), and
 * opens no connection to Redis or MySQL. Checks the options together before anything runs, and refuses the commands
 * that need the stores themselves, saying why.
 */
final class RemoteMode {
    /** The commands that work on the stores themselves, never through serve. */
    static final Set<String> STORE_ONLY = Set.of("migrate", "serve", "follower", "sweep", "import", "install", "api-client", "traffic");

    private final GlobalOptions g;

    RemoteMode(GlobalOptions g) {
        this.g = g;
    }

    /** @return true when the command line works through serve: --server, or a remote profile (once read) */
    boolean on() {
        return g.server != null || profile() != null && profile().remote();
    }

    private Profile profile() {
        return g.profile();
    }

    /** @return serve's API base URL; null in local mode */
    URI server() {
        if (g.server != null || !on()) {
            return g.server;
        }
        String s = profile().server().toString();
        return URI.create(s.endsWith("/") ? s.substring(0, s.length() - 1) : s);
    }

    /**
     * Checks the remote options of a run before its command starts: the token options need a server and only one way
     * to a token may be given; a server excludes the options of the stores; a command that needs the stores refuses a
     * server; a run through serve names how it gets its token. Reads the profile named by --profile.
     *
     * @param command the subcommand's name as typed first, e.g. "show", "api-client"; null for the console
     * @throws IllegalArgumentException in words, for a usage error (nothing was asked of any server)
     */
    void check(String command) {
        List<String> ways = new ArrayList<>();
        add(ways, g.tokenEnv != null, "--token-env");
        add(ways, g.tokenCommand != null, "--token-command");
        add(ways, g.issuer != null || g.clientId != null, "--issuer");
        if (ways.size() > 1) {
            throw new IllegalArgumentException(Messages.format("cli.remote.twoTokens", String.join(", ", ways)));
        }
        if ((g.issuer == null) != (g.clientId == null)) {
            throw new IllegalArgumentException(Messages.get(g.issuer == null ? "cli.remote.clientIdAlone" : "cli.remote.issuerAlone"));
        }
        if (g.server != null && g.profileName != null) {
            throw new IllegalArgumentException(Messages.format("cli.remote.withProfile", g.profileName));
        }
        if (g.profileName != null && (command == null || !command.equals("help"))) {
            g.applyProfile();
        }
        if (!on()) {
            if (!ways.isEmpty()) {
                throw new IllegalArgumentException(Messages.format("cli.remote.tokenWithoutServer", ways.get(0)));
            }
            return;
        }
        if (command != null && STORE_ONLY.contains(command)) {
            throw new IllegalArgumentException(Messages.format("cli.remote.storeOnly." + command));
        }
        List<String> stores = new ArrayList<>();
        add(stores, g.redisUri != null, "--redis");
        add(stores, g.jdbcUrl != null, "--jdbc");
        add(stores, g.dbUser != null, "--db-user");
        add(stores, g.dbPasswordEnv != null, "--db-password-env");
        add(stores, g.dataDir != null, "--data-dir");
        add(stores, g.buckets != null, "--buckets");
        add(stores, g.terminalRetention != null, "--terminal-retention");
        if (!stores.isEmpty()) {
            throw new IllegalArgumentException(Messages.format("cli.remote.withStores", String.join(", ", stores)));
        }
        if (g.role != null) {
            throw new IllegalArgumentException(Messages.get("cli.remote.withRole"));
        }
        if (g.tokenEnv != null) {
            new EnvToken(g.tokenEnv, g.env).check();
        }
        if (g.tokenCommand != null && g.tokenCommand.isBlank()) {
            throw new IllegalArgumentException(Messages.get("remote.token.command.blank"));
        }
        if (ways.isEmpty() && (profile() == null || !profile().remote())) {
            throw new IllegalArgumentException(Messages.get("cli.remote.noSignIn"));
        }
    }

    private static void add(List<String> given, boolean present, String option) {
        if (present) {
            given.add(option);
        }
    }

    /**
     * Where this run's access token comes from: --token-env, --token-command, --issuer with --client-id, else the remote
     * profile's token command or its issuer and client id. A sign-in with a device code prints its address and code on
     * {@code err}, so stdout stays the command's result.
     *
     * @param err where a token command's messages and the sign-in's address and code are shown
     * @return the run's access tokens
     * @throws com.orderconsole.app.remote.SignInRequiredException in words when the sign-in fails
     */
    AccessTokens tokens(PrintStream err) {
        if (g.tokenEnv != null) {
            return new EnvToken(g.tokenEnv, g.env);
        }
        if (g.tokenCommand != null) {
            return new TokenCommand(g.tokenCommand, err);
        }
        if (g.issuer != null) {
            return signIn(g.issuer, g.clientId, err);
        }
        Profile p = profile();
        if (p.tokenCommand() != null) {
            return new TokenCommand(p.tokenCommand(), err);
        }
        return signIn(p.issuer(), p.clientId(), err);
    }

    /** A person's sign-in at the terminal with a device code (RFC 8628): the address and the code go to {@code err}. */
    private static AccessTokens signIn(URI issuer, String clientId, PrintStream err) {
        OidcSession session = OidcSession.connect(issuer, clientId);
        session.signInWithDeviceCode(err);
        return session;
    }
}
