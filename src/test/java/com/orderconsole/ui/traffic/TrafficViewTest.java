package com.orderconsole.ui.traffic;

import com.orderconsole.domain.Role;
import com.orderconsole.ui.ConsoleFxTest;
import com.orderconsole.ui.CutTexts;
import org.testfx.util.WaitForAsyncUtils;

import java.util.ArrayList;
import java.util.List;
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

    /**
     * Running, the panel shows a settings line and the help below it; at 1280x800 a real window showed both cut
     * with "…" (the VBox squeezed each wrapped label to one line). They wrap whole now, and the panel scrolls.
     */
    @Test
    void theRunningPanelShowsItsTextsWholeAt1280x800() throws Exception {
        openConsole("olga", Role.OPS);
        waitUntil(() -> "Stopped".equals(text("#trafficState")));
        interact(() -> lookup("#rateField").<TextField>query().setText("1"));
        clickOn("#startTrafficButton");
        waitUntil(() -> "Running".equals(text("#trafficState")));
        WaitForAsyncUtils.waitForFxEvents();
        List<String> cut = new ArrayList<>();
        onFx(() -> {
            view.root().getScene().getRoot().layout();
            CutTexts.collect(view.root(), "state graph, traffic running, at 1280x800", cut);
            return null;
        });
        assertThat(cut).as("text cut short with …").isEmpty();
    }

    @Test
    void supportDoesNotSeeTheTrafficPanel() throws Exception {
        openConsole("alice", Role.SUPPORT);
        waitUntil(() -> "0".equals(text("#count-WAIT_PAY")));
        assertThat(shown("#startTrafficButton")).isFalse();
        assertThat(shown("#trafficState")).isFalse();
    }
}
