package com.orderconsole.service.follower;

/**
 * Benchmark-only: turns the follower's sequence check (issue 25) off and on, for the what-if that measures its cost
 * in the same run. Lives in the bench source root, so the product has no such door.
 */
public final class BenchFollowers {
    private BenchFollowers() {
    }

    /** @param on false: entries are applied without checking that they follow MySQL's history */
    public static void sequenceCheck(Follower follower, boolean on) {
        follower.sequenceCheck(on);
    }
}
