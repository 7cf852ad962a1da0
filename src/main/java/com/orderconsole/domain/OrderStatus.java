package com.orderconsole.domain;

import java.util.Locale;

/**
 * The order statuses, the one source of the status set. Each has a stable numeric code (stored in Redis and MySQL)
 * and a name; both are accepted wherever a status is read from a user. The codes run 1..{@link #count()} in
 * declaration order: the Lua scripts are given the count ({@code redis/LuaScript}) and read codes by position, and
 * messages name the range through {@link #codeRange()}. StatusSetTest names every other place a new status needs
 * (a colour per theme, a word per language, the default rules).
 */
public enum OrderStatus {
    WAIT_PAY(1),
    PAID(2),
    WAIT_SHIP(3),
    SHIPPED(4),
    FINISHED(5),
    CANCELLED(6);

    private static final OrderStatus[] VALUES = values();

    private final int code;

    OrderStatus(int code) {
        this.code = code;
    }

    /** @return how many statuses there are; their codes are 1..count() */
    public static int count() {
        return VALUES.length;
    }

    /** @return the codes' range as messages show it, e.g. "1..6" */
    public static String codeRange() {
        return "1.." + count();
    }

    /** @return the names in code order, comma separated, e.g. "WAIT_PAY, PAID, ..." */
    public static String names() {
        StringBuilder b = new StringBuilder();
        for (OrderStatus s : VALUES) {
            b.append(b.length() == 0 ? "" : ", ").append(s.name());
        }
        return b.toString();
    }

    /** @return the numeric code, 1..{@link #count()}, as stored in Redis and MySQL */
    public int code() {
        return code;
    }

    /**
     * Looks a status up by its numeric code.
     *
     * @param code 1..{@link #count()}
     * @return the status
     * @throws IllegalArgumentException naming the code when it is out of range
     */
    public static OrderStatus ofCode(int code) {
        for (OrderStatus s : VALUES) {
            if (s.code == code) {
                return s;
            }
        }
        throw new IllegalArgumentException("unknown status code " + code + " (expected " + codeRange() + ")");
    }

    /**
     * Parses a status given by code ("2") or by name ("PAID", case-insensitive, '-' or ' ' for '_'), with nothing
     * around it: the API, the CLI and the rules documents all read statuses here.
     *
     * @param text user input
     * @return the status
     * @throws IllegalArgumentException naming the input when it is neither a known code nor name, or has spaces around
     *         it or a control character in it
     */
    public static OrderStatus parse(String text) {
        if (text == null || text.isBlank()) {
            throw new IllegalArgumentException("status is empty (expected " + expected() + ")");
        }
        // Not trimmed: were " PAID" or "PAID\u0000" taken as PAID, a proxy's log and the move would disagree on what was
        // asked.
        boolean control = text.chars().anyMatch(Character::isISOControl);
        if (control || blank(text.codePointAt(0)) || blank(text.codePointBefore(text.length()))) {
            throw new IllegalArgumentException("status '" + printable(text) + "' has "
                    + (control ? "a control character in it" : "spaces around it") + ": give the name or number alone (expected "
                    + expected() + ")");
        }
        // ASCII digits only: Character.isDigit would take e.g. Arabic-Indic digits for codes.
        if (text.length() <= 3 && text.chars().allMatch(c -> c >= '0' && c <= '9')) {
            return ofCode(Integer.parseInt(text));
        }
        String norm = text.toUpperCase(Locale.ROOT).replace('-', '_').replace(' ', '_');
        for (OrderStatus s : values()) {
            if (s.name().equals(norm)) {
                return s;
            }
        }
        throw new IllegalArgumentException("unknown status '" + printable(text) + "' (expected " + expected() + ")");
    }

    private static boolean blank(int cp) {
        return Character.isWhitespace(cp) || Character.isSpaceChar(cp);
    }

    private static String expected() {
        return codeRange() + " or one of " + names();
    }

    /** @return a short human label, e.g. "Wait pay" */
    public String label() {
        String n = name().replace('_', ' ').toLowerCase(Locale.ROOT);
        return Character.toUpperCase(n.charAt(0)) + n.substring(1);
    }

    static String printable(String s) {
        StringBuilder b = new StringBuilder();
        s.codePoints().limit(80).forEach(cp -> {
            if (Character.isISOControl(cp)) {
                b.append(String.format("\\u%04x", cp));
            } else {
                b.appendCodePoint(cp);
            }
        });
        return b.toString();
    }
}
