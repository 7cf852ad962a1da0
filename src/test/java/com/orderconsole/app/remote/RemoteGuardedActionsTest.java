package com.orderconsole.app.remote;

import com.orderconsole.RawRedis;
import com.orderconsole.api.ApiHarness;
import com.orderconsole.app.NotConfirmedException;
import com.orderconsole.app.Services;
import com.orderconsole.domain.Environment;
import com.orderconsole.domain.Operator;
import com.orderconsole.domain.OrderStatus;
import com.orderconsole.domain.PermissionDeniedException;
import com.orderconsole.domain.Role;
import com.orderconsole.domain.TransitionResult;
import com.orderconsole.redis.RedisKeys;
import com.orderconsole.service.bulk.BulkBatch;
import com.orderconsole.service.bulk.BulkCounts;
import com.orderconsole.service.bulk.BulkPreview;
import com.orderconsole.service.bulk.BulkScope;
import com.orderconsole.service.recon.ReconCategory;
import com.orderconsole.service.recon.ReconProgress;
import com.orderconsole.service.recon.ReconReport;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import java.net.URI;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * The console's guarded actions through a serve that works on production: each carries its reason and the count the
 * console had confirmed, so serve applies it; serve's refusals come back as the in-process services' exceptions, in
 * serve's words; long operations report progress while serve works.
 */
class RemoteGuardedActionsTest {
    private final ApiHarness h = ApiHarness.fresh(Environment.external("prod-eu"));
    private final Services local = h.engine.services();
    private final Operator setup = new Operator("setup", Role.ADMIN);
    private final Operator olga = new Operator("olga", Role.OPS);

    @AfterEach
    void close() {
        h.close();
    }

    private ServeClient as(Operator who) {
        return new ServeClient(URI.create(h.base()), new TestTokens(ApiHarness.person(who.name(), who.role())));
    }

    @Test
    void queueActionsCarryReasonAndCountAndRefusalsAreTheServicesExceptions() {
        local.orders().create(setup, "g-1", null, Duration.ofMinutes(30));
        local.orders().create(setup, "g-2", null, Duration.ofMinutes(30));
        RemoteCancelQueue queue = new RemoteCancelQueue(as(olga));

        assertThatThrownBy(() -> queue.setPaused(olga, true, "console", ""))
                .as("production: pausing needs a reason").isInstanceOf(IllegalArgumentException.class).hasMessageContaining("reason");
        queue.setPaused(olga, true, "console", "carrier outage");
        assertThat(local.sweeper().status().paused()).isTrue();
        assertThat(queue.summary().sweeper().paused()).isTrue();
        queue.setPaused(olga, false, "console", "outage over");
        assertThat(local.sweeper().status().paused()).isFalse();

        assertThat(queue.remove(olga, "g-1", "console", "paid by bank transfer")).isTrue();
        assertThat(queue.remove(olga, "g-1", "console", "again")).as("no entry any more: false, as in-process").isFalse();
        assertThat(queue.find("g-1")).isEmpty();

        TransitionResult cancelled = queue.cancelNow(olga, "g-2", "customer asked");
        assertThat(cancelled.applied()).isTrue();
        assertThat(cancelled.target()).isEqualTo(OrderStatus.CANCELLED);
        TransitionResult again = queue.cancelNow(olga, "g-2", "customer asked");
        assertThat(again.applied()).as("a rejected move is an outcome, not an exception").isFalse();

        assertThatThrownBy(() -> queue.extend(olga, "g-2", Duration.ofHours(1), "console", "too late"))
                .isInstanceOf(IllegalStateException.class).hasMessageContaining("not waiting for payment");
        assertThatThrownBy(() -> queue.extend(olga, "g-404", Duration.ofHours(1), "console", "who"))
                .isInstanceOf(com.orderconsole.service.order.OrderNotFoundException.class);
        Operator sam = new Operator("sam", Role.SUPPORT);
        assertThatThrownBy(() -> new RemoteCancelQueue(as(sam)).remove(sam, "g-1", "console", "no"))
                .isInstanceOf(PermissionDeniedException.class).hasMessageContaining("needs role ops");
    }

    @Test
    void aBulkMoveOnProductionRunsWithItsConfirmedCountAndReportsProgress() {
        for (String id : List.of("m-1", "m-2", "m-3")) {
            local.orders().create(setup, id, null, Duration.ofMinutes(30));
        }
        RemoteBulk bulk = new RemoteBulk(as(olga));
        BulkPreview p = bulk.preview(BulkScope.of(List.of("m-1", "m-2", "m-3")), OrderStatus.PAID, false,
                com.orderconsole.service.bulk.BulkProgress.NONE, () -> false);
        assertThat(p.wouldApply()).isEqualTo(3);
        assertThatThrownBy(() -> bulk.apply(olga, p, " ", "console", (d, t, c) -> { }, () -> false))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("needs a reason");
        List<Integer> done = new ArrayList<>();
        BulkBatch b = bulk.apply(olga, p, "paid offline", "console", (d, t, c) -> done.add(d), () -> false);
        assertThat(b.state()).isEqualTo(BulkBatch.State.DONE);
        assertThat(b.counts()).isEqualTo(new BulkCounts(3, 0, 0, 0));
        assertThat(done).isNotEmpty().last().isEqualTo(3);
        assertThat(bulk.batch(b.id())).isEqualTo(local.bulk().batch(b.id()));
        assertThatThrownBy(() -> bulk.batch(999)).isInstanceOf(IllegalArgumentException.class);

        BulkPreview notThroughServe = local.bulk().preview(BulkScope.of(List.of("m-1")), OrderStatus.WAIT_SHIP, false,
                com.orderconsole.service.bulk.BulkProgress.NONE, () -> false);
        assertThatThrownBy(() -> bulk.apply(olga, notThroughServe, "ship", "console", (d, t, c) -> { }, () -> false))
                .isInstanceOf(IllegalStateException.class).hasMessageContaining("preview again");
    }

