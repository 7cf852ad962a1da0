package com.orderconsole.redis;

/** Redis did not answer in time or refused the command; the message says which and how. */
public class RedisUnavailableException extends RuntimeException {
    public RedisUnavailableException(String message, Throwable cause) {
        super(message, cause);
    }
}
