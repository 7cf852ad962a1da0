package com.orderconsole.soak;

import com.orderconsole.app.Engine;
import com.orderconsole.app.EngineConfig;

import java.io.IOException;
import java.nio.file.Path;
import java.time.Duration;

/**
 * One console-like engine process of the fault soak: cancel sweeper (every 1 s), MySQL follower (at
 * least every 200 ms) and maintenance running against the given servers, until it is killed, its parent
 * goes away (stdin closes) or its lifetime ends. When a server is down at start it retries every second,
 * as an operator's restart loop would.
 *
 * <p>Arguments: name, Redis URI, JDBC URL, data directory, lifetime in seconds.
 */
public final class SoakWorker {
    /** Printed once the engine runs; the soak waits for it at the start. */
    static final String READY = "SOAK-WORKER READY";

    private SoakWorker() {
    }

    public static void main(String[] args) {
        String name = args[0];
        long deadline = System.currentTimeMillis() + Long.parseLong(args[4]) * 1000;
        Thread parentWatch = new Thread(() -> {
            try {
                while (System.in.read() >= 0) {
                    // the parent never writes; EOF means it is gone
                }
            } catch (IOException e) {
                // same as EOF
            }
            Runtime.getRuntime().halt(3);
        }, "parent-watch");
        parentWatch.setDaemon(true);
        parentWatch.start();

        EngineConfig cfg = EngineConfig.embeddedDefault()
                .withDataDir(Path.of(args[3]))
                .withServers(args[1], args[2], "root", "")
                .withLocalIdentity()
                .withCommandTimeout(Duration.ofSeconds(2))
                .withBackgroundJobs(Duration.ofSeconds(1), Duration.ofMillis(200));
        Engine engine = null;
        for (int attempt = 1; engine == null && System.currentTimeMillis() < deadline; attempt++) {
            try {
                engine = Engine.start(cfg);
            } catch (RuntimeException e) {
                System.out.println(name + ": engine start attempt " + attempt + " failed: " + e.getMessage());
                Soak.sleep(1000);
            }
        }
        if (engine == null) {
            Runtime.getRuntime().halt(2);
        }
        System.out.println(READY + " " + name + " pid " + ProcessHandle.current().pid());
        System.out.flush();
        while (System.currentTimeMillis() < deadline) {
            Soak.sleep(Math.min(1000, deadline - System.currentTimeMillis()));
        }
        engine.close();
        Runtime.getRuntime().halt(0);
    }
}
