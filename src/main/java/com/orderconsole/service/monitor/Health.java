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
 */
public record Health(boolean redisUp, boolean mysqlUp, Long rulesVersion, List<String> warnings, List<Notice> notices) {
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
     * Health with warnings in English only (no key): each notice is "plain", whose text is the warning itself.
     *
     * @param warnings problems in words
     */
    public Health(boolean redisUp, boolean mysqlUp, Long rulesVersion, List<String> warnings) {
        this(redisUp, mysqlUp, rulesVersion, warnings, warnings.stream().map(w -> new Notice("plain", List.of(w))).toList());
    }
}
