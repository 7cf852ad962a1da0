package com.orderconsole.app;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

class ProgressThrottleTest {
    @Test
    void drawsTheFirstReportThenOnePerIntervalAndAlwaysTheLast() {
        ProgressThrottle t = new ProgressThrottle(100);
        assertThat(t.due(5_000, false)).isTrue();
        assertThat(t.due(5_050, false)).isFalse();
        assertThat(t.due(5_099, false)).isFalse();
        assertThat(t.due(5_100, false)).isTrue();
        assertThat(t.due(5_101, true)).isTrue();
    }

    @Test
    void aClockAtZeroStillDrawsTheFirstReport() {
        assertThat(new ProgressThrottle(100).due(0, false)).isTrue();
    }
}
