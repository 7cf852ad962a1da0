package com.orderconsole.service.follower;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/** Issue 15.2: the follower's status says in words when the outbox backlog passes its size or age. */
class BacklogWarningTest {
    @Test
    void quietBelowBothLimits() {
        assertThat(FollowerSettings.backlogWarning(10, false, 500L)).isNull();
        assertThat(FollowerSettings.backlogWarning(0, false, null)).isNull();
    }

    @Test
    void saysSoWithTheFigurePastEitherLimit() {
        assertThat(FollowerSettings.backlogWarning(FollowerSettings.WARN_PENDING + 1, true, 2_000L))
                .contains("100,001+ changes wait in the Redis outbox").contains("oldest 2 s");
        assertThat(FollowerSettings.backlogWarning(5, false, FollowerSettings.WARN_AGE_MS + 5_000))
                .contains("5 changes wait").contains("oldest 15 s");
    }
}
