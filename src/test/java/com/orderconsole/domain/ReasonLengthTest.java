package com.orderconsole.domain;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** Issue 33 (smaller): a reason's length is counted in characters, as the utf8mb4 column counts them, not UTF-16 units. */
class ReasonLengthTest {
    private static final String EMOJI = "\uD83D\uDE00"; // one character, two UTF-16 units

    @Test
    void threeHundredEmojiAreThreeHundredCharacters() {
        TransitionRequest r = new TransitionRequest("A-1", OrderStatus.PAID, null, "cli", EMOJI.repeat(300), false);
        assertThat(r.reason().codePointCount(0, r.reason().length())).isEqualTo(300);
    }

    @Test
    void morethanFiveHundredCharactersAreRefusedCountedAsCharacters() {
        assertThatThrownBy(() -> new TransitionRequest("A-1", OrderStatus.PAID, null, "cli", EMOJI.repeat(501), false))
                .hasMessageContaining("reason is 501 characters long");
    }
}
