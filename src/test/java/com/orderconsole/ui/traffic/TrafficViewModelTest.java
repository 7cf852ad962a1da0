package com.orderconsole.ui.traffic;

import com.orderconsole.domain.Environment;
import com.orderconsole.domain.Operator;
import com.orderconsole.domain.Role;
import com.orderconsole.service.traffic.SimulatorSettings;
import com.orderconsole.ui.ViewModelTestBase;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/** The live-traffic panel's model: settings in words, start and stop, refusal below ops. */
class TrafficViewModelTest extends ViewModelTestBase {

    private TrafficViewModel traffic(String name, Role role) {
        return new TrafficViewModel(services.simulator(), new Operator(name, role), background, dialogs);
    }

    @AfterEach
    void stopSimulator() {
        services.simulator().stop();
    }

    @Test
    void startsAtTheTypedRateCountsAndStops() {
        TrafficViewModel vm = traffic("olga", Role.OPS);
        vm.rateProperty().set("20");
        vm.payPercentProperty().set("70");
        vm.latePayPercentProperty().set("10");
        vm.timeoutProperty().set("20 s");

        vm.start();
        assertThat(vm.feedback().errorProperty().get()).as(vm.feedback().messageProperty().get()).isFalse();
        assertThat(vm.feedback().messageProperty().get())
                .isEqualTo("Running: 20 orders/s, 70 % pay in time, 10 % pay late, payment timeout 20 s.");
        assertThat(vm.statusProperty().get().running()).isTrue();
        assertThat(services.simulator().status().running()).isTrue();

        await().atMost(20, TimeUnit.SECONDS).until(() -> {
            vm.refresh();
            return vm.statusProperty().get().created() > 0;
        });
        vm.stop();
        assertThat(vm.statusProperty().get().running()).isFalse();
        assertThat(services.simulator().status().running()).isFalse();
        assertThat(vm.statusProperty().get().created()).isPositive();
        assertThat(services.monitor().stateCounts().live().values().stream().mapToLong(Long::longValue).sum())
                .isEqualTo(vm.statusProperty().get().created());
    }

    @Test
    void theFieldsStartAtTheDemoSettings() {
        TrafficViewModel vm = traffic("olga", Role.OPS);
        assertThat(vm.settings()).isEqualTo(SimulatorSettings.demo());
        assertThat(vm.timeoutProperty().get()).isEqualTo("20 s");
    }

    @Test
    void badSettingsAreNamedInWordsAndNothingStarts() {
        TrafficViewModel vm = traffic("olga", Role.OPS);
        vm.rateProperty().set("fast");
        vm.start();
        assertThat(vm.feedback().messageProperty().get()).isEqualTo("Rate must be a number, not 'fast'.");
        assertThat(vm.feedback().errorProperty().get()).isTrue();

        vm.rateProperty().set("500");
        vm.start();
        assertThat(vm.feedback().messageProperty().get()).isEqualTo("Rate must be more than 0 and at most 200 orders/s, not 500.");

        vm.rateProperty().set("2.5");
        vm.payPercentProperty().set("90");
        vm.latePayPercentProperty().set("20");
        vm.start();
        assertThat(vm.feedback().messageProperty().get()).isEqualTo("Pay in time and pay late add up to 110 %; together they can be at most 100 %.");

        vm.latePayPercentProperty().set("5");
        vm.timeoutProperty().set("soon");
        vm.start();
        assertThat(vm.feedback().messageProperty().get()).startsWith("'soon' is not a duration");
        assertThat(services.simulator().status().running()).isFalse();

        vm.timeoutProperty().set("5 s");
        assertThat(vm.settings()).isEqualTo(new SimulatorSettings(2.5, 0.9, 0.05, Duration.ofSeconds(5)));
    }

    @Test
    void supportIsNotOfferedTheSimulatorAndTheServiceRefusesIt() {
        TrafficViewModel vm = traffic("alice", Role.SUPPORT);
        assertThat(vm.canRun()).isFalse();
        vm.start();
        assertThat(vm.feedback().messageProperty().get()).startsWith("Could not start the traffic simulator: ").doesNotContain("Exception");
        assertThat(services.simulator().status().running()).isFalse();
    }

    @Test
    void onProductionTheButtonIsDisabledWithTheReasonAndNothingStarts() {
        dialogs.on(Environment.external("prod-eu"));
        TrafficViewModel vm = traffic("ada", Role.ADMIN);
        vm.refresh();
        assertThat(vm.startCommand().executableProperty().get()).as("start disabled on production").isFalse();
        assertThat(vm.refusal()).contains("prod-eu").contains("fake orders");
        assertThat(vm.feedback().messageProperty().get()).as("the reason is shown beside the button").isEqualTo(vm.refusal());

        vm.start();
        assertThat(services.simulator().status().running()).isFalse();
        assertThat(dialogs.asked()).as("nothing asked: refused outright").isEmpty();
    }

    @Test
    void onStagingTheEnvironmentsNameMustBeTypedFirst() {
        dialogs.on(new Environment("stage-eu", Environment.Kind.STAGING, Environment.Kind.STAGING.defaultColour()));
        TrafficViewModel vm = traffic("olga", Role.OPS);
        vm.refresh();
        assertThat(vm.startCommand().executableProperty().get()).isTrue();

        dialogs.typed("stage");
        vm.start();
        assertThat(dialogs.asked().get(0).kind()).isEqualTo("typed");
        assertThat(dialogs.asked().get(0).details()).as("what must be typed").isEqualTo("stage-eu");
        assertThat(services.simulator().status().running()).as("a wrong text starts nothing").isFalse();

        dialogs.typed("stage-eu");
        vm.start();
        assertThat(services.simulator().status().running()).isTrue();
    }
}
