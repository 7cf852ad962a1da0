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

    /** The check is a hand loop (it runs on every transition); it must accept exactly what the documented pattern does. */
    @org.junit.jupiter.api.Test
    void acceptsExactlyTheDocumentedPattern() {
        java.util.regex.Pattern documented = java.util.regex.Pattern.compile("[A-Za-z0-9][A-Za-z0-9_-]{0,63}");
        String chars = "aAzZ09_-/:@[`{ .\u00e9\u0663\u0000\u007f";
        java.util.List<String> tries = new java.util.ArrayList<>(java.util.List.of("", "a".repeat(64), "a".repeat(65), "9" + "-".repeat(63)));
        for (char c1 : chars.toCharArray()) {
            tries.add(String.valueOf(c1));
            for (char c2 : chars.toCharArray()) {
                tries.add("" + c1 + c2);
                tries.add("x" + c1 + c2);
            }
        }
        for (String id : tries) {
            assertThat(OrderId.isValid(id)).as("'%s'", id).isEqualTo(documented.matcher(id).matches());
        }
    }
}
