package com.orderconsole.service.transition;

import com.orderconsole.RawSql;
import com.orderconsole.TestServers;
import com.orderconsole.app.Engine;
import com.orderconsole.domain.Operator;
import com.orderconsole.domain.OrderStatus;
import com.orderconsole.domain.ResultCode;
import com.orderconsole.domain.Role;
import com.orderconsole.domain.TransitionRequest;
import com.orderconsole.domain.TransitionResult;
import com.orderconsole.app.Services;
import com.orderconsole.service.order.OrderSummary;
import com.orderconsole.service.recon.ReconProgress;
import com.orderconsole.service.recon.ReconReport;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The race the whole design exists for: a payment callback and the timeout cancel hit the same
 * unpaid order at once. Exactly one wins, the other gets a rejection code, MySQL agrees afterwards.
 */
class PayCancelRaceTest {
    private static final int ORDERS = 1000;
    private final Operator payments = new Operator("payment-callback", Role.SUPPORT);
    private final Operator timeout = new Operator("timeout", Role.SUPPORT);

    @Test
    void payAndCancelOnTheSameOrdersEndInExactlyOneOfThem() throws Exception {
        try (Engine engine = TestServers.freshEngine()) {
            Services s = engine.services();
            for (int i = 0; i < ORDERS; i++) {
                s.orders().create(payments, "race-" + i, null, Duration.ofMinutes(30));
            }
            Map<String, List<TransitionResult>> results = new ConcurrentHashMap<>();
            ExecutorService pool = Executors.newFixedThreadPool(8);
            CountDownLatch go = new CountDownLatch(1);
            List<Future<?>> fs = new ArrayList<>();
            for (int t = 0; t < 8; t++) {
                int thread = t;
                fs.add(pool.submit(() -> {
                    go.await();
                    // Half the threads pay, half cancel; each walks all orders from a different start.
                    for (int k = 0; k < ORDERS; k++) {
                        String id = "race-" + ((k + thread * 125) % ORDERS);
                        boolean pay = thread % 2 == 0;
                        TransitionResult r = s.transitions().transition(pay ? payments : timeout, TransitionRequest.of(id,
                                pay ? OrderStatus.PAID : OrderStatus.CANCELLED, pay ? "payment" : "timeout", ""));
                        results.computeIfAbsent(id, x -> java.util.Collections.synchronizedList(new ArrayList<>())).add(r);
                    }
                    return null;
                }));
            }
            go.countDown();
            for (Future<?> f : fs) {
                f.get();
            }
            pool.shutdown();

            long paid = 0;
            long cancelled = 0;
            for (int i = 0; i < ORDERS; i++) {
                String id = "race-" + i;
                List<TransitionResult> rs = results.get(id);
                assertThat(rs).hasSize(8);
                assertThat(rs.stream().filter(TransitionResult::applied)).as("exactly one winner for %s", id).hasSize(1);
                TransitionResult win = rs.stream().filter(TransitionResult::applied).findFirst().orElseThrow();
                assertThat(win.version()).isEqualTo(2);
                for (TransitionResult r : rs) {
                    if (!r.applied()) {
                        assertThat(r.code()).isIn(ResultCode.NOT_ALLOWED, ResultCode.TERMINAL, ResultCode.ALREADY_IN_STATUS);
                    }
                }
                OrderSummary now = s.orders().lookup(id).summary();
                assertThat(now.redisStatus()).isEqualTo(win.target());
                assertThat(now.redisVersion()).isEqualTo(2);
                if (win.target() == OrderStatus.PAID) {
                    paid++;
                } else {
                    cancelled++;
                }
            }
            assertThat(paid + cancelled).isEqualTo(ORDERS);

            assertThat(s.follower().awaitCaughtUp(Duration.ofSeconds(60))).isTrue();
            assertThat(RawSql.count("SELECT COUNT(*) FROM orders WHERE version = 2 AND status IN (2, 6)")).isEqualTo(ORDERS);
            assertThat(RawSql.count("SELECT COUNT(*) FROM orders WHERE status = 2")).isEqualTo(paid);
            ReconReport recon = s.reconciliation().run(null, ReconProgress.NONE, () -> false);
            assertThat(recon.total()).as("Redis and MySQL agree for every order: %s", recon.counts()).isZero();
            assertThat(RawSql.count("SELECT COUNT(*) FROM order_history WHERE result_code <> 1")).isEqualTo(ORDERS * 7L);
        }
    }
}
