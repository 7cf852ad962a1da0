package com.orderconsole.redis;

import com.orderconsole.RawRedis;
import com.orderconsole.TestServers;
import com.orderconsole.domain.OrderStatus;
import com.orderconsole.domain.ResultCode;
import com.orderconsole.domain.TransitionRequest;
import com.orderconsole.domain.TransitionResult;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * On a single server transition.lua checks the data-set fence in its own call: a fenced data set is refused and counted,
 * and another marker or an outbox that no longer reaches MySQL's last applied entry writes nothing at all (the service
 * then asks MySQL). RestoredCopyTest and RollbackFenceTest cover the same through the service, end to end.
 */
class FenceInTheScriptTest {
    private static final String ID = "fence-1";
    private final TransitionRequest pay = TransitionRequest.of(ID, OrderStatus.PAID, "test", "paid");
    private RawRedis raw;
    private RedisStores redis;

    @BeforeEach
    void seed() {
        raw = new RawRedis();
        raw.cmd().flushall();
        redis = RedisStores.connect(TestServers.redis().uri(), Duration.ofSeconds(5));
        raw.cmd().set(RedisKeys.EPOCH, "m1");
        raw.cmd().hset(RedisKeys.order(ID), Map.of("status", "1", "version", "1", "updateTime", "1", "createTime", "1"));
        raw.cmd().hset(RedisKeys.rules(RedisKeys.bucket(ID)), Map.of("1>2", "1", "_v", "1", "_t", "5,6", "1", "2,6"));
    }

    @AfterEach
    void close() {
        redis.close();
        raw.close();
    }

    private TransitionResult run(String marker, String outboxFrom) {
        return redis.connection().await(redis.orders().script().transitionFencedAsync(pay, "alice", marker, outboxFrom), "transition");
    }

    private void nothingWritten() {
        int b = RedisKeys.bucket(ID);
        assertThat(raw.cmd().hget(RedisKeys.order(ID), "status")).isEqualTo("1");
        assertThat(raw.cmd().hget(RedisKeys.order(ID), "version")).isEqualTo("1");
        assertThat(raw.cmd().xlen(RedisKeys.outbox(b))).isZero();
        assertThat(raw.cmd().hgetall(RedisKeys.stats(b))).isEmpty();
    }

    @Test
    void anotherMarkerOrAnOutboxThatNoLongerReachesWritesNothingAndLeavesTheJudgementToTheCaller() {
        assertThat(run("m0", null)).as("Redis carries another marker than MySQL recorded").isNull();
        nothingWritten();
        assertThat(run("m1", "99999999999999-0")).as("the outbox no longer reaches the entry MySQL applied last").isNull();
        nothingWritten();
    }

    @Test
    void aFencedDataSetIsRefusedAndCountedAndNothingElseIsWritten() {
        raw.cmd().set(RedisKeys.FENCED, "went back in time");
        TransitionResult r = run("m1", null);
        assertThat(r.code()).isEqualTo(ResultCode.RESTORING);
        assertThat(raw.cmd().hget(RedisKeys.stats(RedisKeys.bucket(ID)), "c:-7")).isEqualTo("1");
        assertThat(raw.cmd().hget(RedisKeys.order(ID), "status")).isEqualTo("1");
        assertThat(raw.cmd().xlen(RedisKeys.outbox(RedisKeys.bucket(ID)))).isZero();
    }

    @Test
    void theMarkerMySqlRecordedAndAReachingOutboxLetTheMoveThroughInTheSameCall() {
        TransitionResult first = run("m1", null);
        assertThat(first.code()).isEqualTo(ResultCode.APPLIED);
        String entry = raw.cmd().xrange(RedisKeys.outbox(RedisKeys.bucket(ID)), io.lettuce.core.Range.create("-", "+")).get(0).getId();
        assertThat(raw.cmd().hget(RedisKeys.order(ID), "status")).isEqualTo("2");
        // The entry MySQL applied last is still there: the look passes, and the repeat is answered as one.
        assertThat(run("m1", entry).code()).isEqualTo(ResultCode.ALREADY_IN_STATUS);
        // Redis lost its marker (its data): not the fence's case, the script answers as usual.
        raw.cmd().del(RedisKeys.EPOCH);
        assertThat(run("m1", "99999999999999-0")).isNotNull();
    }
}
