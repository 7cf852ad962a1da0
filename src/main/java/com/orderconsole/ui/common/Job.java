package com.orderconsole.ui.common;

import java.util.concurrent.atomic.AtomicBoolean;

/**
 * A handle on running work. Cancellation is cooperative: long work polls {@link #cancelled()} and
 * returns what it has so far, so a cancelled reconciliation still shows its partial result.
 */
public final class Job {
    private final AtomicBoolean cancelled = new AtomicBoolean();

    /** Asks the work to stop at its next check. */
    public void cancel() {
        cancelled.set(true);
    }

    /** @return true once {@link #cancel()} was called */
    public boolean cancelled() {
        return cancelled.get();
    }
}
