package com.orderconsole.ui.main;

import com.orderconsole.RawRedis;
import com.orderconsole.domain.Environment;
import com.orderconsole.domain.Operator;
import com.orderconsole.domain.OrderStatus;
import com.orderconsole.domain.Role;
import com.orderconsole.redis.RedisKeys;
import com.orderconsole.service.queue.QueueItem;
import com.orderconsole.service.recon.ReconCategory;
import com.orderconsole.service.order.OrderQuery;
import com.orderconsole.ui.ConsoleContext;
import com.orderconsole.ui.ScriptedDialogs;
import com.orderconsole.ui.ViewModelTestBase;
import com.orderconsole.ui.order.OrderDetailViewModel;
import com.orderconsole.ui.queue.CancelQueueViewModel;
import com.orderconsole.ui.recon.ReconciliationViewModel;
import com.orderconsole.ui.signin.SignInViewModel;
import com.orderconsole.TestServers;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * On a production profile the risky actions ask for the order id or the count to be typed; elsewhere they
 * do not. The band's text, the alert notices and the role offered at sign-in follow the environment.
 */
class ProductionGuardTest extends ViewModelTestBase {
    @org.junit.jupiter.api.BeforeEach
    void inEnglish() {
        com.orderconsole.app.Messages.use(java.util.Locale.ENGLISH);
    }

    private static final Environment PROD = new Environment("prod-eu", Environment.Kind.PRODUCTION, "#c62828");

    private OrderDetailViewModel detail(Role role) {
        return new OrderDetailViewModel(services.orders(), services.transitions(), new Operator("ada", role), background, dialogs);
    }

    @Test
    void anOverrideOnProductionNeedsTheOrderIdTyped() {
        dialogs.on(PROD);
        createOrder("p-1");
        OrderDetailViewModel vm = detail(Role.ADMIN);
        vm.load("p-1");
        vm.overrideTargetProperty().set(OrderStatus.SHIPPED);

        dialogs.reason("carrier confirmed by phone").typed("p-2");
        vm.askAndOverride();
        assertThat(dialogs.asked()).extracting(ScriptedDialogs.Question::kind).containsExactly("reason", "typed");
        assertThat(dialogs.asked().get(1).details()).as("the text to type").isEqualTo("p-1");
        assertThat(services.orders().lookup("p-1").summary().redisStatus()).as("wrong id typed: nothing changed")
                .isEqualTo(OrderStatus.WAIT_PAY);

        dialogs.reason("carrier confirmed by phone").typed("p-1");
        vm.askAndOverride();
        assertThat(services.orders().lookup("p-1").summary().redisStatus()).isEqualTo(OrderStatus.SHIPPED);
    }

    @Test
    void elsewhereAnOverrideAsksOnlyForItsReason() {
        createOrder("p-3");
        OrderDetailViewModel vm = detail(Role.ADMIN);
        vm.load("p-3");
        vm.overrideTargetProperty().set(OrderStatus.SHIPPED);
        dialogs.reason("test data");
        vm.askAndOverride();
        assertThat(dialogs.asked()).extracting(ScriptedDialogs.Question::kind).containsExactly("reason");
        assertThat(services.orders().lookup("p-3").summary().redisStatus()).isEqualTo(OrderStatus.SHIPPED);
    }

    @Test
    void aRepairOnProductionNeedsTheCountTyped() {
        dialogs.on(PROD);
        createOrder("p-4");
        createOrder("p-5");
        try (RawRedis r = new RawRedis()) {
            r.cmd().del(RedisKeys.order("p-4"), RedisKeys.order("p-5"));
        }
        ReconciliationViewModel vm = new ReconciliationViewModel(services.reconciliation(), new Operator("olga", Role.OPS), background,
                dialogs, OrderQuery::all);
        vm.run();
        vm.selectedProperty().set(ReconCategory.MISSING_IN_REDIS);
        dialogs.reason("Redis flushed by mistake").cancel();
        vm.repairSelected();
        assertThat(dialogs.asked()).extracting(ScriptedDialogs.Question::kind).containsExactly("reason", "typed");
        assertThat(dialogs.asked().get(1).details()).isEqualTo("2");
        try (RawRedis r = new RawRedis()) {
            assertThat(r.cmd().exists(RedisKeys.order("p-4"))).as("not typed: nothing repaired").isZero();
        }
        dialogs.reason("Redis flushed by mistake").typed("2");
        vm.repairSelected();
        try (RawRedis r = new RawRedis()) {
            assertThat(r.cmd().exists(RedisKeys.order("p-4"), RedisKeys.order("p-5"))).isEqualTo(2);
        }
    }

    @Test
    void aForcedCancelOnProductionNeedsTheOrderIdTyped() {
        dialogs.on(PROD);
        createOrder("p-6");
        CancelQueueViewModel vm = new CancelQueueViewModel(services.queue(), new Operator("olga", Role.OPS), background,
                dialogs);
        vm.refresh();
        QueueItem item = vm.entries().stream().filter(i -> i.orderId().equals("p-6")).findFirst().orElseThrow();
        vm.selectedProperty().set(item);
        dialogs.reason("customer asked").typed("p-6");
        vm.cancelSelected();
        assertThat(dialogs.asked()).extracting(ScriptedDialogs.Question::kind).containsExactly("reason", "typed");
        assertThat(services.orders().lookup("p-6").summary().redisStatus()).isEqualTo(OrderStatus.CANCELLED);
    }

    @Test
    void theShellNamesTheEnvironmentAndRaisesEachAlertOnce() throws Exception {
        MainViewModel vm = new MainViewModel(new ConsoleContext(services, new Operator("olga", Role.OPS), background, dialogs.on(PROD)));
        assertThat(vm.environmentText()).isEqualTo("prod-eu · production");
        assertThat(vm.environment().colour()).isEqualTo("#c62828");
        try (RawRedis raw = new RawRedis()) {
            long now = Long.parseLong(raw.cmd().time().get(0)) * 1000;
            raw.cmd().hset(RedisKeys.SWEEPER, "lastTick", Long.toString(now - 120_000));
            vm.tick();
            assertThat(vm.alerts().notices()).singleElement().satisfies(n -> {
                assertThat(n.raised()).isTrue();
                assertThat(n.title()).isEqualTo("Cancel sweeper stalled");
                assertThat(n.text()).startsWith("No cancel sweeper has ticked for 12").endsWith("unpaid orders are not being cancelled.");
            });
            Thread.sleep(1100);
            vm.tick();
            assertThat(vm.alerts().notices()).as("once per incident").hasSize(1);
            raw.cmd().hset(RedisKeys.SWEEPER, "lastTick", Long.toString(now + 1000));
            Thread.sleep(1100);
            vm.tick();
            assertThat(vm.alerts().notices()).hasSize(2).last().satisfies(n -> {
                assertThat(n.raised()).isFalse();
                assertThat(n.title()).isEqualTo("Cleared: Cancel sweeper stalled");
            });
        }
    }

    @Test
    void signInOnProductionOffersTheLowestRole() {
        var config = TestServers.config();
        assertThat(new SignInViewModel(config, background, true).roleProperty().get()).isEqualTo(Role.READ_ONLY);
        assertThat(new SignInViewModel(config, background, false).roleProperty().get()).as("elsewhere: the highest held").isNull();
        assertThat(new SignInViewModel(config.withRole(Role.SUPPORT), background, true).roleProperty().get())
                .as("a role asked for on the command line stays").isEqualTo(Role.SUPPORT);
    }
}
