package com.orderconsole.ui.queue;

import com.orderconsole.domain.HistoryEntry;
import com.orderconsole.domain.Operator;
import com.orderconsole.domain.OrderStatus;
import com.orderconsole.domain.Role;
import com.orderconsole.service.order.OrderSummary;
import com.orderconsole.service.queue.QueueItem;
import com.orderconsole.service.queue.SweeperStatus;
import com.orderconsole.RawSql;
import com.orderconsole.ui.ScriptedDialogs;
import com.orderconsole.ui.BothModes;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedClass;
import org.junit.jupiter.params.provider.EnumSource;

import java.time.Duration;

import static org.assertj.core.api.Assertions.assertThat;

@ParameterizedClass(name = "{0}")
@EnumSource(BothModes.Mode.class)
class CancelQueueViewModelTest extends BothModes {

    private CancelQueueViewModel queue(String name, Role role) {
        Operator who = new Operator(name, role);
        return new CancelQueueViewModel(queue(who), who, background, dialogs);
    }

    @Test
    void readsSummaryEntriesAndDepthHistory() {
        createOrder("e-1");
        createOrder("e-2");
        CancelQueueViewModel vm = queue("olga", Role.OPS);
        vm.refresh();
        vm.refresh();
        assertThat(vm.summaryProperty().get().depth()).isEqualTo(2);
        assertThat(vm.entries()).extracting(QueueItem::orderId).containsExactlyInAnyOrder("e-1", "e-2");
        assertThat(vm.entries()).noneMatch(QueueItem::stale);
        assertThat(vm.depthHistory()).hasSize(2).allMatch(s -> s.depth() == 2);
    }

    /**
     * Issue 26 (e): the page listed only the 200 soonest entries, with no notice, no paging and no search; with 450
     * entries Next reaches every one, the count says which are shown of how many, and an id finds its entry.
     */
    @Test
    void pagesThroughEveryEntryCountsThemAndFindsOneById() {
        try (com.orderconsole.RawRedis raw = new com.orderconsole.RawRedis()) {
            for (int i = 0; i < 450; i++) {
                String id = String.format("pq-%03d", i);
                raw.cmd().zadd(com.orderconsole.redis.RedisKeys.cancelQueue(com.orderconsole.redis.RedisKeys.bucket(id)),
                        4_000_000_000_000L + i, id);
            }
        }
        CancelQueueViewModel vm = queue("olga", Role.OPS);
        vm.refresh();
        assertThat(vm.entries()).hasSize(200);
        assertThat(vm.countTextProperty().get()).isEqualTo("Entries 1–200 of 450");
        vm.pager().next();
        vm.pager().next();
        assertThat(vm.entries()).extracting(QueueItem::orderId).hasSize(50).first().isEqualTo("pq-400");
        assertThat(vm.countTextProperty().get()).isEqualTo("Entries 401–450 of 450");
        vm.selectedProperty().set(vm.entries().get(3));
        vm.refresh();
        assertThat(vm.pager().pageNumberProperty().get()).as("a refresh stays on the page").isEqualTo(3);
        assertThat(vm.selectedProperty().get().orderId()).isEqualTo("pq-403");

        vm.idTextProperty().set("pq-123");
        vm.search();
        assertThat(vm.entries()).extracting(QueueItem::orderId).containsExactly("pq-123");
        assertThat(vm.countTextProperty().get()).isEqualTo("The queue entry of order pq-123");
        vm.idTextProperty().set("nope-1");
        vm.search();
        assertThat(vm.entries()).isEmpty();
        assertThat(vm.countTextProperty().get()).isEqualTo("Order nope-1 has no entry in the cancel queue.");
        vm.idTextProperty().set("pq*1");
        vm.search();
        assertThat(vm.feedback().messageProperty().get()).contains("pq*1");
        vm.showAll();
        assertThat(vm.entries()).hasSize(200);
        assertThat(vm.pager().pageNumberProperty().get()).isEqualTo(1);
    }

