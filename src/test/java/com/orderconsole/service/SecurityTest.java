package com.orderconsole.service;

import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.core.read.ListAppender;
import com.orderconsole.RawRedis;
import com.orderconsole.RawSql;
import com.orderconsole.SelfSignedPem;
import com.orderconsole.TestServers;
import com.orderconsole.app.Engine;
import com.orderconsole.app.EngineConfig;
import com.orderconsole.domain.Operator;
import com.orderconsole.domain.OrderStatus;
import com.orderconsole.domain.Role;
import com.orderconsole.domain.TransitionRequest;
import org.junit.jupiter.api.Test;
import org.slf4j.LoggerFactory;
import redis.embedded.RedisServer;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class SecurityTest {
    private final Operator support = new Operator("alice", Role.SUPPORT);

    @Test
    void passwordsNeverAppearInErrorsOrLogs() {
        String secret = "Sup3r-S3cret-pw";
        Logger root = (Logger) LoggerFactory.getLogger(org.slf4j.Logger.ROOT_LOGGER_NAME);
        ListAppender<ILoggingEvent> logs = new ListAppender<>();
        logs.start();
        root.addAppender(logs);
        try {
            EngineConfig cfg = TestServers.config().withServers(TestServers.redis().uri(),
                    "jdbc:mysql://127.0.0.1:1/orders?connectTimeout=500", "orders", secret)
                    .withCommandTimeout(Duration.ofMillis(500));
            assertThat(cfg.toString()).doesNotContain(secret);
            assertThatThrownBy(() -> Engine.start(cfg)).satisfies(e -> {
                for (Throwable t = e; t != null; t = t.getCause()) {
                    assertThat(String.valueOf(t.getMessage())).doesNotContain(secret);
                }
                assertThat(e.getMessage()).contains("127.0.0.1:1/orders");
            });
        } finally {
            root.detachAppender(logs);
        }
        assertThat(logs.list).isNotEmpty().allSatisfy(ev -> assertThat(ev.getFormattedMessage()).doesNotContain(secret));
    }

    @Test
    void embeddedServersListenOnLoopbackOnly() {
        try (RawRedis raw = new RawRedis()) {
            assertThat(raw.cmd().configGet("bind").get("bind")).isEqualTo("127.0.0.1");
        }
        assertThat(RawSql.count("SELECT @@bind_address = '127.0.0.1'")).isEqualTo(1);
    }

    @Test
    void tlsIsUsedWhenTheUrisAskForIt() throws Exception {
        TestServers.reset();
        Path dir = Path.of("target", "tls").toAbsolutePath();
        TestServers.deleteTree(dir);
        Files.createDirectories(dir);
        SelfSignedPem pem = SelfSignedPem.make(dir, "redis", 2);
        Path certPem = pem.cert();
        Path keyPem = pem.key();

        int tlsPort;
        try (var probe = new java.net.ServerSocket(0, 1, java.net.InetAddress.getLoopbackAddress())) {
            tlsPort = probe.getLocalPort();
        }
        RedisServer tlsRedis = RedisServer.newRedisServer().port(0).bind("127.0.0.1")
                .setting("tls-port " + tlsPort)
                .setting("tls-cert-file " + certPem).setting("tls-key-file " + keyPem)
                .setting("tls-ca-cert-file " + certPem).setting("tls-auth-clients no")
                .setting("dir " + dir).build();
        tlsRedis.start();
        try {
            String jdbc = TestServers.mariaDb().jdbcUrl().replace("sslMode=DISABLED", "sslMode=REQUIRED");
            EngineConfig cfg = TestServers.config().withServers("rediss://127.0.0.1:" + tlsPort + "?verifyPeer=NONE", jdbc, "root", "");
            try (Engine e = Engine.start(cfg)) {
                e.services().orders().create(support, "tls-1", null, Duration.ofMinutes(30));
                assertThat(e.services().transitions().transition(support,
                        TransitionRequest.of("tls-1", OrderStatus.PAID, "t", "")).applied()).isTrue();
                assertThat(e.services().follower().awaitCaughtUp(Duration.ofSeconds(10))).isTrue();
                assertThat(e.services().orders().lookup("tls-1").summary().mysqlStatus()).isEqualTo(OrderStatus.PAID);
            }
            assertThatThrownBy(() -> Engine.start(TestServers.config().withServers("redis://127.0.0.1:" + tlsPort, jdbc, "root", "")
                    .withCommandTimeout(Duration.ofMillis(800)))).hasMessageContaining("Redis");
        } finally {
            tlsRedis.stop();
        }
    }
}
