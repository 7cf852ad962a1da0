package com.orderconsole.api;

import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.concurrent.atomic.AtomicLong;

import static org.assertj.core.api.Assertions.assertThat;

/** Failed authentications per address: the limit, the window's end, and addresses apart. */
class FailureLimiterTest {
    @Test
    void anAddressIsBlockedAfterItsLimitUntilTheWindowEnds() {
        AtomicLong now = new AtomicLong(1_000_000);
        FailureLimiter l = new FailureLimiter(3, Duration.ofSeconds(60), now::get);
        for (int i = 0; i < 3; i++) {
            assertThat(l.blockedForSeconds("10.0.0.1")).isZero();
            l.failed("10.0.0.1");
        }
        assertThat(l.blockedForSeconds("10.0.0.1")).isEqualTo(60);
        assertThat(l.blockedForSeconds("10.0.0.2")).as("another address").isZero();
        now.addAndGet(59_500);
        assertThat(l.blockedForSeconds("10.0.0.1")).isEqualTo(1);
        now.addAndGet(500);
        assertThat(l.blockedForSeconds("10.0.0.1")).as("a new window").isZero();
        l.failed("10.0.0.1");
        assertThat(l.blockedForSeconds("10.0.0.1")).isZero();
    }
}