    @Test
    void sweeperStateInWords() {
        long now = 1_000_000;
        assertThat(CancelQueueViewModel.sweeperText(new SweeperStatus(false, false, null, null, 0, 0), now))
                .startsWith("No sweeper has run yet");
        assertThat(CancelQueueViewModel.sweeperText(new SweeperStatus(true, false, now - 1000, "p", 0, 0), now))
                .isEqualTo("Sweeper running (this console)");
        assertThat(CancelQueueViewModel.sweeperText(new SweeperStatus(false, false, now - 120_000, "42@cli-host", 0, 0), now))
                .isEqualTo("Sweeper silent for 2 min (last: 42@cli-host)");
        assertThat(CancelQueueViewModel.sweeperText(new SweeperStatus(false, true, now - 1000, "p", 0, 0), now))
                .isEqualTo("Sweeper PAUSED");
    }

    @Test
    void extendAndRemoveChangeTheQueue() {
        createOrder("e-3");
        CancelQueueViewModel vm = queue("olga", Role.OPS);
        vm.refresh();
        long before = vm.entries().get(0).expireAtMs();

        vm.extend("e-3", Duration.ofHours(1), "customer asked for time");
        assertThat(vm.feedback().messageProperty().get()).startsWith("Order e-3 now expires at");
        assertThat(vm.entries().get(0).expireAtMs()).isEqualTo(before + 3_600_000L);

        vm.remove("e-3", "paid by bank transfer");
        assertThat(vm.feedback().messageProperty().get()).isEqualTo("Removed the queue entry of order e-3.");
        assertThat(vm.entries()).isEmpty();
        assertThat(services.orders().lookup("e-3").summary().redisStatus()).as("the order itself is untouched")
                .isEqualTo(OrderStatus.WAIT_PAY);
    }

    @Test
    void supportIsRefusedByTheServiceInWords() {
        createOrder("e-4");
        CancelQueueViewModel vm = queue("alice", Role.SUPPORT);
        assertThat(vm.canAct()).isFalse();
        vm.cancelNow("e-4", "no");
        assertThat(vm.feedback().errorProperty().get()).isTrue();
        assertThat(vm.feedback().messageProperty().get())
                .isEqualTo("Could not cancel order e-4: alice (support) may not cancel orders from the queue: needs role ops");
        assertThat(services.orders().lookup("e-4").summary().redisStatus()).isEqualTo(OrderStatus.WAIT_PAY);
    }

    @Test
    void cancellingAnOrderThatWasPaidIsRefusedAndItsEntryIsGone() {
        createOrder("e-5");
        CancelQueueViewModel vm = queue("olga", Role.OPS);
        vm.refresh();
        move("e-5", OrderStatus.PAID);
        vm.cancelNow("e-5", "too late");
        assertThat(vm.feedback().errorProperty().get()).isTrue();
        // Refused because it is no longer unpaid (the cancel is a compare-and-set on WAIT_PAY), whatever the rules allow.
        assertThat(vm.feedback().messageProperty().get()).startsWith("Order e-5: Not applied: order changed since it was read");
        assertThat(vm.entries()).isEmpty();
    }

    @Test
    void cancellingTheSelectedEntryAsksForAReasonFirst() {
        createOrder("e-6");
        createOrder("e-7");
        CancelQueueViewModel vm = queue("olga", Role.OPS);
        vm.refresh();
        select(vm, "e-6");
        dialogs.reason("fraud check failed");
        vm.cancelSelected();

        assertThat(dialogs.asked()).singleElement().extracting(ScriptedDialogs.Question::confirmLabel).isEqualTo("Cancel order");
        assertThat(vm.feedback().messageProperty().get()).isEqualTo("Order e-6 cancelled (version 2).");
        assertThat(services.orders().lookup("e-6").summary().redisStatus()).isEqualTo(OrderStatus.CANCELLED);
        services.follower().drainOnce();
        assertThat(services.orders().lookup("e-6").history()).last().extracting(HistoryEntry::reason)
                .isEqualTo("fraud check failed");
        assertThat(vm.entries()).extracting(QueueItem::orderId).containsExactly("e-7");
    }

