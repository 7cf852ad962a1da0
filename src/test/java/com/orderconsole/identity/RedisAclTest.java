package com.orderconsole.identity;

import com.orderconsole.Slow;
import com.orderconsole.app.Engine;
import com.orderconsole.app.EngineConfig;
import com.orderconsole.domain.OrderStatus;
import com.orderconsole.domain.PermissionDeniedException;
import com.orderconsole.domain.TransitionRequest;
import com.orderconsole.redis.RedisRefusedException;
import com.orderconsole.redis.RedisStores;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import redis.embedded.RedisServer;

import java.io.IOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * A deployment with Redis ACL users gives read-only sessions a Redis user that may read the console's keys
 * but neither write nor run scripts (docs/dba-guide.md: Redis ACL users). Redis itself refuses, whatever the
 * console asks for.
 */
@Slow
class RedisAclTest {
    /** The DBA guide's user for read-only sessions: the console's reads, plus PING and TIME for the health check. */
    private static final String READ_ONLY_USER = "user console_ro on >ro-pw ~osm:* +@read +ping +time -@write -@scripting";
    /** The DBA guide's user for the sessions that act: everything, on the console's keys only. */
    private static final String WRITER_USER = "user console_rw on >rw-pw ~osm:* +@all";

    private static RedisServer redis;
    private static int port;

    @BeforeAll
    static void aclRedis() throws IOException {
        try (ServerSocket probe = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            port = probe.getLocalPort();
        }
        Path dir = Files.createDirectories(Path.of("target", "test-servers", "redis-acl").toAbsolutePath());
        redis = RedisServer.newRedisServer().port(port).bind("127.0.0.1").setting("dir " + dir).setting("save \"\"")
                .setting(READ_ONLY_USER).setting(WRITER_USER).build();
        redis.start();
        AccessControlledDb.reset();
        try (Engine admin = Engine.start(AccessControlledDb.config("ada").withServers("redis://console_rw:rw-pw@127.0.0.1:" + port,
                AccessControlledDb.server().jdbcUrl(), "ada", "pw-ada"))) {
            admin.services().orders().create(admin.operator(), "a-1", null, Duration.ofMinutes(30));
            admin.services().follower().catchUp(Duration.ofSeconds(10));
            // A payment whose entry no one has counted yet (this server's stats are written by no other process).
            admin.services().orders().create(admin.operator(), "a-2", null, Duration.ofMinutes(30));
            admin.services().follower().catchUp(Duration.ofSeconds(10));
            try (io.lettuce.core.RedisClient c = io.lettuce.core.RedisClient.create("redis://console_rw:rw-pw@127.0.0.1:" + port);
                 var conn = c.connect()) {
                admin.services().transitions().transition(admin.operator(), TransitionRequest.of("a-2", OrderStatus.PAID, "test", ""));
                String stats = com.orderconsole.redis.RedisKeys.stats(com.orderconsole.redis.RedisKeys.bucket("a-2"));
                conn.sync().hdel(stats, "m:1>2", "x"); // as if the payment were not counted yet
            }
        }
    }

    @AfterAll
    static void stop() throws IOException {
        redis.stop();
    }

    @Test
    void theReadOnlyRedisUserReadsButMayNeitherWriteNorRunScripts() {
        try (RedisStores ro = RedisStores.connect("redis://console_ro:ro-pw@127.0.0.1:" + port, Duration.ofSeconds(2))) {
            assertThat(ro.orders().get("a-1").status()).isEqualTo(OrderStatus.WAIT_PAY);
            assertThat(ro.rules().json()).contains("WAIT_PAY");
            assertThat(ro.queue().score("a-1")).isNotNull();

            String where = "Redis at 127.0.0.1:" + port + " refused ";
            assertThatThrownBy(() -> ro.connection().await(ro.orders().script().transitionAsync(
                    TransitionRequest.of("a-1", OrderStatus.PAID, "test", ""), "mallory"), "transition a-1"))
                    .isInstanceOf(RedisRefusedException.class)
                    .hasMessage(where + "transition a-1: the Redis user of this session may not run it (its ACL does not allow it)");
            assertThatThrownBy(() -> ro.queue().sweeperHeartbeat(Map.of("paused", "1")))
                    .isInstanceOf(RedisRefusedException.class).hasMessageStartingWith(where + "HSET osm:sweeper");
            assertThat(ro.orders().get("a-1").version()).isEqualTo(1);
        }
    }

    @Test
    void aReadOnlySessionRunsOnTheReadOnlyRedisUser() {
        EngineConfig readOnly = AccessControlledDb.config("rita").withServers("redis://console_ro:ro-pw@127.0.0.1:" + port,
                AccessControlledDb.server().jdbcUrl(), "rita", "pw-rita");
        try (Engine e = Engine.start(readOnly)) {
            assertThat(e.services().orders().lookup("a-1").summary().redisStatus()).isEqualTo(OrderStatus.WAIT_PAY);
            assertThat(e.services().health().check().redisUp()).isTrue();
            assertThat(e.services().monitor().stateCounts().live()).as("the live counts, added up without a script")
                    .containsEntry(OrderStatus.WAIT_PAY, 1L).containsEntry(OrderStatus.PAID, 1L);
            assertThatThrownBy(() -> e.services().transitions().transition(e.operator(),
                    TransitionRequest.of("a-1", OrderStatus.PAID, "test", ""))).isInstanceOf(PermissionDeniedException.class);
        }
    }

    @Test
    void aWrongRedisPasswordIsRefusedInWords() {
        assertThatThrownBy(() -> RedisStores.connect("redis://console_ro:wrong@127.0.0.1:" + port, Duration.ofSeconds(2)))
                .hasMessageContaining("Redis at 127.0.0.1:" + port + " refused the user name or password").hasMessageNotContaining("WRONGPASS")
                .hasMessageNotContaining("wrong@");
    }
}
