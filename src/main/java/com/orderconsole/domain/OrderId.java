package com.orderconsole.domain;

import java.util.regex.Pattern;

/**
 * Order id syntax, enforced before any Redis key or SQL parameter is built from user input.
 *
 * <p>Accepted: 1 to 64 characters of ASCII letters, digits, '_' and '-', starting with a letter or
 * digit. This covers Olist's 32-hex ids and typical numeric or prefixed ids, and excludes every
 * character that has a meaning in Redis key patterns ({@code * ? [ ] { }}) or hash tags.
 */
public final class OrderId {
    /** Longest accepted id, in characters. */
    public static final int MAX_LENGTH = 64;
    private static final Pattern VALID_PREFIX = Pattern.compile("[A-Za-z0-9_-]{0," + MAX_LENGTH + "}");

    private OrderId() {
    }

    /**
     * Checks an order id.
     *
     * @param id user input
     * @return the id unchanged
     * @throws IllegalArgumentException saying which rule the id breaks and showing it (control characters escaped)
     */
    public static String require(String id) {
        return require(id, "order id");
    }

    /**
     * Checks an id of the same syntax, naming it in the error (e.g. "customer id").
     *
     * @param id user input
     * @param what the field's name for the error message
     * @return the id unchanged
     * @throws IllegalArgumentException naming the field and showing the value
     */
    public static String require(String id, String what) {
        if (id == null || id.isEmpty()) {
            throw new IllegalArgumentException(what + " is empty");
        }
        if (id.length() > MAX_LENGTH) {
            throw new IllegalArgumentException(what + " is " + id.length() + " characters long (at most " + MAX_LENGTH + "): '"
                    + OrderStatus.printable(id.substring(0, 20)) + "...'");
        }
        if (!wellFormed(id)) {
            throw new IllegalArgumentException(what + " '" + OrderStatus.printable(id)
                    + "' is invalid: use 1-64 ASCII letters, digits, '_' or '-', starting with a letter or digit");
        }
        return id;
    }

    /**
     * Checks an id prefix used for lookup (same alphabet, may be empty).
     *
     * @param prefix user input
     * @return the prefix
     * @throws IllegalArgumentException when the prefix contains a character no id may contain
     */
    public static String requirePrefix(String prefix) {
        if (prefix == null || !VALID_PREFIX.matcher(prefix).matches()) {
            throw new IllegalArgumentException("order id prefix '" + OrderStatus.printable(String.valueOf(prefix))
                    + "' is invalid: use up to 64 ASCII letters, digits, '_' or '-'");
        }
        return prefix;
    }

    /**
     * @param id any text found where an id belongs
     * @return it as the product prints ids: control characters as {@code \}{@code uXXXX}, at most 80 characters
     */
    public static String printable(String id) {
        return OrderStatus.printable(id);
    }

    /**
     * Reads an id as the product prints it ({@link #printable}): each {@code \}{@code uXXXX} stands for that character.
     *
     * @param printed text as typed, e.g. {@code NL-2\}{@code u000a}
     * @return the id it stands for, or the text unchanged when it holds no such escape
     */
    public static String fromPrintable(String printed) {
        StringBuilder b = new StringBuilder();
        int i = 0;
        while (i < printed.length()) {
            if (printed.startsWith("\\u", i) && i + 6 <= printed.length() && printed.substring(i + 2, i + 6).matches("[0-9a-fA-F]{4}")) {
                b.append((char) Integer.parseInt(printed.substring(i + 2, i + 6), 16));
                i += 6;
            } else {
                b.append(printed.charAt(i++));
            }
        }
        return b.toString();
    }

    /** @return true when {@code id} is a valid order id */
    public static boolean isValid(String id) {
        return id != null && wellFormed(id);
    }

    /**
     * {@code [A-Za-z0-9][A-Za-z0-9_-]{0,63}} as a loop: every transition checks its id, and the regex made a Matcher and
     * its arrays each time (the allocation profile of a sweep storm).
     */
    private static boolean wellFormed(String id) {
        int n = id.length();
        if (n == 0 || n > MAX_LENGTH) {
            return false;
        }
        for (int i = 0; i < n; i++) {
            char c = id.charAt(i);
            boolean alnum = c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9';
            if (!alnum && (i == 0 || c != '_' && c != '-')) {
                return false;
            }
        }
        return true;
    }
}
