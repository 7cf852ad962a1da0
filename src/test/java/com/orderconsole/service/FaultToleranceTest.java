package com.orderconsole.service;

import com.orderconsole.app.Services;

import com.orderconsole.RawSql;
import com.orderconsole.StallingProxy;
import com.orderconsole.TestServers;
import com.orderconsole.app.Engine;
import com.orderconsole.app.EngineConfig;
import com.orderconsole.domain.HistoryEntry;
import com.orderconsole.domain.Operator;
import com.orderconsole.domain.OrderStatus;
import com.orderconsole.domain.ResultCode;
import com.orderconsole.domain.Role;
import com.orderconsole.domain.TransitionRequest;
import com.orderconsole.redis.RedisUnavailableException;
import com.orderconsole.service.order.OrderDetails;
import com.orderconsole.service.recon.ReconCategory;
import com.orderconsole.service.recon.ReconProgress;
import com.orderconsole.service.recon.ReconReport;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.concurrent.CompletableFuture;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

/** Faults from issue 6, each ending with Redis and MySQL agreeing and no accepted transition lost. */
class FaultToleranceTest {
    private final Operator support = new Operator("alice", Role.SUPPORT);
    private final Operator ops = new Operator("olga", Role.OPS);

    private static void assertStoresAgree(Services s) {
        assertThat(s.follower().awaitCaughtUp(Duration.ofSeconds(30))).isTrue();
        ReconReport r = s.reconciliation().run(null, ReconProgress.NONE, () -> false);
        assertThat(r.total()).as("disagreements: %s", r.counts()).isZero();
    }

    @Test
    void redisRestartedEmptyIsRebuiltFromMySql() {
        try (Engine e = TestServers.freshEngine()) {
            Services s = e.services();
            String refundable = "{\"terminal\":[\"FINISHED\",\"CANCELLED\"],\"transitions\":{\"WAIT_PAY\":[\"PAID\",\"CANCELLED\"],"
                    + "\"PAID\":[\"WAIT_SHIP\",\"CANCELLED\"],\"WAIT_SHIP\":[\"SHIPPED\"],\"SHIPPED\":[\"FINISHED\"]}}";
            s.rules().set(ops, refundable);
            for (int i = 0; i < 30; i++) {
                s.orders().create(support, "wipe-" + i, null, Duration.ofMinutes(30));
                if (i < 10) {
                    s.transitions().transition(support, TransitionRequest.of("wipe-" + i, OrderStatus.PAID, "t", ""));
                }
            }
            s.follower().drainOnce();

            TestServers.redis().stopAndWipe();
            TestServers.redis().start();

            await().atMost(Duration.ofSeconds(15)).ignoreExceptions()
                    .until(() -> s.maintenance().recoverIfRedisLostData() == 20);
            assertThat(s.rules().current().version()).as("rules restored from the MySQL archive").isEqualTo(2);
            assertThat(s.queue().summary().depth()).as("unpaid orders queued again").isEqualTo(20);
            // A paid order comes back on first use, with its version, under the restored rules.
            assertThat(s.transitions().transition(support, TransitionRequest.of("wipe-3", OrderStatus.CANCELLED, "t", "refund"))
                    .version()).isEqualTo(3);
            ReconReport before = s.reconciliation().run(null, ReconProgress.NONE, () -> false);
            assertThat(before.counts().get(ReconCategory.MISSING_IN_REDIS)).isEqualTo(9);
            s.reconciliation().repair(ops, before, ReconCategory.MISSING_IN_REDIS, ReconProgress.NONE, () -> false);
            assertThat(s.sweeper().tick()).isZero();
            assertStoresAgree(s);
        }
    }

