package com.orderconsole.ui.main;

import com.orderconsole.TestServers;
import com.orderconsole.app.Messages;
import com.orderconsole.domain.Role;
import com.orderconsole.ui.ConsoleFxTest;
import com.orderconsole.ui.CutTexts;
import javafx.geometry.Bounds;
import javafx.scene.Node;
import javafx.scene.control.Label;
import org.junit.jupiter.api.Test;
import org.testfx.util.WaitForAsyncUtils;

import java.util.ArrayList;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Tester finding 12: during a Redis outage at 1280×800 the status bar's words get longer (rules unknown, the
 * outage warning) and were cut: "Rules: unk…", "First start: imported … orders …", "⚠ Redis … until it is…".
 */
class StatusBarLayoutTest extends ConsoleFxTest {

    @Test
    void nothingInTheStatusBarIsCutDuringARedisOutage() throws Exception {
        openConsole("alice", Role.ADMIN);
        interact(() -> vm.statusBar().noticeProperty().set(Messages.format("main.start.imported", 4998, "5 s", "")));
        TestServers.redis().stop();
        try {
            WaitForAsyncUtils.waitFor(WAIT_S, java.util.concurrent.TimeUnit.SECONDS, () -> {
                interact(() -> vm.statusBar().check());
                WaitForAsyncUtils.sleep(200, java.util.concurrent.TimeUnit.MILLISECONDS);
                String w = text("#warningsLabel");
                return w != null && w.contains("Redis") && "Rules: unknown".equals(text("#rulesStatus"));
            });
            WaitForAsyncUtils.waitForFxEvents();
            List<String> problems = onFx(() -> {
                List<String> cut = new ArrayList<>();
                Node bar = lookup(".status-bar").query();
                CutTexts.collect(bar, "status bar at 1280x800", cut);
                double width = bar.getScene().getWidth();
                double height = bar.getScene().getHeight();
                for (String id : List.of("#redisStatus", "#mysqlStatus", "#rulesStatus", "#deadLettersStatus", "#noticeLabel",
                        "#warningsLabel")) {
                    Label l = (Label) lookup(id).query();
                    Bounds b = l.localToScene(l.getBoundsInLocal());
                    if (b.getMaxX() > width + 0.5 || b.getMaxY() > height + 0.5 || b.getMinX() < -0.5) {
                        cut.add(id + " \"" + l.getText() + "\" outside the window: " + b);
                    }
                    if (l.getHeight() + 0.5 < l.prefHeight(l.getWidth())) {
                        cut.add(id + " \"" + l.getText() + "\" lower than its lines: " + l.getHeight());
                    }
                }
                return cut;
            });
            assertThat(problems).isEmpty();
            assertThat(text("#warningsLabel")).contains("transitions fail until it is back");
        } finally {
            TestServers.redis().start();
        }
    }
}
