package com.orderconsole.ui.common;

import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.concurrent.CompletionException;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class FormatsTest {

    @Test
    void durationsShowTheTwoLargestUnits() {
        assertThat(Formats.duration(40_000)).isEqualTo("40 s");
        assertThat(Formats.duration(12 * 60_000 + 5_000)).isEqualTo("12 min 5 s");
        assertThat(Formats.duration(Duration.ofHours(2))).isEqualTo("2 h");
        assertThat(Formats.duration(Duration.ofDays(3).plusHours(4).plusMinutes(9))).isEqualTo("3 d 4 h");
        assertThat(Formats.dueIn(10_000, 4_000)).isEqualTo("in 6 s");
        assertThat(Formats.elapsed(98)).isEqualTo("98 ms");
        assertThat(Formats.elapsed(61_000)).isEqualTo("1 min 1 s");
        assertThat(Formats.dueIn(4_000, 7_000)).isEqualTo("overdue by 3 s");
    }

    @Test
    void parsesWhatItPrints() {
        assertThat(Formats.parseDuration("30 min")).isEqualTo(Duration.ofMinutes(30));
        assertThat(Formats.parseDuration("2h")).isEqualTo(Duration.ofHours(2));
        assertThat(Formats.parseDuration("14 d")).isEqualTo(Duration.ofDays(14));
        assertThat(Formats.parseDuration("1 h 30 min")).isEqualTo(Duration.ofMinutes(90));
        assertThat(Formats.parseDuration(Formats.duration(Duration.ofDays(3).plusHours(4)))).isEqualTo(Duration.ofDays(3).plusHours(4));
        for (String bad : new String[]{"", "soon", "0 min", "30", "5 weeks", "-3 h"}) {
            assertThatThrownBy(() -> Formats.parseDuration(bad)).as(bad)
                    .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("is not a duration");
        }
    }

    @Test
    void errorsAreOneLineOfWords() {
        assertThat(ErrorText.couldNot("load orders", new CompletionException(new IllegalStateException("Redis is down"))))
                .isEqualTo("Could not load orders: Redis is down");
        RuntimeException mybatis = new RuntimeException("\n### Error querying database.  Cause: x\n### SQL: SELECT",
                new IllegalStateException("MySQL at 127.0.0.1:3306 is unreachable"));
        assertThat(ErrorText.describe(mybatis)).isEqualTo("MySQL at 127.0.0.1:3306 is unreachable");
        assertThat(ErrorText.describe(new NullPointerException())).isEqualTo("unexpected NullPointerException");
        assertThat(ErrorText.describe(new IllegalStateException("first line\n\tat com.x.Y(Y.java:1)"))).isEqualTo("first line");
    }
}