    @Test
    void aRepairOnProductionCarriesItsCountAndAForgottenRunSaysToCompareAgain() {
        local.orders().create(setup, "r-1", null, Duration.ofMinutes(30));
        local.orders().create(setup, "r-2", null, Duration.ofMinutes(30));
        assertThat(local.follower().awaitCaughtUp(Duration.ofSeconds(20))).isTrue();
        try (RawRedis raw = new RawRedis()) {
            raw.cmd().del(RedisKeys.order("r-1"));
        }
        RemoteReconciliation recon = new RemoteReconciliation(as(olga));
        List<String> phases = new ArrayList<>();
        ReconReport report = recon.run(null, (phase, d, t) -> phases.add(phase), () -> false);
        assertThat(report.counts().get(ReconCategory.MISSING_IN_REDIS)).isEqualTo(1);
        assertThat(report.findings(ReconCategory.MISSING_IN_REDIS)).extracting(f -> f.orderId()).containsExactly("r-1");
        assertThat(recon.preview(report, ReconCategory.MISSING_IN_REDIS)).isEqualTo(1);
        var result = recon.repair(olga, report, ReconCategory.MISSING_IN_REDIS, "", ReconProgress.NONE, () -> false);
        assertThat(result.repaired()).isEqualTo(1);
        assertThat(local.orders().lookup("r-1").summary().redisStatus()).isEqualTo(OrderStatus.WAIT_PAY);

        ReconReport filtered = recon.run(new com.orderconsole.service.order.OrderQuery(null, "r-2", java.util.Set.of(), false, null,
                null, false, false), ReconProgress.NONE, () -> false);
        assertThat(filtered.filtered()).isTrue();
        assertThat(filtered.ordersCompared()).isEqualTo(1);

        int port = h.port();
        h.stopApi();
        h.startApi(port);
        assertThatThrownBy(() -> recon.plan(report, ReconCategory.MISSING_IN_REDIS))
                .as("serve forgot its runs when it restarted").isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("start one");
    }

    @Test
    void deadLettersOnProductionAndAWrongCountIsNotConfirmed() throws Exception {
        local.orders().create(setup, "d-1", null, Duration.ofMinutes(30));
        try (RawRedis raw = new RawRedis()) {
            raw.cmd().xadd(RedisKeys.outbox(RedisKeys.bucket("d-1")), java.util.Map.of("o", "d-1", "f", "7", "t", "2", "v", "9", "c", "1",
                    "a", "x", "s", "t", "r", "", "ts", "1"));
        }
        org.awaitility.Awaitility.await().atMost(Duration.ofSeconds(20)).until(() -> local.deadLetters().countOpen() == 1);
        RemoteDeadLetters letters = new RemoteDeadLetters(as(olga));
        assertThat(letters.countOpen()).isEqualTo(1);
        long id = letters.open(10).get(0).id();
        assertThat(letters.discard(olga, id, "written by an old script").state()).isEqualTo("DISCARDED");
        assertThat(letters.countOpen()).isZero();
        assertThatThrownBy(() -> letters.retry(olga, id)).isInstanceOf(IllegalArgumentException.class);

        // A count other than serve's own: serve refuses it (428), as the console's typed-count check would.
        var serve = as(olga);
        assertThatThrownBy(() -> {
            try {
                serve.post("/v1/cancel-queue/pause", java.util.Map.of("reason", "x", "confirmCount", 2));
            } catch (ApiRefusal r) {
                throw Refusals.of(r);
            }
        }).isInstanceOf(NotConfirmedException.class).hasMessageContaining("confirmCount");
    }

    /** Cancelling a comparison stops it on serve at its next page: the report says cancelled and covers what was compared. */
    @Test
    void aCancelledComparisonStopsOnServeAndItsReportSaysSo() {
        for (int i = 0; i < 2500; i++) {
            local.orders().create(setup, "c-" + i, null, Duration.ofMinutes(30));
        }
        RemoteReconciliation recon = new RemoteReconciliation(as(olga));
        long t0 = System.nanoTime();
        ReconReport r = recon.run(null, ReconProgress.NONE, () -> true);
        System.out.println("[measured] cancelled remote comparison answered in " + (System.nanoTime() - t0) / 1_000_000 + " ms");
        assertThat(r.cancelled()).isTrue();
        assertThat(r.ordersCompared()).isLessThan(2500);
    }
}
