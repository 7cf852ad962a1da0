package com.orderconsole;

import com.orderconsole.app.Engine;
import com.orderconsole.app.Services;
import org.junit.jupiter.api.extension.AfterEachCallback;
import org.junit.jupiter.api.extension.BeforeEachCallback;
import org.junit.jupiter.api.extension.ExtensionContext;

/**
 * A started engine on empty test servers for each test, closed after it:
 * {@code @RegisterExtension final FreshEngine engine = new FreshEngine();}.
 */
public final class FreshEngine implements BeforeEachCallback, AfterEachCallback {
    private Engine engine;

    @Override
    public void beforeEach(ExtensionContext context) {
        engine = TestServers.freshEngine();
    }

    @Override
    public void afterEach(ExtensionContext context) {
        engine.close();
    }

    /** @return the engine of the running test */
    public Engine engine() {
        return engine;
    }

    /** @return the service layer of the running test's engine */
    public Services services() {
        return engine.services();
    }
}
