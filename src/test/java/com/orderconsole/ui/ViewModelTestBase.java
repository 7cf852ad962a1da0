package com.orderconsole.ui;

import com.orderconsole.TestServers;
import com.orderconsole.app.Engine;
import com.orderconsole.domain.Operator;
import com.orderconsole.domain.OrderStatus;
import com.orderconsole.domain.Role;
import com.orderconsole.domain.TransitionRequest;
import com.orderconsole.app.Services;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;

import java.time.Duration;

/**
 * Base of the view-model tests: no stage, no FX thread. Work runs synchronously on the test thread
 * ({@link DirectBackground}) against a fresh engine on the real embedded test servers; questions to
 * the user are answered by {@link #dialogs}, scripted by each test.
 *
 * <p>A page's models are built on {@link #pages(Role)}: the in-process services here, and in a subclass whose
 * {@link #remote()} is true, the remote services through serve's API on the same engine (acting as an API client of that
 * role), so the same tests prove both modes. {@link #services} stays the in-process side for setting data up.
 */
public abstract class ViewModelTestBase {
    protected final DirectBackground background = new DirectBackground();
    protected final ScriptedDialogs dialogs = new ScriptedDialogs();
    protected Engine engine;
    protected Services services;
    /** serve on {@link #engine} when {@link #remote()}, else null. */
    protected com.orderconsole.app.remote.RemoteHarness serve;

    @BeforeEach
    void freshEngine() {
        engine = TestServers.freshEngine();
        services = engine.services();
        if (remote()) {
            serve = com.orderconsole.app.remote.RemoteHarness.on(services);
        }
    }

    @AfterEach
    void closeEngine() {
        if (serve != null) {
            serve.close();
        }
        engine.close();
    }

    /** @return true to run the page models on the remote services (a subclass for remote mode says so) */
    protected boolean remote() {
        return false;
    }

    /** @return the services a page's model is built on, for an operator of {@code role} */
    protected com.orderconsole.app.ConsoleServices pages(Role role) {
        return remote() ? serve.as(role) : services;
    }

    /** @return the actor the history names for a page's operator {@code name} of {@code role} */
    protected String actorOf(String name, Role role) {
        return remote() ? com.orderconsole.app.remote.RemoteHarness.actor(role) : name;
    }

    /** @return a context for an operator of this role, for the shell's model */
    protected ConsoleContext as(String name, Role role) {
        return new ConsoleContext(pages(role), new Operator(name, role), background, dialogs);
    }

    protected void createOrder(String id) {
        services.orders().create(new Operator("setup", Role.SUPPORT), id, null, Duration.ofMinutes(30));
    }

    protected void move(String id, OrderStatus target) {
        services.transitions().transition(new Operator("setup", Role.SUPPORT), TransitionRequest.of(id, target, "test", "setup"));
    }
}
