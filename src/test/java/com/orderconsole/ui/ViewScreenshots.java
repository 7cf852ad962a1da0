package com.orderconsole.ui;

import com.orderconsole.RawSql;
import com.orderconsole.domain.Operator;
import com.orderconsole.domain.OrderStatus;
import com.orderconsole.domain.Role;
import com.orderconsole.domain.TransitionRequest;
import com.orderconsole.service.recon.ReconCategory;
import com.orderconsole.ui.main.Page;
import com.orderconsole.ui.recon.ReconciliationViewModel.CategoryRow;
import javafx.scene.control.TableView;
import javafx.scene.image.PixelFormat;
import javafx.scene.image.WritableImage;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.condition.EnabledIfSystemProperty;

import java.awt.image.BufferedImage;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Random;
import javax.imageio.ImageIO;

/**
 * Renders every page of the console (the state graph with its live-traffic panel, orders, cancel queue,
 * reconciliation, metrics, rules) to PNG (docs/screenshots), with sample data, on the headless
 * Monocle platform. Not part of the normal test run: enabled by -Dscreenshots.dir=DIR (see
 * scripts/screenshots.sh).
 */
@EnabledIfSystemProperty(named = "screenshots.dir", matches = ".+")
class ViewScreenshots extends ConsoleFxTest {
    private static final Operator SETUP = new Operator("import", Role.ADMIN);

    @Test
    void renderEveryPage() throws Exception {
        Path dir = Path.of(System.getProperty("screenshots.dir"));
        Files.createDirectories(dir);
        seed();
        openConsole("olga", Role.ADMIN);

        waitUntil(() -> vm.graph().snapshotProperty().get() != null && !"–".equals(text("#count-PAID")));
        shoot(dir.resolve("state-graph.png"));

        interact(() -> vm.showOrders(com.orderconsole.service.order.OrderQuery.all()));
        waitUntil(() -> !rows("#ordersTable").isEmpty());
        interact(() -> vm.showOrder("BR-00017"));
        waitUntil(() -> "Order BR-00017".equals(text("#title")));
        shoot(dir.resolve("orders.png"));

        interact(() -> vm.pageProperty().set(Page.QUEUE));
        for (int i = 0; i < 3; i++) {
            int samples = vm.queue().depthHistory().size();
            interact(() -> vm.queue().refresh());
            waitUntil(() -> vm.queue().depthHistory().size() > samples);
        }
        waitUntil(() -> !rows("#queueTable").isEmpty());
        shoot(dir.resolve("cancel-queue.png"));

        interact(() -> vm.pageProperty().set(Page.RECON));
        clickOn("#runButton");
        waitUntil(() -> !rows("#categoryTable").isEmpty());
        interact(() -> lookup("#categoryTable").<TableView<CategoryRow>>query().getSelectionModel()
                .select(ReconCategory.STATE_MISMATCH.ordinal()));
        waitUntil(() -> !rows("#findingTable").isEmpty());
        shoot(dir.resolve("reconciliation.png"));

        interact(() -> vm.pageProperty().set(Page.METRICS));
        waitUntil(() -> vm.metrics().readingProperty().get() != null);
        shoot(dir.resolve("metrics.png"));

        interact(() -> vm.pageProperty().set(Page.RULES));
        waitUntil(() -> vm.rules().inForceProperty().get() != null);
        shoot(dir.resolve("rules.png"));
    }

    /** Sample data: 120 orders spread over the statuses, some stuck, a few rejections and disagreements. */
    private void seed() {
        Random rnd = new Random(7);
        OrderStatus[] path = {OrderStatus.PAID, OrderStatus.WAIT_SHIP, OrderStatus.SHIPPED, OrderStatus.FINISHED};
        for (int i = 1; i <= 120; i++) {
            String id = String.format("BR-%05d", i);
            createOrder(id);
            int steps = rnd.nextInt(5);
            if (i % 11 == 0) {
                move(id, OrderStatus.CANCELLED, "customer changed their mind");
                continue;
            }
            for (int s = 0; s < steps; s++) {
                move(id, path[s], "carrier update");
            }
            if (i % 7 == 0) {
                move(id, OrderStatus.FINISHED, "skipped a step");
            }
        }
        services.follower().drainOnce();
        long now = System.currentTimeMillis();
        RawSql.update("UPDATE orders SET status_since_ms = " + (now - 3 * 3600_000L) + " WHERE status IN (1, 2) AND order_id LIKE 'BR-0001%'");
        // Two orders whose MySQL record fell behind Redis, for the reconciliation page.
        RawSql.update("UPDATE orders SET status = status - 1, version = version - 1 WHERE order_id IN ('BR-00002', 'BR-00004')");
    }

    private void move(String id, OrderStatus target, String reason) {
        services.transitions().transition(SETUP, TransitionRequest.of(id, target, "import", reason));
    }

    private void shoot(Path file) throws IOException {
        WritableImage img = onFx(() -> view.root().getScene().snapshot(null));
        int w = (int) img.getWidth();
        int h = (int) img.getHeight();
        int[] argb = new int[w * h];
        img.getPixelReader().getPixels(0, 0, w, h, PixelFormat.getIntArgbInstance(), argb, 0, w);
        BufferedImage out = new BufferedImage(w, h, BufferedImage.TYPE_INT_ARGB);
        out.setRGB(0, 0, w, h, argb, 0, w);
        ImageIO.write(out, "png", file.toFile());
    }

}
