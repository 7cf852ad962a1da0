package com.orderconsole.cli;

/**
 * Pads text to a width in terminal columns, for the command line's tables. {@code String.format}'s
 * {@code %-52s} pads by characters: a label longer than the width pushed its row's figures out of their
 * column, and a Chinese character, which a terminal draws two columns wide, shifted every figure after it.
 */
final class TextColumns {
    private TextColumns() {
    }

    /** @return the columns a terminal draws the text in: two for an East Asian wide or full-width character */
    static int width(String text) {
        return text.codePoints().map(TextColumns::width).sum();
    }

    // Markus Kuhn's wcwidth ranges of East Asian Wide and Fullwidth characters (Hangul, CJK, full-width forms).
    private static int width(int cp) {
        boolean wide = cp >= 0x1100 && (cp <= 0x115F
                || cp >= 0x2E80 && cp <= 0xA4CF && cp != 0x303F
                || cp >= 0xAC00 && cp <= 0xD7A3
                || cp >= 0xF900 && cp <= 0xFAFF
                || cp >= 0xFE30 && cp <= 0xFE6F
                || cp >= 0xFF00 && cp <= 0xFF60
                || cp >= 0xFFE0 && cp <= 0xFFE6
                || cp >= 0x20000 && cp <= 0x3FFFD);
        return wide ? 2 : 1;
    }

    /** @return the text followed by spaces up to {@code columns} (unchanged when already as wide) */
    static String left(String text, int columns) {
        return text + " ".repeat(Math.max(0, columns - width(text)));
    }

    /** @return the text after spaces up to {@code columns} (unchanged when already as wide) */
    static String right(String text, int columns) {
        return " ".repeat(Math.max(0, columns - width(text))) + text;
    }
}
