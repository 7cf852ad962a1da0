package com.orderconsole.cli;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The launcher 'install' writes starts a one-shot command with the quick compiler, the serial collector and the
 * class-data archive, and the console and the long-running commands with the JVM's defaults (and the archive).
 */
class LauncherScriptTest {
    @Test
    void aOneShotCommandGetsTheQuickJvmAndTheArchiveTheConsoleAndServeDoNot(@TempDir Path dir) throws Exception {
        Path java = dir.resolve("fake java");
        Files.writeString(java, "#!/bin/sh\nfor a in \"$@\"; do echo \"$a\"; done\n");
        assertThat(java.toFile().setExecutable(true)).isTrue();
        Path archive = dir.resolve("lib dir/order-console.jsa");
        Files.createDirectories(archive.getParent());
        Files.writeString(archive, "");
        Path launcher = dir.resolve("order-console");
        Files.writeString(launcher, InstallCommand.launcherScript(java.toString(), "-jar " + InstallCommand.quote("/opt/o c.jar"), archive));

        List<String> show = run(launcher, "--profile", "prod-eu", "show", "--id", "A 1");
        assertThat(show).contains("-XX:TieredStopAtLevel=1", "-XX:+UseSerialGC", "-XX:SharedArchiveFile=" + archive)
                .endsWith("-jar", "/opt/o c.jar", "--profile", "prod-eu", "show", "--id", "A 1");
        assertThat(run(launcher, "--version")).contains("-XX:TieredStopAtLevel=1");

        for (List<String> args : List.<List<String>>of(List.of("serve", "--metrics-port", "9464"), List.of(),
                List.of("--profile", "dev"), List.of("bulk", "--reason", "show"))) {
            List<String> got = run(launcher, args.toArray(String[]::new));
            assertThat(got).as("%s", args).doesNotContain("-XX:TieredStopAtLevel=1", "-XX:+UseSerialGC")
                    .contains("-XX:SharedArchiveFile=" + archive);
        }

        Files.delete(archive);
        assertThat(run(launcher, "show", "--id", "A-1")).contains("-XX:TieredStopAtLevel=1")
                .noneMatch(a -> a.startsWith("-XX:SharedArchiveFile"));
        assertThat(InstallCommand.launcherScript(java.toString(), "-jar x.jar", null)).doesNotContain("SharedArchiveFile");
    }

    private static List<String> run(Path launcher, String... args) throws IOException, InterruptedException {
        List<String> command = new ArrayList<>(List.of("sh", launcher.toString()));
        command.addAll(List.of(args));
        Process p = new ProcessBuilder(command).redirectErrorStream(true).start();
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertThat(p.waitFor(30, TimeUnit.SECONDS)).isTrue();
        return out.isEmpty() ? List.of() : List.of(out.split("\n"));
    }
}
