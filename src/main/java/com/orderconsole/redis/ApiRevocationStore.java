package com.orderconsole.redis;

import io.lettuce.core.cluster.api.async.RedisClusterAsyncCommands;

import java.util.HashMap;
import java.util.Map;

/**
 * The API clients' revocations as every serve reads them from Redis ({@link RedisKeys#API_REVOKED}: client name to the
 * revocation's time, epoch ms). MySQL's {@code api_client} is the record; this copy lets a revocation reach every serve
 * while MySQL does not answer. A name here is refused; a name missing here is decided by MySQL's list alone.
 */
public final class ApiRevocationStore {
    private final RedisConnection redis;
    private final RedisClusterAsyncCommands<String, String> async;

    ApiRevocationStore(RedisConnection redis) {
        this.redis = redis;
        this.async = redis.commands();
    }

    /**
     * @param name the client's name
     * @param revokedAtMs when MySQL recorded the revocation, epoch ms
     * @throws RedisUnavailableException when Redis does not answer within the command timeout
     */
    public void publish(String name, long revokedAtMs) {
        redis.await(async.hset(RedisKeys.API_REVOKED, name, Long.toString(revokedAtMs)), "HSET " + RedisKeys.API_REVOKED);
    }

    /**
     * @return every revoked client's name (the values are not needed to refuse a token)
     * @throws RedisUnavailableException when Redis does not answer within the command timeout
     */
    public Map<String, Long> all() {
        Map<String, String> raw = redis.await(async.hgetall(RedisKeys.API_REVOKED), "HGETALL " + RedisKeys.API_REVOKED);
        Map<String, Long> out = new HashMap<>();
        raw.forEach((k, v) -> {
            long at;
            try {
                at = Long.parseLong(v);
            } catch (NumberFormatException e) {
                at = 0; // a value no console wrote: the name is refused all the same
            }
            out.put(k, at);
        });
        return out;
    }
}
