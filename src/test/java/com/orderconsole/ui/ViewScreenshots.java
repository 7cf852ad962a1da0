package com.orderconsole.ui;

import javafx.scene.Node;
import javafx.scene.Parent;
import javafx.scene.control.Labeled;
import javafx.scene.control.ScrollPane;
import javafx.scene.text.Text;
import javafx.geometry.Rectangle2D;
import javafx.stage.Screen;
import javafx.stage.Window;
import org.testfx.util.WaitForAsyncUtils;
import java.util.ArrayList;
import java.util.List;
import static org.assertj.core.api.Assertions.assertThat;
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

    /** Window sizes every page is rendered at: the default size and a full-HD screen. */
    private static final int[][] SIZES = {{1280, 800}, {1920, 1080}};

    @Test
    void renderEveryPage() throws Exception {
        Path dir = Path.of(System.getProperty("screenshots.dir"));
        Files.createDirectories(dir);
        seed();
        openConsole("olga", Role.ADMIN);
        List<String> cut = new ArrayList<>();

        waitUntil(() -> vm.graph().snapshotProperty().get() != null && !"–".equals(text("#count-PAID")));
        shootAtEverySize(dir, "state-graph", cut);

        interact(() -> vm.showOrders(com.orderconsole.service.order.OrderQuery.all()));
        waitUntil(() -> !rows("#ordersTable").isEmpty());
        interact(() -> vm.showOrder("BR-00017"));
        waitUntil(() -> "Order BR-00017".equals(text("#title")));
        shootAtEverySize(dir, "orders", cut);

        interact(() -> vm.pageProperty().set(Page.QUEUE));
        for (int i = 0; i < 3; i++) {
            int samples = vm.queue().depthHistory().size();
            interact(() -> vm.queue().refresh());
            waitUntil(() -> vm.queue().depthHistory().size() > samples);
        }
        waitUntil(() -> !rows("#queueTable").isEmpty());
        shootAtEverySize(dir, "cancel-queue", cut);

        interact(() -> vm.pageProperty().set(Page.RECON));
        clickOn("#runButton");
        waitUntil(() -> !rows("#categoryTable").isEmpty());
        interact(() -> lookup("#categoryTable").<TableView<CategoryRow>>query().getSelectionModel()
                .select(ReconCategory.STATE_MISMATCH.ordinal()));
        waitUntil(() -> !rows("#findingTable").isEmpty());
        shootAtEverySize(dir, "reconciliation", cut);

        interact(() -> vm.pageProperty().set(Page.METRICS));
        waitUntil(() -> vm.metrics().readingProperty().get() != null);
        shootAtEverySize(dir, "metrics", cut);

        interact(() -> vm.pageProperty().set(Page.RULES));
        waitUntil(() -> vm.rules().inForceProperty().get() != null);
        shootAtEverySize(dir, "rules", cut);

        assertThat(cut).as("text cut short with … on some page").isEmpty();
    }

    /** A production profile's window: the band in its colour, and the metrics page with its endpoint switch. */
    @Test
    void renderAProductionProfilesBand() throws Exception {
        Path dir = Path.of(System.getProperty("screenshots.dir"));
        Files.createDirectories(dir);
        seed();
        environment = new com.orderconsole.domain.Environment("prod-eu", com.orderconsole.domain.Environment.Kind.PRODUCTION, "#c62828");
        openConsole("olga", Role.OPS);
        List<String> cut = new ArrayList<>();
        waitUntil(() -> vm.graph().snapshotProperty().get() != null && !"–".equals(text("#count-PAID")));
        shootAtEverySize(dir, "production-band", cut);
        interact(() -> vm.pageProperty().set(Page.METRICS));
        waitUntil(() -> vm.metrics().readingProperty().get() != null);
        shootAtEverySize(dir, "production-metrics", cut);
        assertThat(cut).as("text cut short with … on some page").isEmpty();
    }

    /**
     * Renders the page at each of {@link #SIZES}: NAME.png at the default size (the README's), NAME-WxH.png
     * at the others; collects every text the page shows cut short, and a page wider than the window.
     */
    private void shootAtEverySize(Path dir, String name, List<String> cut) throws Exception {
        Rectangle2D screen = onFx(() -> Screen.getPrimary().getBounds());
        for (int[] size : SIZES) {
            // Monocle's headless screen is 1280x800 unless told otherwise; a larger window overflows its frame buffer.
            assertThat(screen.getWidth() >= size[0] && screen.getHeight() >= size[1])
                    .as("headless screen %s is smaller than %dx%d: run with -Dheadless.geometry=1920x1080-32 (scripts/screenshots.sh does)",
                            screen, size[0], size[1]).isTrue();
            interact(() -> {
                Window w = view.root().getScene().getWindow();
                w.setWidth(size[0]);
                w.setHeight(size[1]);
            });
            WaitForAsyncUtils.waitForFxEvents();
            interact(() -> view.root().getScene().getRoot().layout());
            WaitForAsyncUtils.waitForFxEvents();
            String file = size[0] == 1280 ? name + ".png" : name + "-" + size[0] + "x" + size[1] + ".png";
            shoot(dir.resolve(file));
            onFx(() -> {
                cutTexts(view.root(), name + " at " + size[0] + "x" + size[1], cut);
                return null;
            });
        }
        interact(() -> {
            Window w = view.root().getScene().getWindow();
            w.setWidth(SIZES[0][0]);
            w.setHeight(SIZES[0][1]);
        });
    }

    /** Collects visible labels, buttons, column headers and cells whose shown text is cut short (ellipsis). */
    private static void cutTexts(Node node, String where, List<String> cut) {
        if (!node.isVisible()) {
            return;
        }
        if (node instanceof Labeled l && l.getText() != null && !l.getText().isEmpty() && l.lookup(".text") instanceof Text t
                && !t.getText().equals(l.getText()) && t.getText().endsWith(l.getEllipsisString())
                && !l.getText().endsWith(l.getEllipsisString())) {
            cut.add(where + ": " + (l.getId() != null ? "#" + l.getId() : l.getClass().getSimpleName()) + " \"" + l.getText() + "\"");
        }
        if (node instanceof ScrollPane sp && sp.isFitToWidth() && sp.getContent() != null
                && sp.getContent().getLayoutBounds().getWidth() > sp.getViewportBounds().getWidth() + 1) {
            cut.add(where + ": " + (sp.getId() != null ? "#" + sp.getId() : "a scroll pane") + " is wider than its place ("
                    + Math.round(sp.getContent().getLayoutBounds().getWidth()) + " > " + Math.round(sp.getViewportBounds().getWidth()) + ")");
        }
        if (node instanceof Parent p) {
            for (Node c : p.getChildrenUnmodifiable()) {
                cutTexts(c, where, cut);
            }
        }
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
