package com.orderconsole.cli;

import com.orderconsole.Slow;
import com.orderconsole.TestCluster;
import com.orderconsole.TestServers;
import com.orderconsole.app.Engine;
import com.orderconsole.domain.Operator;
import com.orderconsole.domain.Role;
import com.orderconsole.redis.RedisKeys;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.time.Duration;

import static org.assertj.core.api.Assertions.assertThat;

/** Issue 16.2: {@code stats} on a Redis Cluster lists the masters and each one's share of the buckets. */
@Slow
class ClusterStatsCliTest {
    @AfterEach
    void backToOneServer() {
        TestServers.reset();
        TestCluster.reset();
        RedisKeys.useBuckets(RedisKeys.DEFAULT_BUCKETS);
    }

    @Test
    void statsListsTheMastersAndTheirShareOfTheBuckets() {
        TestServers.reset();
        TestCluster.reset();
        try (Engine e = Engine.start(TestServers.config().withServers(TestCluster.seedUri(), TestServers.mariaDb().jdbcUrl(), "root", ""))) {
            e.services().orders().create(new Operator("alice", Role.SUPPORT), "st-1", null, Duration.ofHours(1));
        }
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        int code = OrderCli.runOnLocalServers(new String[]{"--redis", TestCluster.seedUri(), "--jdbc", TestServers.mariaDb().jdbcUrl(),
                "--db-user", "root", "stats"}, new PrintStream(out, true, StandardCharsets.UTF_8), new PrintStream(err, true, StandardCharsets.UTF_8));
        String text = out.toString(StandardCharsets.UTF_8);
        assertThat(code).as(err.toString(StandardCharsets.UTF_8)).isZero();
        assertThat(text).contains("Redis masters: 3 (64 buckets; busiest master 1.12 × the mean share)");
        for (int port : TestCluster.ports()) {
            assertThat(text).contains("127.0.0.1:" + port + ": ");
        }
    }
}
