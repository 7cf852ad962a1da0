package com.orderconsole;

import io.lettuce.core.RedisClient;
import io.lettuce.core.api.StatefulRedisConnection;
import io.lettuce.core.api.sync.RedisCommands;

/** A plain Lettuce connection to the test Redis, for planting faults the product never causes itself. */
public final class RawRedis implements AutoCloseable {
    private final RedisClient client;
    private final StatefulRedisConnection<String, String> conn;

    public RawRedis() {
        client = RedisClient.create(TestServers.redis().uri());
        conn = client.connect();
    }

    public RedisCommands<String, String> cmd() {
        return conn.sync();
    }

    @Override
    public void close() {
        conn.close();
        client.shutdown();
    }
}
