package com.orderconsole.cli;

import com.orderconsole.FreshEngine;
import com.orderconsole.RawRedis;
import com.orderconsole.TestServers;
import com.orderconsole.app.Engine;
import com.orderconsole.app.EngineConfig;
import com.orderconsole.app.Messages;
import com.orderconsole.cli.CliRunner.Run;
import com.orderconsole.domain.Operator;
import com.orderconsole.domain.OrderStatus;
import com.orderconsole.domain.Role;
import com.orderconsole.domain.TransitionRequest;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import java.net.InetAddress;
import java.net.ServerSocket;
import java.time.Duration;
import java.util.Locale;

import static com.orderconsole.cli.CliRunner.raw;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** Servers named wrongly or down: the CLI and the console's start-up say what is wrong in words. */
class ServerProblemsCliTest {
    @RegisterExtension
    final FreshEngine engine = new FreshEngine();

    @BeforeEach
    void english() {
        Messages.use(Locale.ENGLISH);
    }

    private static Run withRedis(String redisUri, String... args) {
        String[] all = new String[args.length + 6];
        System.arraycopy(new String[]{"--redis", redisUri, "--jdbc", TestServers.config().jdbcUrl(), "--db-user", "root"}, 0, all, 0, 6);
        System.arraycopy(args, 0, all, 6, args.length);
        return raw(all);
    }

    @Test
    void aPortThatIsNotRedisIsNamedInWords() {
        int mysqlPort = TestServers.mariaDb().port();
        String words = "the server at 127.0.0.1:" + mysqlPort + " does not speak the Redis protocol";
        Run r = withRedis("redis://127.0.0.1:" + mysqlPort, "stats");
        assertThat(r.code()).isEqualTo(ExitCode.FAILED.code());
        assertThat(r.err()).contains(words).contains("right port").doesNotContain("Invalid first byte");

        // The console starts through the same engine start.
        EngineConfig console = TestServers.config().withServers("redis://127.0.0.1:" + mysqlPort, TestServers.config().jdbcUrl(), "root", "");
        assertThatThrownBy(() -> Engine.start(console)).hasMessageContaining(words).hasMessageNotContaining("Invalid first byte");
    }

    @Test
    void auditAnswersFromMySqlWhileRedisIsDown() throws Exception {
        Operator support = new Operator("audrey", Role.SUPPORT);
        engine.services().orders().create(support, "down-1", null, Duration.ofMinutes(30));
        engine.services().transitions().transition(support, TransitionRequest.of("down-1", OrderStatus.PAID, "test", "paid"));
        assertThat(engine.services().follower().catchUp(Duration.ofSeconds(30)).caughtUp()).isTrue();
        int deadPort;
        try (ServerSocket probe = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            deadPort = probe.getLocalPort();
        }
        String dead = "redis://127.0.0.1:" + deadPort;
        assertThat(withRedis(dead, "stats").code()).as("Redis is really down for the other commands").isEqualTo(ExitCode.FAILED.code());

        Run audit = withRedis(dead, "audit", "--actor", "audrey");
        assertThat(audit.code()).as(audit.err()).isZero();
        assertThat(audit.out()).contains("down-1").contains("WAIT_PAY -> PAID");
        Run legal = withRedis(dead, "audit", "--moves", "legal", "--json");
        assertThat(legal.code()).as(legal.err()).isZero();
        assertThat(legal.json().get("rows").toString()).contains("down-1");
    }

    @Test
    void aRedisDatabaseWithoutTheDataSetIsRefusedWhenAnotherDatabaseHoldsIt() {
        Operator support = new Operator("wanda", Role.SUPPORT);
        engine.services().orders().create(support, "db-1", null, Duration.ofMinutes(30));
        assertThat(engine.services().follower().catchUp(Duration.ofSeconds(30)).caughtUp()).isTrue();
        String db3 = TestServers.config().redisUri().replaceFirst("(/\\d+)?$", "") + "/3";

        Run r = withRedis(db3, "stats");
        assertThat(r.code()).isEqualTo(ExitCode.FAILED.code());
        assertThat(r.err()).contains("database 3 holds no data set").contains("database 0 of the same server holds data set")
                .contains("names the wrong database");
        try (RawRedis raw = new RawRedis()) {
            raw.cmd().select(3);
            assertThat(raw.cmd().dbsize()).as("nothing was written to database 3").isZero();
        }
        assertThat(withRedis(TestServers.config().redisUri(), "show", "--id", "db-1").code()).isZero();
    }
}
