package com.orderconsole.cli;

import com.fasterxml.jackson.databind.JsonNode;
import com.orderconsole.Slow;
import com.orderconsole.api.ApiHarness;
import com.orderconsole.app.Messages;
import com.orderconsole.domain.Role;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The command line through serve ({@code --server URL --token-env VAR}, an API client's token) against the same command
 * run on the stores, on the same data: the same stdout, --json document and exit code; serve down or the token refused in
 * words with exit 1; and a run through serve loads no store client at all.
 */
@Slow
class RemoteCliTest {
    private static final String VAR = "ORDER_CONSOLE_TOKEN";
    private static ApiHarness serve;
    private static String token;
    private static final StringBuilder LOG = new StringBuilder();

    @BeforeAll
    static void start() {
        serve = ApiHarness.fresh();
        token = serve.client("cli-remote", Role.OPS);
        CliRunner.cli("create", "--id", "same-1");
        CliRunner.cli("transition", "--id", "same-1", "--to", "PAID", "--reason", "paid at the till");
        CliRunner.cli("create", "--id", "same-2", "--customer", "c-9");
    }

    @AfterAll
    static void stop() throws Exception {
        serve.close();
        Files.createDirectories(Path.of("target"));
        Files.writeString(Path.of("target/remote-cli-runs.txt"), LOG);
    }

    @BeforeEach
    void english() {
        Messages.use(Locale.ENGLISH);
    }

    static CliRunner.Run remote(String... args) {
        return remoteWith(token, serve.base(), args);
    }

    static CliRunner.Run remoteWith(String tokenValue, String base, String... args) {
        List<String> all = new ArrayList<>(List.of("--server", base, "--token-env", VAR));
        all.addAll(List.of(args));
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        int code = OrderCli.runWithEnvironment(all.toArray(String[]::new), new PrintStream(out, true, StandardCharsets.UTF_8),
                new PrintStream(err, true, StandardCharsets.UTF_8), Map.of(VAR, tokenValue)::get);
        CliRunner.Run r = new CliRunner.Run(code, out.toString(StandardCharsets.UTF_8), err.toString(StandardCharsets.UTF_8));
        LOG.append("=== remote ").append(String.join(" ", args)).append(" -> ").append(code).append('\n').append(r.out()).append(r.err());
        return r;
    }

    static CliRunner.Run local(String... args) {
        CliRunner.Run r = CliRunner.cli(args);
        LOG.append("=== local ").append(String.join(" ", args)).append(" -> ").append(r.code()).append('\n').append(r.out()).append(r.err());
        return r;
    }

    /** Runs the command both ways and compares stdout and exit code, in text and with --json. */
    private static void same(String... args) {
        CliRunner.Run l = local(args);
        CliRunner.Run r = remote(args);
        assertThat(r.code()).as("exit of %s; remote stderr: %s", String.join(" ", args), r.err()).isEqualTo(l.code());
        assertThat(r.out()).as("stdout of %s", String.join(" ", args)).isEqualTo(l.out());
        List<String> json = new ArrayList<>(List.of(args));
        json.add("--json");
        CliRunner.Run lj = local(json.toArray(String[]::new));
        CliRunner.Run rj = remote(json.toArray(String[]::new));
        assertThat(rj.code()).as("exit of %s --json", String.join(" ", args)).isEqualTo(lj.code());
        assertThat(withoutEventKeys(rj.json())).as("--json of %s", String.join(" ", args)).isEqualTo(withoutEventKeys(lj.json()));
    }

    @Test
    void anOrderReadsTheSame() {
        same("show", "--id", "same-1");
        same("show", "--id", "same-2");
        same("show", "--id", "same-1", "--story");
    }

    @Test
    void theRulesReadTheSame() {
        same("rules", "show");
    }

    @Test
    void anUnknownOrderIsNotFoundBothWays() {
        same("show", "--id", "nobody-1");
        CliRunner.Run r = remote("show", "--id", "nobody-1", "--json");
        assertThat(r.json().at("/error/kind").asText()).isEqualTo("not_found");
    }

    @Test
    void aRejectedMoveExitsThreeBothWays() {
        CliRunner.Run l = local("transition", "--id", "same-2", "--to", "FINISHED", "--json");
        CliRunner.Run r = remote("transition", "--id", "same-2", "--to", "FINISHED", "--json");
        assertThat(r.code()).as(r.err()).isEqualTo(l.code()).isEqualTo(ExitCode.REJECTED.code());
        assertThat(fieldsOf(r.json())).isEqualTo(fieldsOf(l.json()));
        assertThat(r.json().get("code")).isEqualTo(l.json().get("code"));
    }

    @Test
    void createAndMoveGiveTheSameDocuments() {
        CliRunner.Run lc = local("create", "--id", "mv-local", "--json");
        CliRunner.Run rc = remote("create", "--id", "mv-remote", "--json");
        assertThat(rc.code()).as(rc.err()).isEqualTo(lc.code()).isZero();
        assertThat(fieldsOf(rc.json())).isEqualTo(fieldsOf(lc.json()));
        assertThat(rc.json().get("status")).isEqualTo(lc.json().get("status"));

        CliRunner.Run lt = local("transition", "--id", "mv-local", "--to", "PAID", "--reason", "paid", "--json");
        CliRunner.Run rt = remote("transition", "--id", "mv-remote", "--to", "PAID", "--reason", "paid", "--json");
        assertThat(rt.code()).as(rt.err()).isEqualTo(lt.code()).isZero();
        assertThat(fieldsOf(rt.json())).isEqualTo(fieldsOf(lt.json()));
        for (String f : List.of("applied", "code", "result", "from", "to", "version", "mysqlSynced")) {
            assertThat(rt.json().get(f)).as(f).isEqualTo(lt.json().get(f));
        }
        CliRunner.Run shown = remote("show", "--id", "mv-remote");
        assertThat(shown.out()).contains("api:cli-remote");
    }

    @Test
    void theOtherReadsAnswerThroughServe() {
        for (String[] c : List.of(new String[]{"stats"}, new String[]{"queue", "show"}, new String[]{"audit", "--limit", "5"},
                new String[]{"dead-letters"}, new String[]{"reconcile"}, new String[]{"bulk", "--list"})) {
            CliRunner.Run l = local(c);
            CliRunner.Run r = remote(c);
            assertThat(r.code()).as("%s: %s", String.join(" ", c), r.err()).isEqualTo(l.code());
        }
    }

    /**
     * The guarded and changing commands act through serve under the token's name: the sweepers pause and resume on serve,
     * a queue entry removed on purpose leaves serve's queue, and serve's production guard is met by the
     * command's --yes=COUNT (serve named without a profile counts as production).
     */
    @Test
    void theChangingCommandsActThroughServe() {
        com.orderconsole.app.Services onServe = serve.engine.services();
        CliRunner.Run r = remote("queue", "pause", "--reason", "maintenance window", "--yes=1");
        assertThat(r.code()).as(r.err()).isZero();
        assertThat(onServe.sweeper().status().paused()).as("paused on serve").isTrue();
        r = remote("queue", "resume", "--reason", "maintenance over", "--yes=1");
        assertThat(r.code()).as(r.err()).isZero();
        assertThat(onServe.sweeper().status().paused()).as("resumed on serve").isFalse();

        local("create", "--id", "rm-1");
        assertThat(onServe.queue().find("rm-1")).isPresent();
        r = remote("queue", "remove", "--id", "rm-1", "--reason", "paid by bank transfer", "--yes=1");
        assertThat(r.code()).as(r.err()).isZero();
        assertThat(onServe.queue().find("rm-1")).as("removed from serve's queue").isEmpty();

        assertThat(onServe.orders().lookup("rm-1").queueRemoval()).as("recorded as a removal on purpose, in the token's name")
                .satisfies(q -> {
                    assertThat(q.actor()).isEqualTo("api:cli-remote");
                    assertThat(q.reason()).isEqualTo("paid by bank transfer");
                });
    }

    @Test
    void serveDownIsSaidInWordsWithExitOne() {
        CliRunner.Run r = remoteWith(token, "http://127.0.0.1:9", "show", "--id", "same-1", "--json");
        assertThat(r.code()).isEqualTo(ExitCode.FAILED.code());
        assertThat(r.json().at("/error/kind").asText()).isEqualTo("unavailable");
        assertThat(r.err()).contains("serve at http://127.0.0.1:9").doesNotContain("Exception").doesNotContain(token);
    }

    @Test
    void aRefusedTokenIsSaidInWordsWithExitOne() {
        CliRunner.Run r = remoteWith("oc_not-a-real-token", serve.base(), "show", "--id", "same-1", "--json");
        assertThat(r.code()).isEqualTo(ExitCode.FAILED.code());
        assertThat(r.json().at("/error/kind").asText()).isEqualTo("unauthorized");
        assertThat(r.err()).contains("serve refused the access token in ORDER_CONSOLE_TOKEN (expired, revoked or not for this "
                + "serve): put a new one in it and run the command again").doesNotContain("oc_not-a-real-token").doesNotContain("Exception");
    }

    /**
     * A run through serve in its own JVM: the JVM's class-loading log names no Redis or MySQL client class, no connection
     * pool and none of the product's store classes (redis/, store/), so no connection to either can have been opened.
     */
    @Test
    void aRunThroughServeLoadsNoStoreClient() throws Exception {
        Path log = Files.createTempFile("remote-cli", ".log");
        ProcessBuilder pb = new ProcessBuilder(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "-verbose:class", "-Duser.language=en", "-cp", System.getProperty("java.class.path"),
                "com.orderconsole.Launcher", "--server", serve.base(), "--token-env", VAR, "show", "--id", "same-1", "--json")
                .redirectErrorStream(true).redirectOutput(log.toFile());
        pb.environment().put(VAR, token);
        Process p = pb.start();
        assertThat(p.waitFor(120, TimeUnit.SECONDS)).isTrue();
        String out = Files.readString(log);
        LOG.append("=== child JVM exit ").append(p.exitValue()).append('\n');
        assertThat(p.exitValue()).as(out.lines().filter(l -> !l.startsWith("[")).toList().toString()).isZero();
        assertThat(out).contains("\"orderId\" : \"same-1\"");
        assertThat(out.lines().filter(l -> l.contains("io.lettuce.") || l.contains("org.mariadb.") || l.contains("com.mysql.")
                || l.contains("org.apache.ibatis.") || l.contains("com.zaxxer.hikari")
                || l.contains("com.orderconsole.redis.") || l.contains("com.orderconsole.store.")).toList())
                .as("store clients loaded by a run through serve").isEmpty();
    }

    /** serve's order document does not carry the history rows' eventKey yet, and a story says when it was read: both left out. */
    private static JsonNode withoutEventKeys(JsonNode doc) {
        JsonNode copy = doc.deepCopy();
        copy.findParents("eventKey").forEach(n -> ((com.fasterxml.jackson.databind.node.ObjectNode) n).remove("eventKey"));
        if (copy.isObject()) {
            ((com.fasterxml.jackson.databind.node.ObjectNode) copy).remove(List.of("readAtMs", "readAt")); // when it was read
        }
        return copy;
    }

    private static List<String> fieldsOf(JsonNode doc) {
        List<String> names = new ArrayList<>();
        doc.fieldNames().forEachRemaining(names::add);
        return names;
    }
}
