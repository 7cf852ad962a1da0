package com.orderconsole.service.transition;

/**
 * Benchmark-only: turns the transition's data-set fence (issue 33.5) off and on, for the what-if that measures its cost
 * in the same run. Lives in the bench source root, so the product has no such door.
 */
public final class BenchTransitions {
    private BenchTransitions() {
    }

    /** @param on false: transitions run the script without looking whether Redis went back in time */
    public static void fence(TransitionService transitions, boolean on) {
        transitions.fence(on);
    }
}
