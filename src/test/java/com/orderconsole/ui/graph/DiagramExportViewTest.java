package com.orderconsole.ui.graph;

import com.orderconsole.TestServers;
import com.orderconsole.app.Engine;
import com.orderconsole.domain.Operator;
import com.orderconsole.domain.Role;
import com.orderconsole.app.Services;
import com.orderconsole.service.order.OrderQuery;
import com.orderconsole.ui.OrderConsoleApp;
import com.orderconsole.ui.ScriptedDialogs;
import com.orderconsole.ui.common.FxBackground;
import com.orderconsole.ui.common.Navigator;
import javafx.scene.control.Label;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.testfx.api.FxRobot;
import org.testfx.api.FxToolkit;
import org.testfx.util.WaitForAsyncUtils;

import javax.imageio.ImageIO;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;

/** Issue 13.5 in the console: the graph page's Export menu writes the diagram of the rules in force (file chosen by script). */
class DiagramExportViewTest extends FxRobot {
    private Engine engine;
    private FxBackground background;
    private final ScriptedDialogs dialogs = new ScriptedDialogs();

    @BeforeAll
    static void toolkit() throws Exception {
        FxToolkit.registerPrimaryStage();
    }

    @BeforeEach
    void start() {
        engine = TestServers.freshEngine();
    }

    @AfterEach
    void stop() throws Exception {
        FxToolkit.cleanupStages();
        background.close();
        engine.close();
    }

    @Test
    void theExportMenuWritesPlantUmlAndAPngOfTheGraph(@TempDir Path dir) throws Exception {
        Services s = engine.services();
        background = new FxBackground(1);
        Navigator nowhere = new Navigator() {
            @Override
            public void showOrders(OrderQuery query) {
            }

            @Override
            public void showOrder(String orderId) {
            }
        };
        StateGraphViewModel vm = new StateGraphViewModel(s.rules(), s.monitor(), s.stuckThresholds(), s.reconciliation(),
                new Operator("rita", Role.READ_ONLY), background, dialogs, nowhere);
        FxToolkit.setupStage(stage -> {
            stage.setScene(OrderConsoleApp.styledScene(new StateGraphView(vm, new Label()).root(), 1280, 800));
            stage.show();
            vm.refresh();
        });
        WaitForAsyncUtils.waitFor(20, TimeUnit.SECONDS, () -> lookup("#node-PAID").tryQuery().isPresent()
                && !lookup("#exportMenu").query().isDisabled());

        Path puml = dir.resolve("rules.puml");
        dialogs.file(puml);
        clickOn("#exportMenu");
        clickOn("PlantUML text…");
        WaitForAsyncUtils.waitFor(20, TimeUnit.SECONDS, () -> Files.exists(puml) && Files.size(puml) > 0);
        assertThat(Files.readString(puml)).startsWith("@startuml").contains("WAIT_PAY --> PAID : 0 /h");

        Path png = dir.resolve("rules.png");
        dialogs.file(png);
        clickOn("#exportMenu");
        clickOn("PNG image with live counts…");
        WaitForAsyncUtils.waitFor(20, TimeUnit.SECONDS, () -> Files.exists(png) && Files.size(png) > 0);
        assertThat(ImageIO.read(png.toFile())).isNotNull();
        WaitForAsyncUtils.waitFor(20, TimeUnit.SECONDS, () -> lookup("#graphMessage").<Label>query().getText()
                .startsWith("Exported rules version 1 as PNG"));
        assertThat(lookup("#thresholdsButton").query().isVisible()).as("thresholds are part of the rules: ops only").isFalse();
    }
}
