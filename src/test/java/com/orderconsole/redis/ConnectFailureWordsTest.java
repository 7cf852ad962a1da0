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

    /** A refused connection fails at once, in words that say nothing listens there (not a timeout). */
    @Test
    void aRefusedConnectionIsNamedAsRefusedAndFailsFast() throws Exception {
        int dead;
        try (java.net.ServerSocket probe = new java.net.ServerSocket(0, 1, java.net.InetAddress.getLoopbackAddress())) {
            dead = probe.getLocalPort();
        }
        long t0 = System.nanoTime();
        Throwable e = org.assertj.core.api.Assertions.catchThrowable(() ->
                RedisConnector.connect("redis://127.0.0.1:" + dead, java.time.Duration.ofSeconds(5)).close());
        long ms = (System.nanoTime() - t0) / 1_000_000;
        assertThat(e).isInstanceOf(RedisUnavailableException.class)
                .hasMessageStartingWith("Redis at 127.0.0.1:" + dead + " refused the connection: nothing listens")
                .hasMessageNotContaining("Exception");
        assertThat(ms).as("not the 5 s timeout").isLessThan(3_000);
    }
}