    @Test
    void aStalledRedisConnectionFailsFastAndRecoversByItself() throws Exception {
        TestServers.reset();
        try (StallingProxy proxy = new StallingProxy(TestServers.redis().port())) {
            EngineConfig cfg = TestServers.config()
                    .withServers("redis://127.0.0.1:" + proxy.port(), TestServers.mariaDb().jdbcUrl(), "root", "")
                    .withCommandTimeout(Duration.ofMillis(500));
            try (Engine e = Engine.start(cfg)) {
                Services s = e.services();
                s.orders().create(support, "stall-1", null, Duration.ofMinutes(30));
                proxy.stall(true);
                long t0 = System.nanoTime();
                assertThat(s.health().check().redisUp()).isFalse();
                assertThat((System.nanoTime() - t0) / 1_000_000).as("health check ms").isLessThan(5000);
                assertThatThrownBy(() -> s.transitions().transition(support, TransitionRequest.of("stall-1", OrderStatus.PAID, "t", "")))
                        .isInstanceOf(RedisUnavailableException.class).hasMessageContaining("did not answer")
                        .hasMessageContaining("500 ms").hasMessageContaining("may still have been applied");
                proxy.stall(false);
                await().atMost(Duration.ofSeconds(15)).until(() -> s.health().check().redisUp());
                // The stalled PAY may have reached Redis once traffic flowed again; either way the order is now PAID once.
                var r = s.transitions().transition(support, TransitionRequest.of("stall-1", OrderStatus.PAID, "t", ""));
                assertThat(r.code()).isIn(ResultCode.APPLIED, ResultCode.ALREADY_IN_STATUS);
                assertThat(s.orders().lookup("stall-1").summary().redisVersion()).isEqualTo(2);
                assertStoresAgree(s);
            }
        }
    }

    @Test
    void sweeperKilledBetweenReadingAndCancellingLeavesTheEntryForTheNextOne() {
        try (Engine first = TestServers.freshEngine()) {
            first.services().orders().create(support, "claim-1", null, Duration.ofMillis(1));
            await().atMost(Duration.ofSeconds(5)).until(() -> first.services().queue().summary().overdue() == 1);
            // The first process saw the due entry and died before running the cancel: nothing to undo.
        }
        try (Engine second = Engine.start(TestServers.config())) {
            assertThat(second.services().sweeper().tick()).isEqualTo(1);
            assertThat(second.services().orders().lookup("claim-1").summary().redisStatus()).isEqualTo(OrderStatus.CANCELLED);
            assertStoresAgree(second.services());
        }
    }

    @Test
    void sweepersAndClientsTogetherKeepVersionsAndHistoryExact() throws Exception {
        int n = 200;
        try (Engine a = TestServers.freshEngine(); Engine b = Engine.start(TestServers.config())) {
            for (int i = 0; i < n; i++) {
                a.services().orders().create(support, "mix-" + i, null, Duration.ofMillis(200 + (i % 5) * 100L));
            }
            a.services().sweeper().start(Duration.ofMillis(100));
            b.services().sweeper().start(Duration.ofMillis(100));
            OrderStatus[] path = {OrderStatus.PAID, OrderStatus.WAIT_SHIP, OrderStatus.SHIPPED, OrderStatus.FINISHED};
            List<CompletableFuture<Void>> clients = new ArrayList<>();
            for (Engine e : List.of(a, b)) {
                for (int c = 0; c < 2; c++) {
                    long seed = clients.size();
                    clients.add(CompletableFuture.runAsync(() -> {
                        Random rnd = new Random(seed);
                        for (int k = 0; k < 1500; k++) {
                            String id = "mix-" + rnd.nextInt(n);
                            e.services().transitions().transition(support,
                                    TransitionRequest.of(id, path[rnd.nextInt(path.length)], "chaos", ""));
                        }
                    }));
                }
            }
            for (CompletableFuture<Void> f : clients) {
                f.get();
            }
            await().atMost(Duration.ofSeconds(10)).until(() -> a.services().queue().summary().depth() == 0);
            Services s = a.services();
            assertStoresAgree(s);
            for (int i = 0; i < n; i++) {
                OrderDetails d = s.orders().lookup("mix-" + i);
                List<HistoryEntry> applied = d.history().stream().filter(h -> h.code() == ResultCode.APPLIED).toList();
                for (int k = 0; k < applied.size(); k++) {
                    assertThat(applied.get(k).version()).as("mix-%d step %d", i, k).isEqualTo(k + 1L);
                }
                assertThat(applied.get(applied.size() - 1).version()).isEqualTo(d.summary().redisVersion());
                assertThat(applied.stream().filter(h -> h.to() == OrderStatus.CANCELLED)).hasSizeLessThanOrEqualTo(1);
            }
            assertThat(RawSql.count("SELECT COUNT(*) FROM order_history h JOIN orders o USING (order_id) "
                    + "WHERE h.result_code = 1 AND h.version > o.version")).isZero();
        }
    }
}
