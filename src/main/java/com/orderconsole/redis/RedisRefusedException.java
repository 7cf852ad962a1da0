package com.orderconsole.redis;

/**
 * Redis refused a command to the user this session connects as (ACL {@code NOPERM}), e.g. a write or a
 * script run by a read-only user. The message names the server and the call, never credentials.
 */
public class RedisRefusedException extends RuntimeException {
    public RedisRefusedException(String message, Throwable cause) {
        super(message, cause);
    }
}
