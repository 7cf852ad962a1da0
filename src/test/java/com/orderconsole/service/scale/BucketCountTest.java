package com.orderconsole.service.scale;

import com.orderconsole.RawRedis;
import com.orderconsole.RawSql;
import com.orderconsole.TestServers;
import com.orderconsole.app.Engine;
import com.orderconsole.domain.Operator;
import com.orderconsole.domain.OrderStatus;
import com.orderconsole.domain.Role;
import com.orderconsole.domain.TransitionRequest;
import com.orderconsole.redis.RedisKeys;
import com.orderconsole.service.monitor.Health;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.HashSet;
import java.util.Set;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * Issue 16.2: the bucket count is chosen when a data set is initialised, recorded in Redis and MySQL,
 * and a process started with another count against that data set is refused, changing nothing.
 */
class BucketCountTest {
    private final Operator support = new Operator("alice", Role.SUPPORT);

    @AfterEach
    void backToTheDefault() {
        TestServers.reset();
        RedisKeys.useBuckets(RedisKeys.DEFAULT_BUCKETS);
    }

    @Test
    void aSingleServerKeepsSixteenBucketsAndRecordsThemOnBothSides() {
        TestServers.reset();
        try (Engine e = Engine.start(TestServers.config()); RawRedis raw = new RawRedis()) {
            assertThat(RedisKeys.buckets()).isEqualTo(16);
            assertThat(raw.cmd().get(RedisKeys.BUCKET_COUNT)).isEqualTo("16");
            assertThat(RawSql.count("SELECT buckets FROM dataset_identity")).isEqualTo(16);
            Health h = e.services().health().check();
            assertThat(h.masters()).singleElement().satisfies(m -> {
                assertThat(m.buckets()).isEqualTo(16);
                assertThat(m.share()).isEqualTo(1.0);
            });
        }
    }

    @Test
    void aCountChosenAtInitialisationIsUsedAndAnotherIsRefusedInWords() {
        TestServers.reset();
        try (Engine e = Engine.start(TestServers.config().withBuckets(64))) {
            Set<Integer> used = new HashSet<>();
            for (int i = 0; i < 400; i++) {
                String id = "bk-" + i;
                e.services().orders().create(support, id, null, Duration.ofMinutes(30));
                used.add(RedisKeys.bucket(id));
            }
            e.services().transitions().transition(support, TransitionRequest.of("bk-7", OrderStatus.PAID, "test", ""));
            e.services().follower().drainOnce();
            assertThat(used).as("orders spread over all 64 buckets").hasSize(64);
        }
        try (RawRedis raw = new RawRedis()) {
            assertThat(raw.cmd().get(RedisKeys.BUCKET_COUNT)).isEqualTo("64");
        }
        assertThat(RawSql.count("SELECT buckets FROM dataset_identity")).isEqualTo(64);
        long history = RawSql.count("SELECT COUNT(*) FROM order_history");

        assertThatThrownBy(() -> Engine.start(TestServers.config().withBuckets(16)))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("--buckets 16 was given")
                .hasMessageContaining("initialised with 64 buckets")
                .hasMessageContaining("start without --buckets, or with --buckets 64");
        assertThat(RawSql.count("SELECT buckets FROM dataset_identity")).as("nothing stored changed").isEqualTo(64);
        assertThat(RawSql.count("SELECT COUNT(*) FROM order_history")).isEqualTo(history);

        // Started without the flag, a process takes the recorded count and finds every order where it was.
        try (Engine e = Engine.start(TestServers.config())) {
            assertThat(RedisKeys.buckets()).isEqualTo(64);
            assertThat(e.services().orders().lookup("bk-7").summary().redisStatus()).isEqualTo(OrderStatus.PAID);
            assertThat(e.services().transitions().transition(support, TransitionRequest.of("bk-7", OrderStatus.WAIT_SHIP, "test", ""))
                    .applied()).isTrue();
        }
    }

    @Test
    void aRedisAndAMySqlRecordingDifferentCountsAreRefused() {
        TestServers.reset();
        try (Engine e = Engine.start(TestServers.config())) {
            e.services().orders().create(support, "bk-x", null, Duration.ofMinutes(30));
        }
        try (RawRedis raw = new RawRedis()) {
            raw.cmd().set(RedisKeys.BUCKET_COUNT, "32");
        }
        assertThatThrownBy(() -> Engine.start(TestServers.config())).isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("records 32 buckets but MySQL").hasMessageContaining("records 16");
    }

    @Test
    void aCountOutOfRangeIsRefusedBeforeAnythingIsRecorded() {
        TestServers.reset();
        assertThatThrownBy(() -> Engine.start(TestServers.config().withBuckets(0)))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("bucket count 0 is out of range: use 1 to 1024");
        assertThat(RawSql.count("SELECT COUNT(*) FROM dataset_identity")).isZero();
    }
}
