package com.orderconsole.service.reliability;

import com.orderconsole.RawRedis;
import com.orderconsole.TestServers;
import com.orderconsole.app.Engine;
import com.orderconsole.app.Services;
import com.orderconsole.domain.Operator;
import com.orderconsole.domain.OrderStatus;
import com.orderconsole.domain.ResultCode;
import com.orderconsole.domain.Role;
import com.orderconsole.domain.TransitionRequest;
import com.orderconsole.domain.TransitionResult;
import com.orderconsole.redis.RedisKeys;
import org.junit.jupiter.api.Test;

import java.time.Duration;

import static org.assertj.core.api.Assertions.assertThat;

/** Issue 33.6: an order hash that lost its {@code status} field is malformed (set aside, restorable), never "not found". */
class PartialHashTest {
    private final Operator support = new Operator("alice", Role.SUPPORT);
    private final Operator ops = new Operator("olga", Role.OPS);

    @Test
    void aHashWithoutItsStatusIsMalformedNotMissing() {
        try (Engine e = TestServers.freshEngine()) {
            Services s = e.services();
            s.orders().create(support, "part-1", null, Duration.ofMinutes(30));
            s.transitions().transition(support, TransitionRequest.of("part-1", OrderStatus.PAID, "t", "paid"));
            s.follower().drainOnce();
            try (RawRedis raw = new RawRedis()) {
                raw.cmd().hdel(RedisKeys.order("part-1"), "status");
            }
            TransitionResult r = s.transitions().transition(support, TransitionRequest.of("part-1", OrderStatus.WAIT_SHIP, "t", "ship"));
            assertThat(r.code()).isEqualTo(ResultCode.MALFORMED);
            assertThat(s.deadLetters().open(10)).singleElement().satisfies(d -> assertThat(d.reason()).contains("status is missing"));
            // ops restore it from MySQL, the durable record: PAID v2
            long id = s.deadLetters().open(10).get(0).id();
            s.deadLetters().retry(ops, id);
            assertThat(s.orders().lookup("part-1").summary().redisStatus()).isEqualTo(OrderStatus.PAID);
        }
    }
}
