package com.orderconsole.cli;

import com.orderconsole.app.Messages;
import com.orderconsole.cli.CliRunner.Run;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

import com.orderconsole.app.Profiles;
import org.junit.jupiter.api.io.TempDir;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Locale;

import static com.orderconsole.cli.CliRunner.raw;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * The remote options are checked together before anything runs: a bad serve URL, a token option without a server or
 * beside another, an unset token variable, store options beside --server, and the commands that need the stores
 * themselves are usage errors (exit 2) in words. None of these runs reaches any server (serve's address here is a closed
 * port, the stores are never named).
 */
class RemoteOptionsCliTest {
    /** A loopback port nothing listens on: a run that tried to reach it would fail with exit 1, not 2. */
    private static final String SERVER = "http://127.0.0.1:9";

    @BeforeEach
    void english() {
        Messages.use(Locale.ENGLISH);
    }

    @ParameterizedTest(name = "{0}")
    @CsvSource(delimiter = '|', value = {
            "--server ftp://orders.example.com show --id o-1        | 'ftp://orders.example.com' is not a usable serve URL: write an absolute URL such as https://orders.example.com",
            "--server orders.example.com show --id o-1              | 'orders.example.com' is not a usable serve URL: write an absolute URL",
            "--server http://orders.example.com show --id o-1       | plain http would send your token readable over the network; use https (http only for 127.0.0.1 or localhost)",
            "--server https://orders.example.com/?x=1 show --id o-1 | a query or a fragment (after ? or #) does not belong in it",
            "--token-env T --token-command x --server https://orders.example.com show --id o-1 | --token-env, --token-command each say where the access token comes from: give one of them",
            "--token-env T --issuer https://login.example.com --client-id cli --server https://orders.example.com stats | --token-env, --issuer each say where the access token comes from",
            "--server https://orders.example.com --issuer https://login.example.com stats | --issuer signs you in with a code: give --client-id ID with it",
            "--server https://orders.example.com --client-id cli stats | --client-id names the command line's client at the identity provider: give --issuer URL with it",
            "--server https://orders.example.com --issuer http://login.example.com --client-id cli stats | 'http://login.example.com' is not a usable issuer URL: plain http",
            "--server https://orders.example.com stats | --server needs an access token: --token-env VAR or --token-command CMD for scripts, or --issuer URL with --client-id ID to sign in with a code",
            "--issuer https://login.example.com --client-id cli stats | --issuer names the access token sent to serve: give --server URL with it",
            "--token-env T show --id o-1                            | --token-env names the access token sent to serve: give --server URL with it",
            "--token-command 'echo t' stats                         | --token-command names the access token sent to serve: give --server URL with it",
            "--server https://orders.example.com --profile prod show --id o-1 | --server and --profile prod both say where to work: give one of them",
            "--server https://orders.example.com --redis redis://127.0.0.1:1 --db-user bob show --id o-1 | a run through serve (--server, or a profile naming server) reaches no store, serve alone does: leave out --redis, --db-user",
            "--server https://orders.example.com --data-dir /tmp/x stats | leave out --data-dir",
            "--server https://orders.example.com --role support stats   | --role lowers the role on the stores; through serve your role is the one serve gives your token",
            "--server https://orders.example.com --token-env ORDER_CONSOLE_TEST_UNSET_VARIABLE stats | the environment variable ORDER_CONSOLE_TEST_UNSET_VARIABLE is not set: put the access token in it",
            "--server https://orders.example.com --token-command ' ' stats | the token command is empty: name a program that prints an access token",
    })
    void badRemoteOptionsAreUsageErrorsInWords(String args, String words) {
        Run r = raw(split(args));
        assertThat(r.code()).as(r.err()).isEqualTo(ExitCode.USAGE.code());
        assertThat(r.err()).contains(words).doesNotContain("Exception").doesNotContain("\tat ");
        assertThat(r.out()).isEmpty();
    }

