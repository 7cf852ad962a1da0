package com.orderconsole.service.monitor;

import java.util.List;

/**
 * Health of the engine as the status bar and {@code stats} show it.
 *
 * @param redisUp Redis answered PING within the command timeout
 * @param mysqlUp MySQL gave a valid connection within the timeout
 * @param rulesVersion version of the rules in force, or null when Redis is down
 * @param warnings problems in words (eviction policy, scripts missing, sweeper silent, sync lag)
 */
public record Health(boolean redisUp, boolean mysqlUp, Long rulesVersion, List<String> warnings) {
}
