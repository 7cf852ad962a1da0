package com.orderconsole.cli;

import com.orderconsole.FreshEngine;
import com.orderconsole.RawRedis;
import com.orderconsole.TestServers;
import com.orderconsole.domain.Operator;
import com.orderconsole.domain.Role;
import com.orderconsole.redis.RedisKeys;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.Statement;
import java.time.Duration;

import static com.orderconsole.cli.CliRunner.cli;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * The words name the server that failed: a CLI transition held by a MySQL lock (a move that rebuilds a lost order waits
 * for the follower's batch of its bucket, whose cursor row another session locks) says MySQL, and not that Redis did not
 * answer while Redis answers. The console's move buttons run the same service call (transitionAndWait).
 */
class TransitionHeldByMySqlCliTest {
    @RegisterExtension
    final FreshEngine engine = new FreshEngine();

    @Test
    void aMoveHeldByAMySqlLockNamesMySqlNotRedis() throws Exception {
        engine.services().orders().create(new Operator("alice", Role.SUPPORT), "lk-2", null, Duration.ofMinutes(30));
        engine.services().follower().drainOnce();
        int bucket = RedisKeys.bucket("lk-2");
        try (Connection c = DriverManager.getConnection(TestServers.mariaDb().jdbcUrl(), "root", "");
             Statement st = c.createStatement()) {
            c.setAutoCommit(false);
            st.executeQuery("SELECT last_id FROM sync_cursor WHERE bucket = " + bucket + " FOR UPDATE").close();
            try (RawRedis raw = new RawRedis()) {
                raw.cmd().del(RedisKeys.order("lk-2")); // the move rebuilds it from MySQL, after the follower's batch
            }
            long t0 = System.nanoTime();
            CliRunner.Run run = cli("transition", "--id", "lk-2", "--to", "PAID", "--actor", "alice", "--reason", "held");
            long ms = (System.nanoTime() - t0) / 1_000_000;
            System.out.println("[measured] CLI move held by a MySQL lock: exit " + run.code() + " after " + ms + " ms: " + run.err());
            assertThat(run.code()).isNotZero();
            assertThat(run.err()).contains("waited on MySQL").contains("not on Redis, which answers")
                    .doesNotContain("Redis at").doesNotContain("did not answer");
            c.rollback();
        }
    }
}
