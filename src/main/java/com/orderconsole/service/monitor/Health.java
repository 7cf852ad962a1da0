package com.orderconsole.service.monitor;

import java.util.List;

/**
 * Health of the engine as the status bar and {@code stats} show it.
 *
 * @param redisUp Redis answered PING within the command timeout
 * @param mysqlUp MySQL gave a valid connection within the timeout
 * @param rulesVersion version of the rules in force, or null when Redis is down
 * @param warnings problems in words (eviction policy, scripts missing, sweeper silent, sync lag)
 * @param masters the Redis masters and the buckets each holds (one entry on a single server; empty when
 *     Redis is down)
 */
public record Health(boolean redisUp, boolean mysqlUp, Long rulesVersion, List<String> warnings, List<RedisMaster> masters) {
    /** Health without the masters (Redis could not be asked). */
    public Health(boolean redisUp, boolean mysqlUp, Long rulesVersion, List<String> warnings) {
        this(redisUp, mysqlUp, rulesVersion, warnings, List.of());
    }

    /**
     * @return the largest bucket count on one master divided by the mean over the masters (1.0 = perfectly
     *     even; the load of a master follows its buckets, since orders spread evenly over buckets), or 1.0
     *     when there are no masters
     */
    public double maxOverMean() {
        return maxOverMean(masters);
    }

    /** @return {@link #maxOverMean()} of these masters */
    static double maxOverMean(List<RedisMaster> masters) {
        if (masters.isEmpty()) {
            return 1.0;
        }
        int total = 0;
        int max = 0;
        for (RedisMaster m : masters) {
            total += m.buckets();
            max = Math.max(max, m.buckets());
        }
        return total == 0 ? 1.0 : max / ((double) total / masters.size());
    }
}
