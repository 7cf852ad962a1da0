package com.orderconsole.service.monitor;

import java.util.List;

/**
 * Health of the engine as the status bar and {@code stats} show it.
 *
 * @param redisUp Redis answered PING within the command timeout
 * @param mysqlUp MySQL gave a valid connection within the timeout
 * @param rulesVersion version of the rules in force, or null when Redis is down
 * @param warnings problems in English words (eviction policy, sweeper silent, sync lag), for --json and logs
 * @param notices the same problems, one per warning in the same order, as a text key and its values, so the
 *     console and the CLI can say them in the user's language
 * @param masters the Redis masters and the buckets each holds (one entry on a single server; empty when
 *     Redis is down)
 */
public record Health(boolean redisUp, boolean mysqlUp, Long rulesVersion, List<String> warnings, List<Notice> notices,
                     List<RedisMaster> masters) {
    /**
     * One warning for a person to read.
     *
     * @param key the text's key without its section, e.g. "sweeperNever" (the bundles hold "health.sweeperNever")
     * @param args the values the text names (server address, seconds, policy), in order
     */
    public record Notice(String key, List<Object> args) {
        public Notice {
            args = List.copyOf(args);
        }
    }

    /**
     * Health with warnings in English only (no key): each notice is "plain", whose text is the warning
     * itself; no masters (Redis could not be asked).
     *
     * @param warnings problems in words
     */
    public Health(boolean redisUp, boolean mysqlUp, Long rulesVersion, List<String> warnings) {
        this(redisUp, mysqlUp, rulesVersion, warnings, warnings.stream().map(w -> new Notice("plain", List.of(w))).toList(), List.of());
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
