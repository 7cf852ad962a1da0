package com.orderconsole.ui.common;

import com.orderconsole.app.Languages;
import com.orderconsole.app.Messages;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.Locale;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** Durations read naturally in each language, and a Chinese user may type Chinese units. */
class FormatsLanguageTest {
    private static final long MIN = 60_000;

    @AfterEach
    void english() {
        Messages.use(Locale.ENGLISH);
    }

    @Test
    void chineseDurationsUseChineseUnits() {
        Messages.use(Languages.ZH_CN);
        assertThat(Formats.duration((3 * 24 * 60 + 4 * 60) * MIN)).isEqualTo("3天4小时");
        assertThat(Formats.duration(12 * MIN + 5_000)).isEqualTo("12分5秒");
        assertThat(Formats.age(5 * 60 * MIN + 7 * MIN)).isEqualTo("5小时");
        assertThat(Formats.elapsed(850)).isEqualTo("850毫秒");
        assertThat(Formats.dueIn(4 * MIN + 10_000)).isEqualTo("4分10秒后");
        assertThat(Formats.dueIn(-3_000)).isEqualTo("已逾期 3秒");
        assertThat(OrderText.status(com.orderconsole.domain.OrderStatus.WAIT_SHIP)).isEqualTo("待发货");
    }

    @Test
    void englishDurationsAreAsBefore() {
        assertThat(Formats.duration((3 * 24 * 60 + 4 * 60) * MIN)).isEqualTo("3 d 4 h");
        assertThat(Formats.age(3524L * 24 * 60 * MIN)).isEqualTo("3524 d");
        assertThat(Formats.dueIn(-3_000)).isEqualTo("overdue by 3 s");
        assertThat(OrderText.status(com.orderconsole.domain.OrderStatus.WAIT_SHIP)).isEqualTo("WAIT_SHIP");
    }

    @Test
    void whatTheConsoleShowsCanBeTypedBack() {
        Messages.use(Languages.ZH_CN);
        assertThat(Formats.parseDuration("1小时30分")).isEqualTo(Duration.ofMinutes(90));
        assertThat(Formats.parseDuration(Formats.duration(Duration.ofSeconds(20)))).isEqualTo(Duration.ofSeconds(20));
        assertThat(Formats.parseDuration("2 天")).isEqualTo(Duration.ofDays(2));
        assertThat(Formats.parseDuration("45 分钟")).isEqualTo(Duration.ofMinutes(45));
        assertThatThrownBy(() -> Formats.parseDuration("很快")).hasMessageContaining("很快").hasMessageContaining("不是时长");
    }
}
