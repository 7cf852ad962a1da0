package com.orderconsole.cli;

import com.orderconsole.api.ApiHarness;
import com.orderconsole.domain.Role;
import org.junit.jupiter.api.Test;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

class RemoteCliProbeTest {
    @Test
    void probe() throws Exception {
        StringBuilder log = new StringBuilder();
        try (ApiHarness serve = ApiHarness.fresh()) {
            String token = serve.client("cli-remote", Role.ADMIN);
            String[][] cmds = {
                    {"create", "--id", "p-1"},
                    {"transition", "--id", "p-1", "--to", "PAID", "--reason", "paid"},
                    {"show", "--id", "p-1"},
                    {"show", "--id", "p-1", "--story"},
                    {"stats"},
                    {"queue", "show"},
                    {"audit", "--limit", "5"},
                    {"dead-letters"},
                    {"rules", "show"},
                    {"reconcile"},
                    {"bulk", "--list"},
                    {"show", "--id", "nope-1"},
                    {"transition", "--id", "p-1", "--to", "WAIT_PAY"},
            };
            for (String[] c : cmds) {
                CliRunner.Run l = CliRunner.cli(c);
                CliRunner.Run r = remote(serve, token, c);
                log.append("=== ").append(String.join(" ", c)).append("\n--- local ").append(l.code()).append("\n").append(l.out())
                        .append(l.err()).append("--- remote ").append(r.code()).append("\n").append(r.out()).append(r.err());
            }
        }
        java.nio.file.Files.writeString(java.nio.file.Path.of("/tmp/cli-remote/probe.txt"), log);
    }

    static CliRunner.Run remote(ApiHarness serve, String token, String... args) {
        List<String> all = new ArrayList<>(List.of("--server", serve.base(), "--token-env", "ORDER_CONSOLE_TOKEN"));
        all.addAll(List.of(args));
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        int code = OrderCli.runWithEnvironment(all.toArray(String[]::new), new PrintStream(out, true, StandardCharsets.UTF_8),
                new PrintStream(err, true, StandardCharsets.UTF_8), Map.of("ORDER_CONSOLE_TOKEN", token)::get);
        return new CliRunner.Run(code, out.toString(StandardCharsets.UTF_8), err.toString(StandardCharsets.UTF_8));
    }
}
