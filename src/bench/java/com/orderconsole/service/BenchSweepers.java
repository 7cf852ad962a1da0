package com.orderconsole.service;

import com.orderconsole.service.queue.CancelSweeper;
import com.orderconsole.service.transition.TransitionService;

import com.orderconsole.redis.RedisStateStore;

/**
 * Benchmark-only door to the cancel sweeper's package-private constructor, for the what-if run with
 * another batch size. Lives in the bench source root, so the product has no such door.
 */
public final class BenchSweepers {
    private BenchSweepers() {
    }

    /**
     * @param batchSize entries per ZRANGEBYSCORE and per pipelined cancel round
     * @param maxBatchesPerTick bound on rounds per bucket per tick
     * @return a sweeper like the product's, with these bounds
     */
    public static CancelSweeper create(RedisStateStore redis, TransitionService transitions, int batchSize, int maxBatchesPerTick) {
        return new CancelSweeper(redis, transitions, new Access(), batchSize, maxBatchesPerTick);
    }
}
