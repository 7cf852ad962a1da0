package com.orderconsole.redis;

import java.time.Duration;

/**
 * Redis as the engine sees it: one connection and one store per structure it serves. Each service is
 * handed only the stores it uses.
 *
 * @param connection the connection, the scripts and the server clock
 * @param orders order state hashes and the scripts that write them
 * @param queue the cancel queue and the sweepers' heartbeat
 * @param outbox the outbox streams the MySQL follower reads
 * @param rules the rules document and its bucket copies
 * @param dataSet the data set's marker, fence, restore claim, id and bucket count
 * @param stats the counters kept by the scripts
 * @param apiRevocations the API clients' revocations every serve reads
 */
public record RedisStores(RedisConnection connection, OrderStateStore orders, CancelQueueStore queue, OutboxStore outbox,
                          RulesStore rules, DataSetStore dataSet, StatsStore stats,
                          ApiRevocationStore apiRevocations) implements AutoCloseable {

    /**
     * Connects and loads the scripts.
     *
     * @param uri a Redis URI ({@code redis://host:port/db}, {@code rediss://} for TLS)
     * @param commandTimeout how long one command may take before it fails
     * @throws RedisUnavailableException when the server cannot be reached
     */
    public static RedisStores connect(String uri, Duration commandTimeout) {
        RedisConnection c = RedisConnector.connect(uri, commandTimeout);
        return new RedisStores(c, new OrderStateStore(c), new CancelQueueStore(c), new OutboxStore(c), new RulesStore(c),
                new DataSetStore(c), new StatsStore(c), new ApiRevocationStore(c));
    }

    @Override
    public void close() {
        connection.close();
    }
}
