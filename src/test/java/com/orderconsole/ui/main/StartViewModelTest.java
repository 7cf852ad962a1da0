package com.orderconsole.ui.main;

import com.orderconsole.TestServers;
import com.orderconsole.app.Engine;
import com.orderconsole.domain.Environment;
import com.orderconsole.domain.Operator;
import com.orderconsole.domain.OrderStatus;
import com.orderconsole.domain.Role;
import com.orderconsole.ui.ConsoleContext;
import com.orderconsole.ui.DirectBackground;
import com.orderconsole.ui.ScriptedDialogs;
import com.orderconsole.ui.graph.StateGraphViewModel;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/** The splash's model: engine start, the first-start import of the bundled sample with progress, failure in words. */
class StartViewModelTest {
    private Engine engine;
    private String note;

    @AfterEach
    void close() {
        if (engine != null) {
            engine.close();
        }
    }

    @Test
    void aFirstStartImportsTheSampleWithProgressAndTheGraphCountsIt() {
        TestServers.reset();
        StartViewModel vm = new StartViewModel(new DirectBackground());
        List<Double> progress = new ArrayList<>();
        vm.progressProperty().addListener((o, a, v) -> progress.add(v.doubleValue()));

        vm.start(TestServers.config(), Environment.LOCAL, this::ready);

        assertThat(engine).isNotNull();
        assertThat(note).startsWith("First start: imported 4,998 Olist sample orders in ");
        assertThat(vm.statusProperty().get()).isEqualTo("First start: importing the Olist sample, 4,998 / 4,998 orders");
        assertThat(progress).hasSizeGreaterThan(2).isSorted().endsWith(1.0);
        assertThat(vm.failureProperty().get()).isEmpty();

        MainViewModel main = new MainViewModel(new ConsoleContext(engine.services(), new Operator("olga", Role.OPS),
                new DirectBackground(), new ScriptedDialogs()));
        main.start();
        StateGraphViewModel.Snapshot s = main.graph().snapshotProperty().get();
        assertThat(Arrays.stream(OrderStatus.values()).mapToLong(s::liveCount).sum()).isEqualTo(4998);
        assertThat(s.liveCount(OrderStatus.FINISHED)).isEqualTo(4856);
    }

    @Test
    void aFirstStartOnStagingOrProductionImportsNothing() {
        for (Environment.Kind kind : new Environment.Kind[]{Environment.Kind.STAGING, Environment.Kind.PRODUCTION}) {
            TestServers.reset();
            StartViewModel vm = new StartViewModel(new DirectBackground());

            vm.start(TestServers.config(), new Environment("prod-eu", kind, kind.defaultColour()), this::ready);

            assertThat(note).as(kind.key()).isEmpty();
            assertThat(engine.services().monitor().mysqlCounts().values().stream().mapToLong(Long::longValue).sum())
                    .as("an empty %s database stays empty", kind.key()).isZero();
            assertThat(engine.services().orders().page(com.orderconsole.service.order.OrderQuery.all(), null, 10).rows())
                    .as("nothing in Redis either").isEmpty();
            engine.close();
            engine = null;
        }
    }

    @Test
    void aLaterStartImportsNothingAndHasNothingToSay() {
        try (Engine first = TestServers.freshEngine()) {
            first.services().orders().create(new Operator("setup", Role.SUPPORT), "kept-1", null, Duration.ofMinutes(30));
        }
        StartViewModel vm = new StartViewModel(new DirectBackground());

        vm.start(TestServers.config(), Environment.LOCAL, this::ready);

        assertThat(note).isEmpty();
        assertThat(engine.services().monitor().mysqlCounts().values().stream().mapToLong(Long::longValue).sum()).isEqualTo(1);
    }

    @Test
    void anEngineThatCannotStartSaysWhyAndOpensNothing() {
        StartViewModel vm = new StartViewModel(new DirectBackground());

        vm.start(TestServers.config().withServers("redis://127.0.0.1:1", TestServers.mariaDb().jdbcUrl(), "root", ""),
                Environment.LOCAL, this::ready);

        assertThat(engine).isNull();
        assertThat(vm.failureProperty().get()).startsWith("Could not start the engine: ").doesNotContain("Exception");
        assertThat(vm.statusProperty().get()).isEqualTo(vm.failureProperty().get());
    }

    private void ready(Engine started, String text) {
        engine = started;
        note = text;
    }
}
