package com.orderconsole.cli;

import com.orderconsole.FreshEngine;
import com.orderconsole.TestServers;
import com.orderconsole.app.EngineConfig;
import com.orderconsole.app.Profiles;
import com.orderconsole.domain.Operator;
import com.orderconsole.domain.Role;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;

import static org.assertj.core.api.Assertions.assertThat;

/** {@code --profile NAME}: the servers of a profile file, and usage errors in words for a bad or missing one. */
class ProfileOptionTest {
    @org.junit.jupiter.api.BeforeEach
    void inEnglish() {
        com.orderconsole.app.Messages.use(java.util.Locale.ENGLISH);
    }

    @RegisterExtension
    final FreshEngine engine = new FreshEngine();
    @TempDir
    Path dir;

    record Run(int code, String out, String err) {
    }

    @BeforeEach
    void profilesHere() {
        System.setProperty(Profiles.DIR_PROPERTY, dir.toString());
    }

    @AfterEach
    void profilesBack() {
        System.clearProperty(Profiles.DIR_PROPERTY);
    }

    private static Run cli(String... args) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        int code = OrderCli.runOnLocalServers(args, new PrintStream(out, true, StandardCharsets.UTF_8),
                new PrintStream(err, true, StandardCharsets.UTF_8));
        return new Run(code, out.toString(StandardCharsets.UTF_8), err.toString(StandardCharsets.UTF_8));
    }

    @Test
    void aProfileNamesTheServers() throws IOException {
        EngineConfig c = TestServers.config();
        Files.writeString(dir.resolve("test.properties"), "kind = staging\nredis = " + c.redisUri() + "\njdbc = " + c.jdbcUrl()
                + "\ndb-user = root\n");
        engine.services().orders().create(new Operator("setup", Role.SUPPORT), "pf-1", null, Duration.ofMinutes(30));
        Run r = cli("show", "--id", "pf-1", "--profile", "test", "--json");
        assertThat(r.code()).as(r.err()).isZero();
        assertThat(r.out()).contains("\"pf-1\"").contains("WAIT_PAY");
    }

    @Test
    void aBadProfileIsAUsageErrorNamingFileLineAndField() throws IOException {
        Files.writeString(dir.resolve("prod.properties"), "redis = redis://r:6379\njdbc = jdbc:mysql://m/o\nkind = prod\n");
        Run r = cli("stats", "--profile", "prod");
        assertThat(r.code()).isEqualTo(ExitCode.USAGE.code());
        assertThat(r.err()).contains("prod.properties line 3, field 'kind': unknown environment kind 'prod'");

        Files.writeString(dir.resolve("leak.properties"), "kind = dev\nredis = redis://r:6379\njdbc = jdbc:mysql://m/o\npassword = x\n");
        r = cli("stats", "--profile", "leak", "--json");
        assertThat(r.code()).isEqualTo(ExitCode.USAGE.code());
        assertThat(r.out()).contains("leak.properties line 4, field 'password': a profile never holds a password");
    }

    @Test
    void theConsoleOnARemoteProfileOpensOnServeAndStartsNoEngine() throws IOException {
        Files.writeString(dir.resolve("desk.properties"), "kind = staging\nserver = http://127.0.0.1:7999\n"
                + "token-command = echo not-a-real-token\n");
        java.util.List<com.orderconsole.app.ConsoleStart> opened = new java.util.ArrayList<>();
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        int code = OrderCli.runConsole(new String[]{"--profile", "desk"}, new PrintStream(new ByteArrayOutputStream(), true,
                StandardCharsets.UTF_8), new PrintStream(err, true, StandardCharsets.UTF_8), opened::add);
        assertThat(code).as(err.toString(StandardCharsets.UTF_8)).isZero();
        assertThat(opened).singleElement().satisfies(start -> {
            assertThat(start.remote()).as("the remote profile is handed to the console").isNotNull();
            assertThat(start.remote().name()).isEqualTo("desk");
            assertThat(start.operator()).as("nobody signed in to a store").isNull();
        });

        // --server is the commands' way to serve; the console refuses it in words.
        err.reset();
        code = OrderCli.runConsole(new String[]{"--server", "http://127.0.0.1:7999", "--token-command", "echo x"},
                new PrintStream(new ByteArrayOutputStream(), true, StandardCharsets.UTF_8),
                new PrintStream(err, true, StandardCharsets.UTF_8), opened::add);
        assertThat(code).isEqualTo(ExitCode.USAGE.code());
        assertThat(err.toString(StandardCharsets.UTF_8)).contains("the console works through serve with a remote profile");
    }

    @Test
    void aMissingProfileOrOneBesideServerOptionsIsRefused() {
        Run r = cli("stats", "--profile", "nope");
        assertThat(r.code()).isEqualTo(ExitCode.USAGE.code());
        assertThat(r.err()).contains("no profile 'nope'").contains("profiles there: none");
        r = cli("stats", "--profile", "nope", "--redis", "redis://127.0.0.1:1");
        assertThat(r.code()).isEqualTo(ExitCode.USAGE.code());
        assertThat(r.err()).contains("--profile nope names the servers already: leave out --redis, --jdbc and --data-dir");
    }
}
