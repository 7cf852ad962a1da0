package com.orderconsole.service.queue;

import com.orderconsole.redis.RedisStores;
import com.orderconsole.service.Access;
import com.orderconsole.service.AuditTrail;
import com.orderconsole.service.follower.Follower;
import com.orderconsole.store.Database;
import com.orderconsole.service.transition.TransitionService;

/**
 * Benchmark-only: a cancel sweeper with other bounds than the product's, for the what-if run with
 * another batch size. Lives in the bench source root, so the product has no such door.
 */
public final class BenchSweepers {
    private BenchSweepers() {
    }

    /**
     * @param db where a pause would be recorded
     * @param batchSize entries per ZRANGEBYSCORE and per pipelined cancel round
     * @param maxBatchesPerTick bound on rounds per bucket per tick
     * @param follower whose fence the sweeper checks, as the product's does
     * @return a sweeper like the product's, with these bounds
     */
    public static CancelSweeper create(RedisStores redis, Database db, TransitionService transitions, Follower follower, int batchSize, int maxBatchesPerTick) {
        return new CancelSweeper(redis.connection(), redis.queue(), redis.dataSet(), transitions, follower::fenceHolds, null, new Access(), new AuditTrail(db),
                new com.orderconsole.service.MalformedIds(db), batchSize, maxBatchesPerTick);
    }
}
