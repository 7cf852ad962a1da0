package com.orderconsole.cli;

import com.orderconsole.FreshEngine;
import com.orderconsole.TestServers;
import com.orderconsole.app.EngineConfig;
import com.orderconsole.app.Messages;
import com.orderconsole.app.Profiles;
import com.orderconsole.app.Services;
import com.orderconsole.domain.Operator;
import com.orderconsole.domain.OrderStatus;
import com.orderconsole.domain.Role;
import com.orderconsole.service.audit.AuditEvent;
import com.orderconsole.service.audit.AuditFilter;
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
import java.util.List;
import java.util.Locale;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.tuple;

/**
 * Issue 34: the queue actions that stop or remove work (pause and resume the sweepers, remove an entry, cancel from the
 * queue) in the command line; on production each takes a reason and {@code --yes=1}, and is audited with the reason.
 */
class QueueCliTest {
    @RegisterExtension
    final FreshEngine engine = new FreshEngine();
    @TempDir
    Path dir;
    private Services s;

    @BeforeEach
    void profiles() throws IOException {
        Messages.use(Locale.ENGLISH);
        System.setProperty(Profiles.DIR_PROPERTY, dir.toString());
        s = engine.services();
        EngineConfig c = TestServers.config();
        Files.writeString(dir.resolve("production.properties"), "kind = production\nredis = " + c.redisUri() + "\njdbc = "
                + c.jdbcUrl() + "\ndb-user = root\n");
    }

    @AfterEach
    void profilesBack() {
        System.clearProperty(Profiles.DIR_PROPERTY);
    }

    private static CliRunner.Run prod(String... args) {
        String[] all = java.util.stream.Stream.concat(java.util.Arrays.stream(args), java.util.stream.Stream.of("--profile", "production"))
                .toArray(String[]::new);
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        int code = OrderCli.runOnLocalServers(all, new PrintStream(out, true, StandardCharsets.UTF_8),
                new PrintStream(err, true, StandardCharsets.UTF_8));
        return new CliRunner.Run(code, out.toString(StandardCharsets.UTF_8), err.toString(StandardCharsets.UTF_8));
    }

    private List<AuditEvent> audit() {
        return s.audit().page(AuditFilter.all(), null, 20).rows();
    }

    @Test
    void pausingOnProductionNeedsAReasonAndTheCountAndIsAuditedWithTheReason() {
        CliRunner.Run noReason = prod("queue", "pause", "--yes=1");
        assertThat(noReason.code()).as(noReason.err()).isEqualTo(ExitCode.USAGE.code());
        assertThat(noReason.err()).contains("[production] production: this stops or removes work and needs a reason");
        assertThat(s.sweeper().status().paused()).isFalse();

        CliRunner.Run noCount = prod("queue", "pause", "--reason", "payment provider outage");
        assertThat(noCount.code()).as(noCount.err()).isEqualTo(ExitCode.NOT_CONFIRMED.code());
        assertThat(noCount.err()).contains("pause every cancel sweeper needs its count confirmed").contains("--yes=1");
        assertThat(s.sweeper().status().paused()).isFalse();

        CliRunner.Run twoLines = prod("queue", "pause", "--reason", "outage\nsee ticket", "--yes=1");
        assertThat(twoLines.code()).isEqualTo(ExitCode.USAGE.code());
        assertThat(twoLines.err()).contains("line break");
        assertThat(audit()).isEmpty();

        CliRunner.Run ok = prod("queue", "pause", "--reason", "payment provider outage", "--yes=1");
        assertThat(ok.code()).as(ok.err()).isZero();
        assertThat(s.sweeper().status().paused()).isTrue();

        CliRunner.Run resumed = prod("queue", "resume", "--reason", "provider back", "--yes=1");
        assertThat(resumed.code()).as(resumed.err()).isZero();
        assertThat(s.sweeper().status().paused()).isFalse();
        assertThat(audit()).extracting(AuditEvent::action, AuditEvent::source, AuditEvent::reason)
                .containsExactly(tuple("SWEEPER_RESUME", "cli", "provider back"), tuple("SWEEPER_PAUSE", "cli", "payment provider outage"));
    }

    @Test
    void removingAnEntryAndCancellingFromTheQueueOnProductionAreConfirmedAndKeepTheReason() {
        Operator ops = new Operator("setup", Role.OPS);
        s.orders().create(ops, "q-1", null, Duration.ofMinutes(30));
        s.orders().create(ops, "q-2", null, Duration.ofMinutes(30));

        CliRunner.Run refused = prod("queue", "remove", "--id", "q-1", "--reason", "paid by bank transfer");
        assertThat(refused.code()).as(refused.err()).isEqualTo(ExitCode.NOT_CONFIRMED.code());
        assertThat(s.queue().find("q-1")).isPresent();

        CliRunner.Run removed = prod("queue", "remove", "--id", "q-1", "--reason", "paid by bank transfer", "--yes=1", "--json");
        assertThat(removed.code()).as(removed.err()).isZero();
        assertThat(removed.json().get("removed").asBoolean()).isTrue();
        assertThat(s.queue().find("q-1")).isEmpty();
        assertThat(audit()).extracting(AuditEvent::action, AuditEvent::orderId, AuditEvent::reason)
                .contains(tuple("QUEUE_REMOVE", "q-1", "paid by bank transfer"));

        CliRunner.Run noReason = prod("queue", "cancel", "--id", "q-2", "--yes=1");
        assertThat(noReason.code()).isEqualTo(ExitCode.USAGE.code());
        assertThat(s.orders().lookup("q-2").summary().redisStatus()).isEqualTo(OrderStatus.WAIT_PAY);

        CliRunner.Run cancelled = prod("queue", "cancel", "--id", "q-2", "--reason", "customer asked by phone", "--yes=1");
        assertThat(cancelled.code()).as(cancelled.err()).isZero();
        assertThat(s.orders().lookup("q-2").summary().redisStatus()).isEqualTo(OrderStatus.CANCELLED);
        s.follower().catchUp(Duration.ofSeconds(10));
        assertThat(s.orders().lookup("q-2").history()).last().satisfies(h -> assertThat(h.reason()).isEqualTo("customer asked by phone"));

        CliRunner.Run again = prod("queue", "cancel", "--id", "q-2", "--reason", "twice", "--yes=1");
        assertThat(again.code()).as("no longer unpaid: rejected").isEqualTo(ExitCode.REJECTED.code());
    }

    @Test
    void locallyTheActionsNeedNeitherReasonNorCountAndShowTellsTheSweepersState() {
        CliRunner.Run paused = CliRunner.cli("queue", "pause");
        assertThat(paused.code()).as(paused.err()).isZero();
        CliRunner.Run shown = CliRunner.cli("queue", "show", "--json");
        assertThat(shown.code()).as(shown.err()).isZero();
        assertThat(shown.json().get("sweeper").get("paused").asBoolean()).isTrue();
        assertThat(shown.json().get("depth").asLong()).isZero();
    }
}
