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
 */
public abstract class ViewModelTestBase {
    protected final DirectBackground background = new DirectBackground();
    protected final ScriptedDialogs dialogs = new ScriptedDialogs();
    protected Engine engine;
    protected Services services;

    @BeforeEach
    void freshEngine() {
        engine = TestServers.freshEngine();
        services = engine.services();
    }

    @AfterEach
    void closeEngine() {
        engine.close();
    }

    /** @return a context for an operator of this role, for the shell's model */
    protected ConsoleContext as(String name, Role role) {
        return new ConsoleContext(services, new Operator(name, role), background, dialogs);
    }

    protected void createOrder(String id) {
        services.orders().create(new Operator("setup", Role.SUPPORT), id, null, Duration.ofMinutes(30));
    }

    protected void move(String id, OrderStatus target) {
        services.transitions().transition(new Operator("setup", Role.SUPPORT), TransitionRequest.of(id, target, "test", "setup"));
    }
}
