package com.orderconsole.redis;

/**
 * The grammar of every number in an order's Redis record (status, version, updateTime, createTime), on the Java
 * side. transition.lua checks the same grammar for the fields it reads (status and version, its "record numbers"
 * comment): a canonical decimal integer, that is {@code 0} or a digit 1-9 followed by at most 14 ASCII digits.
 * Nothing else: no sign, space, exponent ({@code 1e3}), hex ({@code 0x2}), fraction ({@code 2.0}) or leading zero
 * ({@code 02}). Lua's {@code tonumber} and Java's {@code Long.parseLong} each accept some of those, and differently,
 * so a record one side read as PAID the other called malformed (issue 25). 15 digits keep every value exact in
 * Lua's numbers (doubles, exact up to 2^53, about 9.007e15).
 */
public final class RecordNumber {
    /** Most digits a record number may have. */
    public static final int MAX_DIGITS = 15;

    private RecordNumber() {
    }

    /**
     * @param text a field's value as stored, may be null
     * @return its value, or -1 when it is absent or does not follow the grammar
     */
    public static long parse(String text) {
        if (text == null || text.isEmpty() || text.length() > MAX_DIGITS) {
            return -1;
        }
        char first = text.charAt(0);
        if (first == '0') {
            return text.length() == 1 ? 0 : -1;
        }
        long v = 0;
        for (int i = 0; i < text.length(); i++) {
            char c = text.charAt(i);
            if (c < '0' || c > '9') {
                return -1;
            }
            v = v * 10 + (c - '0');
        }
        return v;
    }
}
