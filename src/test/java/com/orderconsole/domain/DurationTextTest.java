package com.orderconsole.domain;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;

import java.time.Duration;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class DurationTextTest {
    @ParameterizedTest(name = "\"{0}\" is {1} ms")
    @CsvSource(delimiter = '|', value = {
            "90s | 90000", "30m | 1800000", "2h | 7200000", "14d | 1209600000", "500ms | 500",
            "1h30m | 5400000", "1h 30min | 5400000", "30 min | 1800000", "90 sec | 90000", " 2H | 7200000",
            "PT30M | 1800000", "pt30m | 1800000", "P1D | 86400000", "2 小时 | 7200000", "5分钟 | 300000", "0s | 0"})
    void everyFormTheProductDocumentsReadsAsTheSameDuration(String text, long ms) {
        assertThat(DurationText.parse(text)).isEqualTo(Duration.ofMillis(ms));
    }

    @ParameterizedTest(name = "\"{0}\" is refused")
    @ValueSource(strings = {"", " ", "30", "m", "30x", "-5m", "5m-", "1.5h", "30 minutes", "h30", "PT", "P-1D", "PT-5M", "5m garbage"})
    void anythingElseIsRefused(String text) {
        assertThatThrownBy(() -> DurationText.parse(text)).isInstanceOf(IllegalArgumentException.class);
    }

    @ParameterizedTest
    @ValueSource(strings = {"99999999999999999999s", "9999999999999999d"})
    void aDurationTooLongToHoldIsRefusedAsTooLong(String text) {
        assertThatThrownBy(() -> DurationText.parse(text)).isInstanceOf(ArithmeticException.class);
    }
}
