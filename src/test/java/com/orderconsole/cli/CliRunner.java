package com.orderconsole.cli;

import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.orderconsole.TestServers;
import com.orderconsole.app.EngineConfig;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;

/**
 * Runs the CLI in this JVM, as the CLI tests do: arguments in, exit code and stdout/stderr out. The test
 * servers are this process's own, so nobody signs in (see identity/ for sign-in).
 */
final class CliRunner {
    private static final ObjectMapper JSON = new ObjectMapper().enable(DeserializationFeature.FAIL_ON_TRAILING_TOKENS);

    private CliRunner() {
    }

    /** One run: its exit code and what it printed. */
    record Run(int code, String out, String err) {
        /** @return stdout as the one JSON document it must be */
        JsonNode json() {
            try {
                return JSON.readTree(out);
            } catch (Exception e) {
                throw new AssertionError("stdout is not one JSON document: " + out, e);
            }
        }
    }

    /** Runs a command line against the test servers ({@code --redis}, {@code --jdbc} and {@code --db-user} added first). */
    static Run cli(String... args) {
        EngineConfig c = TestServers.config();
        List<String> all = new ArrayList<>(List.of("--redis", c.redisUri(), "--jdbc", c.jdbcUrl(), "--db-user", "root"));
        all.addAll(List.of(args));
        return raw(all.toArray(String[]::new));
    }

    /** Runs exactly this command line (no servers added). */
    static Run raw(String... args) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        int code = OrderCli.runOnLocalServers(args, new PrintStream(out, true, StandardCharsets.UTF_8),
                new PrintStream(err, true, StandardCharsets.UTF_8));
        return new Run(code, out.toString(StandardCharsets.UTF_8), err.toString(StandardCharsets.UTF_8));
    }
}