    @Test
    void declinedCancelAndRemoveLeaveTheOrderAndItsEntryAlone() {
        createOrder("e-8");
        CancelQueueViewModel vm = queue("olga", Role.OPS);
        vm.refresh();
        select(vm, "e-8");
        dialogs.cancel().cancel().cancel();
        vm.cancelSelected();
        vm.removeSelected();
        vm.extendSelected();

        assertThat(dialogs.asked()).extracting(ScriptedDialogs.Question::kind).containsExactly("reason", "reason", "reason");
        OrderSummary s = services.orders().lookup("e-8").summary();
        assertThat(s.redisStatus()).isEqualTo(OrderStatus.WAIT_PAY);
        assertThat(s.redisVersion()).isEqualTo(1);
        assertThat(s.mysqlStatus()).isEqualTo(OrderStatus.WAIT_PAY);
        assertThat(s.mysqlVersion()).isEqualTo(1);
        assertThat(services.queue().page(null, 10).items()).extracting(QueueItem::orderId).containsExactly("e-8");
        assertThat(vm.feedback().messageProperty().get()).isEmpty();
    }

    @Test
    void aConfirmedRemoveTakesTheEntryOutAndLeavesTheOrder() {
        createOrder("e-9");
        CancelQueueViewModel vm = queue("olga", Role.OPS);
        vm.refresh();
        select(vm, "e-9");
        dialogs.reason("paid by bank transfer");
        vm.removeSelected();

        assertThat(vm.feedback().messageProperty().get()).isEqualTo("Removed the queue entry of order e-9.");
        assertThat(RawSql.column("SELECT CONCAT(actor, '|', source, '|', reason) FROM audit_log WHERE order_id = 'e-9'"))
                .containsExactly("olga|" + source() + "|paid by bank transfer");
        assertThat(services.queue().page(null, 10).items()).isEmpty();
        assertThat(services.orders().lookup("e-9").summary().redisStatus()).isEqualTo(OrderStatus.WAIT_PAY);
    }

    /** Issue 12, minor: extending asks for a reason and records who and why. */
    @Test
    void extendingTheSelectedEntryAsksForAReasonAndRecordsIt() {
        createOrder("e-10");
        CancelQueueViewModel vm = queue("olga", Role.OPS);
        vm.refresh();
        long before = vm.entries().get(0).expireAtMs();
        select(vm, "e-10");
        vm.extendByProperty().set(Duration.ofHours(1));
        dialogs.reason("customer asked for a day");
        vm.extendSelected();

        assertThat(dialogs.asked()).singleElement().extracting(ScriptedDialogs.Question::confirmLabel).isEqualTo("Extend by 1 h");
        assertThat(vm.entries().get(0).expireAtMs()).isEqualTo(before + 3_600_000L);
        assertThat(RawSql.column("SELECT CONCAT(actor, '|', source, '|', reason) FROM audit_log WHERE order_id = 'e-10'"))
                .containsExactly("olga|" + source() + "|customer asked for a day");
    }

    /** Issue 12, major 1: a reading keeps the selected entry (as now read), so the actions stay enabled. */
    @Test
    void theSelectedEntrySurvivesARefreshWithItsNewState() {
        createOrder("e-11");
        createOrder("e-12");
        CancelQueueViewModel vm = queue("olga", Role.OPS);
        vm.refresh();
        select(vm, "e-12");
        long before = vm.selectedProperty().get().expireAtMs();
        Operator setup = new Operator("setup", Role.OPS);
        services.queue().extend(setup, "e-12", Duration.ofHours(1), "test", "elsewhere");
        vm.refresh();
        assertThat(vm.selectedProperty().get()).isNotNull();
        assertThat(vm.selectedProperty().get().orderId()).isEqualTo("e-12");
        assertThat(vm.selectedProperty().get().expireAtMs()).as("the entry as now read").isEqualTo(before + 3_600_000L);
        assertThat(vm.entryCommand().executableProperty().get()).isTrue();

        services.queue().remove(setup, "e-12", "test", "gone");
        vm.refresh();
        assertThat(vm.selectedProperty().get()).as("an entry that left the queue is no longer selected").isNull();
    }

