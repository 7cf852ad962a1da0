package com.orderconsole.cli;

import com.orderconsole.Slow;
import com.orderconsole.TestServers;
import com.orderconsole.cli.CliRunner.Run;
import org.junit.jupiter.api.Test;

import java.nio.file.Path;

import static com.orderconsole.cli.CliRunner.raw;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * A command given no server options starts its own embedded servers in the data directory, and the next command finds
 * the data there. Starts and stops a Redis and a MariaDB of its own per command: {@link Slow}, as EmbeddedDefaultTest
 * (it was the slowest test of OrderCliTest).
 */
@Slow
class EmbeddedServersCliTest {
    @Test
    void withoutServerOptionsItRunsEmbeddedServersInTheDataDirectory() {
        Path dataDir = Path.of("target", "cli-embedded").toAbsolutePath();
        TestServers.deleteTree(dataDir.resolve("redis"));
        TestServers.deleteTree(dataDir.resolve("mariadb").resolve("data"));
        Run created = raw("create", "--id", "e-1", "--data-dir", dataDir.toString(), "--json");
        assertThat(created.code()).as(created.err()).isZero();
        Run shown = raw("show", "--id", "e-1", "--data-dir", dataDir.toString(), "--json");
        assertThat(shown.code()).as("the data survives between runs: " + shown.err()).isZero();
        assertThat(shown.json().get("summary").get("mysqlStatus").asText()).isEqualTo("WAIT_PAY");
        TestServers.deleteTree(dataDir.resolve("redis"));
        TestServers.deleteTree(dataDir.resolve("mariadb").resolve("data"));
    }
}
