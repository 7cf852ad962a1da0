package com.orderconsole.embedded;

import io.lettuce.core.RedisClient;
import io.lettuce.core.api.StatefulRedisConnection;
import io.lettuce.core.api.sync.RedisCommands;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * The embedded Redis rewrites its append-only file without compressing it (the rewrite's CPU is a core taken
 * from the follower and MariaDB, issue 15), and what it held before the rewrite is all there after a restart.
 */
class EmbeddedRedisRewriteTest {
    @Test
    void anUncompressedRewriteKeepsEveryOrderAcrossARestart(@TempDir Path dir) {
        EmbeddedRedis redis = new EmbeddedRedis(dir, 0).start();
        try {
            withRedis(redis, r -> {
                assertThat(r.configGet("rdbcompression")).containsEntry("rdbcompression", "no");
                for (int i = 0; i < 2_000; i++) {
                    r.hset("o:" + i, Map.of("status", "2", "version", Integer.toString(i % 7), "updateTime", "1764577000123"));
                }
                r.bgrewriteaof();
                await().atMost(Duration.ofSeconds(30)).until(() -> r.info("persistence").contains("aof_rewrite_in_progress:0")
                        && !r.info("persistence").contains("aof_last_rewrite_time_sec:-1"));
                r.hset("o:after", "status", "4"); // appended after the rewritten base
            });
            redis.stop();
            redis.start();
            withRedis(redis, r -> {
                assertThat(r.dbsize()).isEqualTo(2_001);
                assertThat(r.hgetall("o:1234")).containsEntry("status", "2").containsEntry("version", Integer.toString(1234 % 7));
                assertThat(r.hget("o:after", "status")).isEqualTo("4");
            });
        } finally {
            redis.stopAndWipe();
        }
    }

    private static void withRedis(EmbeddedRedis redis, java.util.function.Consumer<RedisCommands<String, String>> body) {
        RedisClient client = RedisClient.create(redis.uri());
        try (StatefulRedisConnection<String, String> c = client.connect()) {
            body.accept(c.sync());
        } finally {
            client.shutdown();
        }
    }
}
