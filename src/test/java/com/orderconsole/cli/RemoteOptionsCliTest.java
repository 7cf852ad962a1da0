package com.orderconsole.cli;

import com.orderconsole.app.Messages;
import com.orderconsole.cli.CliRunner.Run;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

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
            "--token-env T --token-command x --server https://orders.example.com show --id o-1 | give either --token-env or --token-command, not both",
            "--token-env T show --id o-1                            | --token-env names the access token sent to serve: give --server URL with it",
            "--token-command 'echo t' stats                         | --token-command names the access token sent to serve: give --server URL with it",
            "--server https://orders.example.com --profile prod show --id o-1 | --server and --profile prod both say where to work: give one of them",
            "--server https://orders.example.com --redis redis://127.0.0.1:1 --db-user bob show --id o-1 | --server works through serve, which alone reaches the stores: leave out --redis, --db-user",
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