    /** Issue 12, cosmetic: readings far apart are not joined by a straight line across the gap. */
    @Test
    void aLongGapBetweenReadingsStartsTheDepthChartAfresh() {
        CancelQueueViewModel vm = queue("olga", Role.OPS);
        vm.refresh();
        vm.depthHistory().set(0, new CancelQueueViewModel.DepthSample(vm.depthHistory().get(0).atMs() - 60_000, 0, 0));
        vm.refresh();
        assertThat(vm.depthHistory()).hasSize(1);
    }

    private static final com.orderconsole.domain.Environment PROD =
            new com.orderconsole.domain.Environment("prod-eu", com.orderconsole.domain.Environment.Kind.PRODUCTION, "#c62828");

    /**
     * Issue 34: on production "Pause sweeper" was one click with an empty reason in the audit trail, and resume and
     * remove were as light. Each now asks a reason, then the environment's name (sweeper) or the order id (entry) typed;
     * the audit row keeps the reason, and a wrong text changes nothing.
     */
    @Test
    void onProductionPauseResumeAndRemoveTakeAReasonAndTypedTextAndAreAuditedWithIt() {
        dialogs.on(PROD);
        createOrder("pr-1");
        CancelQueueViewModel vm = queue("olga", Role.OPS);
        vm.refresh();

        dialogs.reason("carrier outage").typed("prod-e");
        vm.toggleSweeper();
        assertThat(services.sweeper().status().paused()).as("half the name typed: nothing").isFalse();

        dialogs.reason("carrier outage").typed("prod-eu");
        vm.toggleSweeper();
        assertThat(services.sweeper().status().paused()).isTrue();
        assertThat(dialogs.asked()).extracting(ScriptedDialogs.Question::kind).containsExactly("reason", "typed", "reason", "typed");
        assertThat(dialogs.asked().get(3).details()).isEqualTo("prod-eu");
        assertThat(dialogs.asked().get(2).statement()).contains("prod-eu").contains("serve");
        assertThat(vm.sweeperFeedback().messageProperty().get()).startsWith("Cancel sweeper paused");
        assertThat(vm.feedback().messageProperty().get()).as("told beside the sweeper's button, not under the table").isEmpty();

        dialogs.reason("outage over").typed("prod-eu");
        vm.toggleSweeper();
        assertThat(services.sweeper().status().paused()).isFalse();

        select(vm, "pr-1");
        dialogs.reason("paid by bank transfer").typed("pr-2");
        vm.removeSelected();
        assertThat(services.queue().find("pr-1")).as("the wrong id typed: the entry stays").isPresent();
        dialogs.reason("paid by bank transfer").typed("pr-1");
        vm.removeSelected();
        assertThat(services.queue().find("pr-1")).isEmpty();

        assertThat(RawSql.column("SELECT CONCAT(actor, '|', action, '|', reason) FROM audit_log ORDER BY id"))
                .containsExactly("olga|SWEEPER_PAUSE|carrier outage", "olga|SWEEPER_RESUME|outage over",
                        "olga|QUEUE_REMOVE|paid by bank transfer");
    }

    /** Off production the sweeper still asks a reason (the audit row keeps it), but nothing is typed. */
    @Test
    void offProductionPausingAsksAReasonOnly() {
        CancelQueueViewModel vm = queue("olga", Role.OPS);
        vm.refresh();
        dialogs.cancel();
        vm.toggleSweeper();
        assertThat(services.sweeper().status().paused()).isFalse();
        dialogs.reason("load test");
        vm.toggleSweeper();
        assertThat(services.sweeper().status().paused()).isTrue();
        assertThat(dialogs.asked()).extracting(ScriptedDialogs.Question::kind).containsExactly("reason", "reason");
        assertThat(RawSql.column("SELECT reason FROM audit_log")).containsExactly("load test");
    }

