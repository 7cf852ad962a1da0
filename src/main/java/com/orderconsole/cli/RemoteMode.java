package com.orderconsole.cli;

import com.orderconsole.app.Messages;
import com.orderconsole.app.remote.AccessTokens;
import com.orderconsole.app.remote.EnvToken;
import com.orderconsole.app.remote.TokenCommand;

import java.io.PrintStream;
import java.net.URI;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;

/**
 * Remote mode of the command line: the command acts through serve's API ({@code --server URL}) with a person's or a
 * script's access token ({@code --token-env VAR}, {@code --token-command CMD}, else the device grant), and opens no
 * connection to Redis or MySQL. Checks the options together before anything runs, and refuses the commands that need
 * the stores themselves, saying why.
 */
final class RemoteMode {
    /** The commands that work on the stores themselves, never through serve. */
    static final Set<String> STORE_ONLY = Set.of("migrate", "serve", "follower", "sweep", "import", "install", "api-client", "traffic");

    private final GlobalOptions g;

    RemoteMode(GlobalOptions g) {
        this.g = g;
    }

    /** @return true when the command line works through serve */
    boolean on() {
        return g.server != null;
    }

    /** @return serve's API base URL; null in local mode */
    URI server() {
        return g.server;
    }

    /**
     * Checks the remote options of a run before its command starts: the token options need a server and only one of them
     * may be given; a server excludes the options of the stores; a command that needs the stores refuses a server.
     *
     * @param command the subcommand's name as typed first, e.g. "show", "api-client"; null for the console
     * @throws IllegalArgumentException in words, for a usage error (nothing was asked of any server)
     */
    void check(String command) {
        if (g.tokenEnv != null && g.tokenCommand != null) {
            throw new IllegalArgumentException(Messages.get("cli.remote.twoTokens"));
        }
        if (!on()) {
            if (g.tokenEnv != null || g.tokenCommand != null) {
                throw new IllegalArgumentException(Messages.format("cli.remote.tokenWithoutServer",
                        g.tokenEnv != null ? "--token-env" : "--token-command")); // i18n-ok: option names
            }
            return;
        }
        if (command != null && STORE_ONLY.contains(command)) {
            throw new IllegalArgumentException(Messages.format("cli.remote.storeOnly." + command));
        }
        if (g.profileName != null) {
            throw new IllegalArgumentException(Messages.format("cli.remote.withProfile", g.profileName));
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
            new EnvToken(g.tokenEnv).check();
        }
        if (g.tokenCommand != null && g.tokenCommand.isBlank()) {
            throw new IllegalArgumentException(Messages.get("remote.token.command.blank"));
        }
    }

    private static void add(List<String> given, boolean present, String option) {
        if (present) {
            given.add(option);
        }
    }

    /**
     * @param err where a token command's messages are passed on
     * @return where this run's access token comes from
     * @throws IllegalStateException when no token option is given (the device grant is the person's sign-in)
     */
    AccessTokens tokens(PrintStream err) {
        if (g.tokenEnv != null) {
            return new EnvToken(g.tokenEnv);
        }
        if (g.tokenCommand != null) {
            return new TokenCommand(g.tokenCommand, err);
        }
        throw new IllegalStateException("the device grant is not available yet"); // i18n-ok: replaced by the sign-in
    }
}
