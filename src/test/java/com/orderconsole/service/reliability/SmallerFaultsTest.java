package com.orderconsole.service.reliability;

import com.orderconsole.FreshEngine;
import com.orderconsole.RawRedis;
import com.orderconsole.TestServers;
import com.orderconsole.app.Engine;
import com.orderconsole.domain.Operator;
import com.orderconsole.domain.OrderStatus;
import com.orderconsole.domain.Role;
import com.orderconsole.domain.TransitionRequest;
import com.orderconsole.redis.RedisKeys;
import com.orderconsole.app.Services;
import com.orderconsole.service.recon.ReconCategory;
import com.orderconsole.service.recon.ReconProgress;
import com.orderconsole.service.recon.ReconReport;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import java.time.Duration;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** Issue 11.6: counters that drifted are recomputed; bad input gets words, not Java or Lua text. */
class SmallerFaultsTest {
    @RegisterExtension
    final FreshEngine engine = new FreshEngine();
    private final Operator support = new Operator("alice", Role.SUPPORT);
    private final Operator ops = new Operator("olga", Role.OPS);

    @Test
    void liveCountersThatDriftedAreFoundAndRecountedByReconciliation() {
        Services s = engine.services();
        for (int i = 0; i < 12; i++) {
            s.orders().create(support, "cnt-" + i, null, Duration.ofMinutes(30));
        }
        s.transitions().transition(support, TransitionRequest.of("cnt-0", OrderStatus.PAID, "t", ""));
        s.follower().drainOnce();
        try (RawRedis raw = new RawRedis()) {
            raw.cmd().hincrby(RedisKeys.stats(RedisKeys.bucket("cnt-3")), "n:1", 5); // as after a lost delete
            raw.cmd().hdel(RedisKeys.stats(RedisKeys.bucket("cnt-0")), "n:2");     // as after a rebuild
        }
        ReconReport r = s.reconciliation().run(null, ReconProgress.NONE, () -> false);
        assertThat(r.counts().get(ReconCategory.COUNTERS_DRIFT)).isPositive();
        assertThat(r.findings(ReconCategory.COUNTERS_DRIFT)).extracting(f -> f.detail()).anySatisfy(d ->
                assertThat(d).contains("WAIT_PAY counter"));
        s.reconciliation().repair(ops, r, ReconCategory.COUNTERS_DRIFT, ReconProgress.NONE, () -> false);
        assertThat(s.monitor().stateCounts().live().get(OrderStatus.WAIT_PAY)).isEqualTo(11);
        assertThat(s.monitor().stateCounts().live().get(OrderStatus.PAID)).isEqualTo(1);
        assertThat(s.reconciliation().run(null, ReconProgress.NONE, () -> false).total()).isZero();
    }

    @Test
    void anExpectedVersionBelowOneIsRefusedBeforeAnythingRuns() {
        engine.services().orders().create(support, "ev-1", null, Duration.ofMinutes(30));
        for (long v : new long[]{0, -1, Long.MIN_VALUE}) {
            assertThatThrownBy(() -> new TransitionRequest("ev-1", OrderStatus.PAID, v, "t", "", false))
                    .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("versions start at 1");
        }
        assertThat(engine.services().orders().lookup("ev-1").history()).hasSize(1);
    }

    @Test
    void aRulesDocumentStartingWithAByteOrderMarkIsRead() {
        String json = "\uFEFF{\"terminal\":[\"FINISHED\",\"CANCELLED\"],\"transitions\":{\"WAIT_PAY\":[\"PAID\",\"CANCELLED\"],"
                + "\"PAID\":[\"WAIT_SHIP\",\"CANCELLED\"],\"WAIT_SHIP\":[\"SHIPPED\"],\"SHIPPED\":[\"FINISHED\"]}}";
        assertThat(engine.services().rules().validate(json).targets(OrderStatus.PAID)).contains(OrderStatus.CANCELLED);
        assertThat(engine.services().rules().set(ops, json).version()).isEqualTo(2);
    }

    @Test
    void aRedisAddressThatIsNoUriIsNamedInWords() {
        for (String bad : new String[]{"localhost:6379", "127.0.0.1", "http//x"}) {
            assertThatThrownBy(() -> Engine.start(TestServers.config().withServers(bad, TestServers.mariaDb().jdbcUrl(), "root", "")))
                    .hasMessageContaining("'" + bad + "' is not a Redis URI").hasMessageNotContaining("scheme must not be null");
        }
    }
}
