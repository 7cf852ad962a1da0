package com.orderconsole.ui.traffic;

import com.orderconsole.domain.Role;
import com.orderconsole.ui.ConsoleFxTest;
import javafx.scene.control.TextField;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/** The live-traffic panel on the state-graph page: started orders move the graph; hidden below ops. */
class TrafficViewTest extends ConsoleFxTest {

    @AfterEach
    void stopSimulator() {
        services.simulator().stop();
    }

    @Test
    void opsStartsTrafficWatchesTheGraphMoveAndStopsIt() throws Exception {
        openConsole("olga", Role.OPS);
        waitUntil(() -> "0".equals(text("#count-WAIT_PAY")) && "Stopped".equals(text("#trafficState")));
        interact(() -> {
            lookup("#rateField").<TextField>query().setText("5");
            lookup("#timeoutField").<TextField>query().setText("20 s");
        });
        clickOn("#startTrafficButton");
        waitUntil(() -> "Running".equals(text("#trafficState")));
        assertThat(text("#trafficMessage")).startsWith("Running: 5 orders/s");
        assertThat(onFx(() -> lookup("#rateField").query().isDisabled())).as("settings locked while running").isTrue();

        // Auto-refresh is off in tests: each look asks for a fresh reading, as F5 would.
        waitUntil(() -> {
            vm.refresh();
            return !"0".equals(text("#count-WAIT_PAY")) || !"0".equals(text("#count-PAID"));
        });
        waitUntil(() -> {
            vm.refresh();
            return !"0".equals(text("#simCreated"));
        });

        clickOn("#stopTrafficButton");
        waitUntil(() -> "Stopped".equals(text("#trafficState")));
        assertThat(services.simulator().status().running()).isFalse();
        assertThat(text("#trafficMessage")).startsWith("Stopped.");
    }

    @Test
    void supportDoesNotSeeTheTrafficPanel() throws Exception {
        openConsole("alice", Role.SUPPORT);
        waitUntil(() -> "0".equals(text("#count-WAIT_PAY")));
        assertThat(shown("#startTrafficButton")).isFalse();
        assertThat(shown("#trafficState")).isFalse();
    }
}
