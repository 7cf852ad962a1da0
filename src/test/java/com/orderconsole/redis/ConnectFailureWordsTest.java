package com.orderconsole.redis;

import io.lettuce.core.RedisConnectionException;
import io.lettuce.core.RedisException;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A port where another kind of server listens fails Lettuce's connect in one of two ways, depending on who is first:
 * "Invalid first byte" or, when the other server's greeting breaks the channel before the handshake begins,
 * "RedisHandshakeHandler not registered" (the second seen once in CI on 2026-12-01, with MySQL's port). Both say it.
 */
class ConnectFailureWordsTest {
    @Test
    void aHandshakeBrokenByAnotherServersGreetingIsNamedInWords() {
        RedisException e = new RedisConnectionException("Unable to connect to 127.0.0.1:3306",
                new RedisException("RedisHandshakeHandler not registered"));
        RuntimeException words = RedisFailures.connectFailure(e, "127.0.0.1:3306");
        assertThat(words).isInstanceOf(RedisUnavailableException.class)
                .hasMessageStartingWith("the server at 127.0.0.1:3306 does not speak the Redis protocol")
                .hasMessageNotContaining("RedisHandshakeHandler");
    }
}
