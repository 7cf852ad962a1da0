package com.orderconsole.app;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.Map;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A run with {@code HOME} set elsewhere keeps everything there, as every Unix program does: the fresh-user tester ran with
 * {@code HOME=/tmp/…} and found the configuration there but the embedded servers' data and the logs under /root, because
 * the JVM's {@code user.home} comes from the account database and ignores {@code $HOME}.
 */
class HomeDirectoryTest {
    @Test
    void homeIsTheEnvironmentsWhenSetElseTheJvms() {
        assertThat(ConfigDir.home(Map.of("HOME", "/tmp/ana")::get, "/root")).isEqualTo("/tmp/ana");
        assertThat(ConfigDir.home(Map.<String, String>of()::get, "/root")).isEqualTo("/root");
        assertThat(ConfigDir.home(Map.of("HOME", " ")::get, "/root")).as("a blank HOME counts as unset").isEqualTo("/root");
        assertThat(EngineConfig.defaultDataDir(Map.of("XDG_DATA_HOME", "/x/data")::get, "/tmp/ana"))
                .isEqualTo(Path.of("/x/data/order-console"));
        assertThat(EngineConfig.defaultDataDir(Map.<String, String>of()::get, "/tmp/ana"))
                .isEqualTo(Path.of("/tmp/ana/.local/share/order-console"));
    }

    @Test
    void aProcessRunWithAnotherHomeShowsItsDataDirectoryThere(@TempDir Path home) throws Exception {
        ProcessBuilder pb = new ProcessBuilder(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "-cp", System.getProperty("java.class.path"), "com.orderconsole.Launcher", "stats", "--help");
        pb.environment().put("HOME", home.toString());
        pb.environment().remove("XDG_DATA_HOME");
        pb.environment().remove("XDG_CONFIG_HOME");
        Process p = pb.redirectErrorStream(true).start();
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertThat(p.waitFor(60, TimeUnit.SECONDS)).isTrue();
        // picocli wraps a long default across lines: compare without the line breaks and indentation.
        assertThat(out.replaceAll("\\s+", "")).as(out).contains(home.resolve(".local/share/order-console").toString());
    }
}