    @Test
    void anAccountInTheUrlIsRefusedAndNeverShown() {
        Run r = raw("--server", "https://alice:hunter2@orders.example.com", "stats");
        assertThat(r.code()).isEqualTo(ExitCode.USAGE.code());
        assertThat(r.err()).contains("'https://***@orders.example.com' is not a usable serve URL: it carries an account or password; "
                + "people sign in instead").doesNotContain("hunter2").doesNotContain("alice");
    }

    @ParameterizedTest(name = "{0}")
    @CsvSource(delimiter = '|', value = {
            "migrate                 | migrate changes MySQL's schema with an administrator's database account and does not work through serve",
            "serve                   | serve is the server --server points at: it runs beside the stores, without --server",
            "follower                | serve runs its own follower, so there is nothing to run through it",
            "sweep --once            | serve runs its own sweeper (pause or resume it with queue pause and queue resume)",
            "import --csv orders.csv | serve's API offers no import: run it where the stores are, without --server",
            "install                 | it reaches no server and takes no --server",
            "api-client list         | api-client manages serve's API clients with an administrator's account on MySQL",
            "traffic                 | traffic simulates orders on the stores themselves to try a set-up; it never runs against serve",
    })
    void commandsOfTheStoresRefuseAServerSayingWhy(String command, String words) {
        String[] args = ("--server " + SERVER + " --token-env PATH " + command).split(" +");
        Run r = raw(args);
        assertThat(r.code()).as(r.err()).isEqualTo(ExitCode.USAGE.code());
        assertThat(r.err()).contains(words).contains("--help' for usage").doesNotContain("Exception");

        Run json = raw(append(args, "--json"));
        assertThat(json.code()).isEqualTo(ExitCode.USAGE.code());
        assertThat(json.json().at("/error/kind").asText()).isEqualTo("usage");
        assertThat(json.json().at("/error/message").asText()).contains(words);
        assertThat(json.json().at("/exit").asInt()).isEqualTo(2);
    }

    @Test
    void aRemoteProfileIsRemoteModeToo(@TempDir Path dir) throws Exception {
        Files.writeString(dir.resolve("prod-remote.properties"), """
                kind = production
                server = https://orders.example.com
                token-command = echo a-token
                """, StandardCharsets.UTF_8);
        System.setProperty(Profiles.DIR_PROPERTY, dir.toString());
        try {
            Run migrate = raw("--profile", "prod-remote", "migrate");
            assertThat(migrate.code()).isEqualTo(ExitCode.USAGE.code());
            assertThat(migrate.err()).contains("migrate changes MySQL's schema with an administrator's database account and does "
                    + "not work through serve");

            Run stores = raw("--profile", "prod-remote", "--db-user", "bob", "stats");
            assertThat(stores.code()).isEqualTo(ExitCode.USAGE.code());
            assertThat(stores.err()).contains("a run through serve (--server, or a profile naming server) reaches no store, serve alone does: leave out --db-user");

            Run both = raw("--profile", "prod-remote", "--server", "https://other.example.com", "stats");
            assertThat(both.code()).isEqualTo(ExitCode.USAGE.code());
            assertThat(both.err()).contains("--server and --profile prod-remote both say where to work: give one of them");
        } finally {
            System.clearProperty(Profiles.DIR_PROPERTY);
        }
    }

    @Test
    void helpIsAnsweredWhateverTheRemoteOptionsSay() {
        Run r = raw("--server", SERVER, "migrate", "--help");
        assertThat(r.code()).isZero();
        assertThat(r.out()).contains("--server=URL").contains("--token-env=VAR").contains("--token-command=CMD");
    }

    /** Splits on blanks, keeping a single-quoted part whole. */
    private static String[] split(String args) {
        java.util.List<String> parts = new java.util.ArrayList<>();
        java.util.regex.Matcher m = java.util.regex.Pattern.compile("'([^']*)'|(\\S+)").matcher(args.trim());
        while (m.find()) {
            parts.add(m.group(1) != null ? m.group(1) : m.group(2));
        }
        return parts.toArray(String[]::new);
    }

    private static String[] append(String[] args, String more) {
        String[] all = java.util.Arrays.copyOf(args, args.length + 1);
        all[args.length] = more;
        return all;
    }
}
