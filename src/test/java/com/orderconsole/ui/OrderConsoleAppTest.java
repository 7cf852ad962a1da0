package com.orderconsole.ui;

import com.orderconsole.StallingProxy;
import com.orderconsole.TestServers;
import com.orderconsole.app.Engine;
import com.orderconsole.app.EngineConfig;
import com.orderconsole.domain.Operator;
import com.orderconsole.domain.OrderStatus;
import com.orderconsole.domain.Role;
import com.orderconsole.ui.main.Page;
import javafx.application.Application;
import javafx.scene.input.KeyCode;
import javafx.stage.Window;
import org.junit.jupiter.api.Test;
import org.testfx.api.FxToolkit;
import org.testfx.util.WaitForAsyncUtils;

import java.time.Duration;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;

/** The application as launched, and the console while a server stops answering. */
class OrderConsoleAppTest extends ConsoleFxTest {

    @Test
    void aFirstLaunchImportsTheSampleBehindTheSplashAndOpensOnIt() throws Exception {
        assertThat(services.monitor().mysqlCounts().values()).as("the test store starts empty").containsOnly(0L);
        OrderConsoleApp.configure(TestServers.config(), new Operator("launch-test", Role.SUPPORT));
        Application app = FxToolkit.setupApplication(OrderConsoleApp.class);
        try {
            waitUntil(() -> lookup("#nav-GRAPH").tryQuery().isPresent() && text("#redisStatus").equals("Redis UP"));
            waitUntil(() -> graphTotal() == 4998);
            assertThat(text("#count-FINISHED")).isEqualTo("4856");
            assertThat(text("#noticeLabel")).startsWith("First start: imported 4,998 Olist sample orders in ");
            assertThat(text("#operatorLabel")).isEqualTo("launch-test · support");
            assertThat(text("#mysqlStatus")).isEqualTo("MySQL UP");
            assertThat(text("#rulesStatus")).isEqualTo("Rules v1");
            assertThat(onFx(() -> Window.getWindows().stream().anyMatch(w -> w.isShowing()
                    && ((javafx.stage.Stage) w).getTitle().contains("launch-test")))).isTrue();
        } finally {
            FxToolkit.cleanupApplication(app);
        }
    }

    @Test
    void closingTheAppStopsTheTrafficSimulator() throws Exception {
        OrderConsoleApp.configure(TestServers.config(), new Operator("launch-ops", Role.OPS));
        Application app = FxToolkit.setupApplication(OrderConsoleApp.class);
        try {
            waitUntil(() -> "Stopped".equals(text("#trafficState")));
            clickOn("#startTrafficButton");
            waitUntil(() -> "Running".equals(text("#trafficState")));
            assertThat(simulatorThreadAlive()).isTrue();
        } finally {
            FxToolkit.cleanupApplication(app);
        }
        WaitForAsyncUtils.waitFor(WAIT_S, TimeUnit.SECONDS, () -> !simulatorThreadAlive());
    }

    private static boolean simulatorThreadAlive() {
        return Thread.getAllStackTraces().keySet().stream().anyMatch(t -> t.isAlive() && t.getName().equals("traffic-simulator"));
    }

    /** @return the live counts on the state graph added up, -1 while a status has no count yet */
    private long graphTotal() {
        long sum = 0;
        for (OrderStatus st : OrderStatus.values()) {
            String t = text("#count-" + st.name());
            if (t == null || t.isEmpty()) {
                return -1;
            }
            sum += Long.parseLong(t);
        }
        return sum;
    }

    @Test
    void showsRedisDownAndStaysUsableWhileRedisDoesNotAnswer() throws Exception {
        try (StallingProxy proxy = new StallingProxy(TestServers.redis().port())) {
            EngineConfig cfg = TestServers.config()
                    .withServers("redis://127.0.0.1:" + proxy.port(), TestServers.mariaDb().jdbcUrl(), "root", "")
                    .withCommandTimeout(Duration.ofMillis(500));
            try (Engine stalling = Engine.start(cfg)) {
                services = stalling.services();
                createOrder("stall-1");
                openConsole("olga", Role.OPS);
                waitUntil(() -> "Redis UP".equals(text("#redisStatus")));

                proxy.stall(true);
                push(KeyCode.F5);
                waitUntil(() -> "Redis DOWN".equals(text("#redisStatus")));
                assertThat(text("#mysqlStatus")).isEqualTo("MySQL UP");
                assertThat(text("#warningsLabel")).contains("is not answering");

                // The window still reacts: another page opens and says in words why it has no data.
                clickOn("#nav-ORDERS");
                waitUntil(() -> vm.pageProperty().get() == Page.ORDERS && !text("#ordersMessage").isEmpty());
                assertThat(text("#ordersMessage")).startsWith("Could not load orders: Redis at ").contains("did not answer")
                        .doesNotContain("Exception");

                proxy.stall(false);
                push(KeyCode.F5);
                waitUntil(() -> "Redis UP".equals(text("#redisStatus")));
            }
        }
    }
}
