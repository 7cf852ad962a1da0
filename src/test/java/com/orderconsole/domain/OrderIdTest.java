package com.orderconsole.domain;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class OrderIdTest {
    @ParameterizedTest
    @ValueSource(strings = {"e481f51cbdc54678b7cc49136f2d6af7", "10001", "A-1_b", "x"})
    void acceptsTheDocumentedSyntax(String id) {
        assertThat(OrderId.require(id)).isEqualTo(id);
    }

    @ParameterizedTest
    @ValueSource(strings = {"", " 1", "a b", "a*", "a?", "a[1]", "{tag}", "a\nb", "ordré", "-lead", "_lead"})
    void rejectsAnythingThatCouldBreakAKeyOrAPattern(String id) {
        assertThatThrownBy(() -> OrderId.require(id)).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("order id");
    }

    @ParameterizedTest
    @ValueSource(ints = {65, 200})
    void rejectsOverlongIdsNamingTheLength(int n) {
        assertThatThrownBy(() -> OrderId.require("a".repeat(n))).hasMessageContaining(n + " characters long");
    }
}
