/**
 * Redis, one class per structure it serves: {@link com.orderconsole.redis.RedisConnection} (connection, Lua
 * scripts by SHA, server clock), {@link com.orderconsole.redis.OrderStateStore},
 * {@link com.orderconsole.redis.CancelQueueStore}, {@link com.orderconsole.redis.OutboxStore},
 * {@link com.orderconsole.redis.RulesStore}, {@link com.orderconsole.redis.DataSetStore} and
 * {@link com.orderconsole.redis.StatsStore}, handed out together as
 * {@link com.orderconsole.redis.RedisStores}. Key names come from {@link com.orderconsole.redis.RedisKeys} alone.
 * Methods ending in {@code Async} return futures; all others block at most the command timeout.
 * Lettuce types stay inside this package.
 */
package com.orderconsole.redis;
