package com.orderconsole.ui;

import com.orderconsole.TestServers;
import com.orderconsole.app.Engine;
import com.orderconsole.domain.Operator;
import com.orderconsole.domain.Role;
import com.orderconsole.app.Services;
import com.orderconsole.ui.common.FxBackground;
import com.orderconsole.ui.common.FxDialogService;
import com.orderconsole.ui.main.MainView;
import com.orderconsole.ui.main.MainViewModel;
import javafx.geometry.Bounds;
import javafx.scene.Node;
import javafx.scene.control.Labeled;
import javafx.scene.control.ListView;
import javafx.scene.control.TableView;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.testfx.api.FxRobot;
import org.testfx.api.FxToolkit;
import org.testfx.util.WaitForAsyncUtils;

import java.time.Duration;
import java.util.List;
import java.util.concurrent.Callable;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/**
 * Base of the console's TestFX tests: a fresh engine on the real embedded test servers per test, and
 * the real main window (headless, Monocle) for a chosen operator. Auto-refresh is off so nothing
 * reloads under the robot; tests wait for results, never for a fixed time.
 */
public abstract class ConsoleFxTest extends FxRobot {
    /** Generous bound for one background round trip to the servers. */
    protected static final long WAIT_S = 20;

    protected Engine engine;
    protected Services services;
    protected MainViewModel vm;
    protected MainView view;
    private FxBackground background;
    /** The environment the window opens on; a test sets it before {@link #openConsole}. */
    protected com.orderconsole.domain.Environment environment = com.orderconsole.domain.Environment.LOCAL;

    @BeforeAll
    static void toolkit() throws TimeoutException {
        FxToolkit.registerPrimaryStage();
    }

    @BeforeEach
    void freshEngine() {
        engine = TestServers.freshEngine();
        services = engine.services();
    }

    @AfterEach
    void closeAll() throws TimeoutException {
        FxToolkit.cleanupStages();
        if (background != null) {
            background.close();
        }
        engine.close();
    }

    /** Opens the main window as this operator and waits for its first page. */
    protected void openConsole(String name, Role role) throws TimeoutException {
        background = new FxBackground(2);
        FxToolkit.setupStage(stage -> {
            vm = new MainViewModel(new ConsoleContext(services, new Operator(name, role), background,
                    new FxDialogService(() -> stage, environment)));
            vm.autoRefreshProperty().set(false);
            view = new MainView(vm);
            stage.setScene(OrderConsoleApp.styledScene(view.root(), 1280, 800));
            stage.show();
            stage.toFront();
            vm.start();
        });
        WaitForAsyncUtils.waitForFxEvents();
    }

    /** Creates an order in WAIT_PAY as a support user (test setup, through the service layer). */
    protected void createOrder(String id) {
        services.orders().create(new Operator("setup", Role.SUPPORT), id, null, Duration.ofMinutes(30));
    }

    /** Waits until a condition, evaluated on the FX thread, holds. */
    protected void waitUntil(Callable<Boolean> condition) throws TimeoutException {
        WaitForAsyncUtils.waitFor(WAIT_S, TimeUnit.SECONDS, () -> onFx(condition));
    }

    /**
     * Waits until a node has stood still for {@value #SETTLED_MS} ms, e.g. a collapsible pane's opening animation has
     * ended, so that a click lands where the node is drawn rather than where it was a frame ago.
     */
    protected void waitUntilSettled(String query) throws TimeoutException {
        Bounds[] last = {null};
        long[] since = {0};
        waitUntil(() -> {
            Node n = lookup(query).tryQuery().orElse(null);
            if (n == null) {
                return false;
            }
            Bounds b = n.localToScene(n.getBoundsInLocal());
            long now = System.nanoTime();
            if (!b.equals(last[0])) {
                last[0] = b;
                since[0] = now;
                return false;
            }
            return now - since[0] >= TimeUnit.MILLISECONDS.toNanos(SETTLED_MS);
        });
    }

    /** How long a node must keep its place to count as settled, ms: several frames at 60 per second. */
    private static final long SETTLED_MS = 100;

    /** Evaluates something on the FX thread and returns it. */
    protected <T> T onFx(Callable<T> c) {
        try {
            return WaitForAsyncUtils.asyncFx(c).get(WAIT_S, TimeUnit.SECONDS);
        } catch (Exception e) {
            throw new IllegalStateException(e);
        }
    }

    /** @return the text of a labeled node found by CSS query, null while there is no such node */
    protected String text(String query) {
        return onFx(() -> lookup(query).tryQuery().map(n -> ((Labeled) n).getText()).orElse(null));
    }

    /** @return true when the node exists and is visible along with all its parents */
    protected boolean shown(String query) {
        return onFx(() -> lookup(query).tryQuery().map(ConsoleFxTest::visibleUpward).orElse(false));
    }

    private static boolean visibleUpward(Node n) {
        for (Node p = n; p != null; p = p.getParent()) {
            if (!p.isVisible()) {
                return false;
            }
        }
        return n.getScene() != null;
    }

    /** @return the items of a table or list found by CSS query, copied on the FX thread */
    @SuppressWarnings("unchecked")
    protected <T> List<T> rows(String query) {
        return onFx(() -> {
            Node n = lookup(query).query();
            return List.copyOf(n instanceof ListView<?> l ? (List<T>) l.getItems() : ((TableView<T>) n).getItems());
        });
    }
}
