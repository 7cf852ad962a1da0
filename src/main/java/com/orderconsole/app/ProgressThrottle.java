package com.orderconsole.app;

/**
 * How often a long job's progress is drawn, for the console's progress bars and the CLI's line on stderr alike: the
 * services report after every page of work (thousands of times in a large reconciliation), and drawing each would
 * flood the JavaFX thread or the terminal. One per job; safe to call from the job's threads.
 */
public final class ProgressThrottle {
    /** The console's and the CLI's pace: ten redraws a second look continuous and cost nothing. */
    public static final long EVERY_MS = 100;

    private final long everyMs;
    private long lastMs;
    private boolean drawn;

    /** @param everyMs the least time between two draws, milliseconds */
    public ProgressThrottle(long everyMs) {
        this.everyMs = everyMs;
    }

    /** @return a throttle at {@link #EVERY_MS} */
    public static ProgressThrottle standard() {
        return new ProgressThrottle(EVERY_MS);
    }

    /**
     * @param nowMs the caller's clock, milliseconds
     * @param finished true for the job's last report, which is always drawn
     * @return true when this report should be drawn: the first, then one at least {@code everyMs} after the last drawn
     */
    public synchronized boolean due(long nowMs, boolean finished) {
        if (drawn && !finished && nowMs - lastMs < everyMs) {
            return false;
        }
        drawn = true;
        lastMs = nowMs;
        return true;
    }
}