    /**
     * Issue 34: under traffic the count said "of 388" beside a Depth of 312 (pages are read at different times), and a
     * later page emptied by the sweeper said "the cancel queue is empty". The count never exceeds the depth now, and an
     * emptied page goes back to the first.
     */
    @Test
    void theCountNeverClaimsMoreThanTheDepthAndAnEmptiedPageGoesBackToTheFirst() {
        try (com.orderconsole.RawRedis raw = new com.orderconsole.RawRedis()) {
            for (int i = 0; i < 250; i++) {
                String id = String.format("cq-%03d", i);
                raw.cmd().zadd(com.orderconsole.redis.RedisKeys.cancelQueue(com.orderconsole.redis.RedisKeys.bucket(id)),
                        4_000_000_000_000L + i, id);
            }
        }
        CancelQueueViewModel vm = queue("olga", Role.OPS);
        vm.refresh();
        vm.pager().next();
        assertThat(vm.countTextProperty().get()).isEqualTo("Entries 201–250 of 250");
        // The sweeper (here: a script) takes 100 of the first page's entries.
        try (com.orderconsole.RawRedis raw = new com.orderconsole.RawRedis()) {
            for (int i = 0; i < 100; i++) {
                String id = String.format("cq-%03d", i);
                raw.cmd().zrem(com.orderconsole.redis.RedisKeys.cancelQueue(com.orderconsole.redis.RedisKeys.bucket(id)), id);
            }
        }
        vm.refresh();
        assertThat(vm.summaryProperty().get().depth()).isEqualTo(150);
        assertThat(vm.countTextProperty().get()).doesNotContain("of 250").contains("150 in the queue now");
        // Then every entry of page 2.
        try (com.orderconsole.RawRedis raw = new com.orderconsole.RawRedis()) {
            for (int i = 200; i < 250; i++) {
                String id = String.format("cq-%03d", i);
                raw.cmd().zrem(com.orderconsole.redis.RedisKeys.cancelQueue(com.orderconsole.redis.RedisKeys.bucket(id)), id);
            }
        }
        vm.refresh();
        assertThat(vm.pager().pageNumberProperty().get()).isEqualTo(1);
        assertThat(vm.entries()).hasSize(100);
        assertThat(vm.countTextProperty().get()).isEqualTo("Entries 1–100 of 100");
    }

    /**
     * Issue 34: during a Redis stall the tiles went on saying "last tick 0 s ago"; a failed reading marks them as old
     * and the next good one takes its error back (an action's outcome is not touched by readings).
     */
    @Test
    void aFailedReadingMarksTheTilesOldAndTheNextGoodOneClearsItsError() {
        createOrder("st-1");
        CancelQueueViewModel vm = queue("olga", Role.OPS);
        vm.refresh();
        assertThat(vm.staleProperty().get()).isFalse();
        com.orderconsole.TestServers.redis().stop();
        try {
            vm.refresh();
            assertThat(vm.staleProperty().get()).isTrue();
            assertThat(vm.feedback().errorProperty().get()).isTrue();
        } finally {
            com.orderconsole.TestServers.redis().start();
        }
        org.awaitility.Awaitility.await().atMost(Duration.ofSeconds(20)).untilAsserted(() -> {
            vm.refresh();
            assertThat(vm.staleProperty().get()).isFalse();
        });
        assertThat(vm.feedback().messageProperty().get()).as("the reading's error goes with a good reading").isEmpty();
    }

    /** @return the source the audit trail records: the console's, or serve's (whose actor names the client a person used) */
    private String source() {
        return viaServe() ? "api" : "console";
    }

    private static void select(CancelQueueViewModel vm, String orderId) {
        vm.selectedProperty().set(vm.entries().stream().filter(i -> i.orderId().equals(orderId)).findFirst().orElseThrow());
    }
}
