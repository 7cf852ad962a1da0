package com.orderconsole.ui;

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
import com.orderconsole.app.Languages;
import com.orderconsole.app.Messages;
import com.orderconsole.app.Settings.Theme;
import com.orderconsole.ui.common.Themes;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import java.util.Locale;
import org.junit.jupiter.api.condition.EnabledIfSystemProperty;

import java.awt.image.BufferedImage;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Random;
import javax.imageio.ImageIO;

/**
 * Renders every page of the console (the state graph with its live-traffic panel, orders, cancel queue,
 * reconciliation, monitor, rules, bulk moves with its batches tab, audit) to PNG (docs/screenshots), with
 * sample data, on the headless Monocle platform, each page in every variant (English, Chinese, dark) under
 * its own name. Not part of the normal test run: enabled by -Dscreenshots.dir=DIR (see
 * scripts/screenshots.sh).
 */
@EnabledIfSystemProperty(named = "screenshots.dir", matches = ".+")
class ViewScreenshots extends ConsoleFxTest {
    private static final Operator SETUP = new Operator("import", Role.ADMIN);

    /** Window sizes every page is rendered at: the default size and a full-HD screen. */
    private static final int[][] SIZES = {{1280, 800}, {1920, 1080}};

    @AfterEach
    void englishAndLight() {
        Messages.use(Locale.ENGLISH);
        interact(() -> Themes.apply(Theme.LIGHT));
    }

    @Test
    void renderEveryPage() throws Exception {
        render("");
    }

    /** The same pages in simplified Chinese: NAME-zh-CN.png; CJK text is wider than Latin, so cut text is checked again. */
    @Test
    void renderEveryPageInChinese() throws Exception {
        Messages.use(Languages.ZH_CN);
        render("-zh-CN");
    }

    /** The same pages in the dark theme: NAME-dark.png. */
    @Test
    void renderEveryPageDark() throws Exception {
        interact(() -> Themes.apply(Theme.DARK));
        render("-dark");
    }

    private void render(String variant) throws Exception {
        Path dir = Path.of(System.getProperty("screenshots.dir"));
        Files.createDirectories(dir);
        seed();
        openConsole("olga", Role.ADMIN);
        List<String> cut = new ArrayList<>();

        waitUntil(() -> vm.graph().snapshotProperty().get() != null && !"–".equals(text("#count-PAID")));
        shootAtEverySize(dir, "state-graph" + variant, cut);

        interact(() -> vm.showOrders(com.orderconsole.service.order.OrderQuery.all()));
        waitUntil(() -> !rows("#ordersTable").isEmpty());
        interact(() -> vm.showOrder("BR-00017"));
        waitUntil(() -> "BR-00017".equals(text("#orderId")));
        shootAtEverySize(dir, "orders" + variant, cut);

        interact(() -> vm.pageProperty().set(Page.QUEUE));
        for (int i = 0; i < 3; i++) {
            int samples = vm.queue().depthHistory().size();
            interact(() -> vm.queue().refresh());
            waitUntil(() -> vm.queue().depthHistory().size() > samples);
        }
        waitUntil(() -> !rows("#queueTable").isEmpty());
        shootAtEverySize(dir, "cancel-queue" + variant, cut);

        interact(() -> vm.pageProperty().set(Page.RECON));
        clickOn("#runButton");
        waitUntil(() -> !rows("#categoryTable").isEmpty());
        interact(() -> lookup("#categoryTable").<TableView<CategoryRow>>query().getSelectionModel()
                .select(ReconCategory.STATE_MISMATCH.ordinal()));
        waitUntil(() -> !rows("#findingTable").isEmpty());
        shootAtEverySize(dir, "reconciliation" + variant, cut);

        interact(() -> vm.pageProperty().set(Page.MONITOR));
        waitUntil(() -> vm.monitor().readingProperty().get() != null);
        shootAtEverySize(dir, "monitor" + variant, cut);

        interact(() -> vm.pageProperty().set(Page.RULES));
        waitUntil(() -> vm.rules().inForceProperty().get() != null);
        shootAtEverySize(dir, "rules" + variant, cut);

        // Bulk moves: a previewed choice and a recorded batch with its results (issue 13).
        com.orderconsole.service.order.OrderQuery unpaid = new com.orderconsole.service.order.OrderQuery(null, null,
                java.util.Set.of(com.orderconsole.domain.OrderStatus.WAIT_PAY), false, null, null, false, false);
        com.orderconsole.service.bulk.BulkPreview bp = services.bulk().preview(com.orderconsole.service.bulk.BulkScope.of(unpaid),
                com.orderconsole.domain.OrderStatus.CANCELLED, false, com.orderconsole.service.bulk.BulkProgress.NONE, () -> false);
        services.bulk().apply(new com.orderconsole.domain.Operator("olga", Role.ADMIN), bp, "sample: unpaid orders of a closed campaign",
                "console", com.orderconsole.service.bulk.BulkProgress.NONE, () -> false);
        interact(() -> {
            vm.pageProperty().set(Page.BULK);
            vm.bulk().useFilter(com.orderconsole.service.order.OrderQuery.all());
            vm.bulk().targetProperty().set(com.orderconsole.domain.OrderStatus.WAIT_SHIP);
            vm.bulk().preview();
        });
        waitUntil(() -> vm.bulk().previewProperty().get() != null && !rows("#batchTable").isEmpty());
        interact(() -> vm.bulk().record().selectedBatchProperty().set(vm.bulk().record().batches().get(0)));
        waitUntil(() -> !rows("#resultTable").isEmpty());
        shootAtEverySize(dir, "bulk" + variant, cut);
        interact(() -> lookup("#tabs").<javafx.scene.control.TabPane>query().getSelectionModel().select(1));
        shootAtEverySize(dir, "bulk-batches" + variant, cut);

        interact(() -> vm.pageProperty().set(Page.AUDIT));
        waitUntil(() -> !rows("#auditTable").isEmpty());
        shootAtEverySize(dir, "audit" + variant, cut);

        assertThat(cut).as("text cut short with … on some page").isEmpty();
    }

    /** A production profile's window: the band in its colour, and the Monitor page with its Prometheus endpoint switch. */
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
        interact(() -> vm.pageProperty().set(Page.MONITOR));
        waitUntil(() -> vm.monitor().readingProperty().get() != null);
        shootAtEverySize(dir, "production-monitor", cut);
        assertThat(cut).as("text cut short with … on some page").isEmpty();
    }

    /**
     * Renders the page at each of {@link #SIZES}: NAME.png at the default size (the docs'), NAME-WxH.png
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
                CutTexts.collect(view.root(), name + " at " + size[0] + "x" + size[1], cut);
                return null;
            });
        }
        interact(() -> {
            Window w = view.root().getScene().getWindow();
            w.setWidth(SIZES[0][0]);
            w.setHeight(SIZES[0][1]);
        });
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
