package com.orderconsole.ui.graph;

import com.orderconsole.app.RulesDiagram;
import com.orderconsole.domain.Operator;
import com.orderconsole.domain.OrderStatus;
import com.orderconsole.domain.Role;
import com.orderconsole.service.order.OrderQuery;
import com.orderconsole.ui.ViewModelTestBase;
import com.orderconsole.ui.common.Navigator;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import javax.imageio.ImageIO;
import java.awt.image.BufferedImage;
import java.nio.file.Files;
import java.nio.file.Path;

import static org.assertj.core.api.Assertions.assertThat;

/** Diagram export from the graph page (issue 13.5): PlantUML, Mermaid and PNG of the rules in force with the live counts. */
class DiagramExportViewModelTest extends ViewModelTestBase {
    private final Navigator navigator = new Navigator() {
        @Override
        public void showOrders(OrderQuery query) {
        }

        @Override
        public void showOrder(String orderId) {
        }
    };

    private StateGraphViewModel graph() {
        return new StateGraphViewModel(services.rules(), services.monitor(), services.stuckThresholds(),
                services.reconciliation(), new Operator("rita", Role.READ_ONLY), background, dialogs, navigator);
    }

    @Test
    void textExportsCarryEveryEdgeAndTheLiveCounts(@TempDir Path dir) throws Exception {
        createOrder("dg-1");
        createOrder("dg-2");
        move("dg-2", OrderStatus.PAID);
        services.follower().drainOnce();
        StateGraphViewModel vm = graph();
        vm.refresh();

        Path puml = dir.resolve("rules.puml");
        dialogs.file(puml);
        vm.export(RulesDiagram.Format.PLANTUML);
        String p = Files.readString(puml);
        assertThat(p).startsWith("@startuml").endsWith("@enduml\n")
                .contains("WAIT_PAY --> PAID : 1 /h").contains("WAIT_PAY --> CANCELLED : 0 /h").contains("SHIPPED --> FINISHED")
                .contains("WAIT_PAY : 1 live · 0 stuck").contains("state FINISHED <<terminal>>").contains("CANCELLED --> [*]");
        assertThat(p.lines().filter(l -> l.matches("[A-Z_]+ --> [A-Z_]+.*"))).as("the 5 default edges").hasSize(5);
        assertThat(vm.feedback().messageProperty().get()).isEqualTo("Exported rules version 1 as PLANTUML to " + puml + ".");

        Path mmd = dir.resolve("rules.mmd");
        dialogs.file(mmd);
        vm.export(RulesDiagram.Format.MERMAID);
        assertThat(Files.readString(mmd)).contains("stateDiagram-v2").contains("    WAIT_PAY --> PAID : 1 /h")
                .contains("state \"PAID<br/>1 live · 0 stuck\" as PAID");
    }

    @Test
    void thePngIsTheGraphAsLaidOutOnThePage(@TempDir Path dir) throws Exception {
        StateGraphViewModel vm = graph();
        vm.refresh();
        Path png = dir.resolve("rules.png");
        dialogs.file(png);
        vm.export(RulesDiagram.Format.PNG);
        BufferedImage img = ImageIO.read(png.toFile());
        assertThat(img).as("a readable PNG").isNotNull();
        StateGraphLayout.Result layout = vm.snapshotProperty().get().layout();
        assertThat(img.getWidth()).as("the page's layout at twice the size").isGreaterThan((int) (layout.width() * 2));
        // Not blank: the node boxes are filled.
        StateGraphLayout.Box box = layout.nodes().get(OrderStatus.PAID);
        int rgb = img.getRGB((int) ((24 + box.x() + 8) * 2), (int) ((24 + 28 + box.y() + 8) * 2)) & 0xffffff;
        assertThat(rgb).as("inside the PAID box").isNotEqualTo(0xffffff);
    }

    @Test
    void beforeTheFirstReadingThereIsNothingToExport() {
        StateGraphViewModel vm = graph();
        vm.export(RulesDiagram.Format.MERMAID);
        assertThat(dialogs.asked()).isEmpty();
        assertThat(vm.feedback().messageProperty().get()).contains("not been read yet");
    }
}
