package com.orderconsole.domain;

import java.util.Locale;

/**
 * The six order statuses. Each has a stable numeric code (stored in Redis and MySQL) and a name;
 * both are accepted wherever a status is read from a user.
 */
public enum OrderStatus {
    WAIT_PAY(1),
    PAID(2),
    WAIT_SHIP(3),
    SHIPPED(4),
    FINISHED(5),
    CANCELLED(6);

    private final int code;

    OrderStatus(int code) {
        this.code = code;
    }

    /** @return the numeric code, 1..6, as stored in Redis and MySQL */
    public int code() {
        return code;
    }

    /**
     * Looks a status up by its numeric code.
     *
     * @param code 1..6
     * @return the status
     * @throws IllegalArgumentException naming the code when it is out of range
     */
    public static OrderStatus ofCode(int code) {
        for (OrderStatus s : values()) {
            if (s.code == code) {
                return s;
            }
        }
        throw new IllegalArgumentException("unknown status code " + code + " (expected 1..6)");
    }

    /**
     * Parses a status given by code ("2") or by name ("PAID", case-insensitive, '-' or ' ' for '_').
     *
     * @param text user input
     * @return the status
     * @throws IllegalArgumentException naming the input when it is neither a known code nor name
     */
    public static OrderStatus parse(String text) {
        if (text == null || text.isBlank()) {
            throw new IllegalArgumentException("status is empty (expected 1..6 or one of WAIT_PAY, PAID, WAIT_SHIP, SHIPPED, FINISHED, CANCELLED)");
        }
        String t = text.trim();
        // ASCII digits only: Character.isDigit would take e.g. Arabic-Indic digits for codes.
        if (t.length() <= 3 && t.chars().allMatch(c -> c >= '0' && c <= '9')) {
            return ofCode(Integer.parseInt(t));
        }
        String norm = t.toUpperCase(Locale.ROOT).replace('-', '_').replace(' ', '_');
        for (OrderStatus s : values()) {
            if (s.name().equals(norm)) {
                return s;
            }
        }
        throw new IllegalArgumentException("unknown status '" + printable(t)
                + "' (expected 1..6 or one of WAIT_PAY, PAID, WAIT_SHIP, SHIPPED, FINISHED, CANCELLED)");
    }

    /** @return a short human label, e.g. "Wait pay" */
    public String label() {
        String n = name().replace('_', ' ').toLowerCase(Locale.ROOT);
        return Character.toUpperCase(n.charAt(0)) + n.substring(1);
    }

    static String printable(String s) {
        StringBuilder b = new StringBuilder();
        s.codePoints().limit(80).forEach(cp -> {
            if (cp < 0x20 || cp == 0x7f) {
                b.append(String.format("\\u%04x", cp));
            } else {
                b.appendCodePoint(cp);
            }
        });
        return b.toString();
    }
}
