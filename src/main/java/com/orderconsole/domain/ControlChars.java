package com.orderconsole.domain;

/**
 * Whether a text holds a control character (below U+0020, or DEL), which would break the outbox entry's lines
 * (transition.lua keeps actor, source and reason on lines of their own) or recolour a terminal.
 */
public final class ControlChars {
    private ControlChars() {
    }

    /**
     * A plain loop on purpose: it runs three times per transition (and on every bulk reason), and {@code chars().anyMatch} made two stream
     * objects each time (5 % of all the bytes the benchmark JVM allocated in its end-to-end scenario, JFR allocation samples).
     *
     * @return true when {@code s} holds a character below U+0020 or U+007F
     */
    public static boolean in(String s) {
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            if (c < 0x20 || c == 0x7f) {
                return true;
            }
        }
        return false;
    }
}
