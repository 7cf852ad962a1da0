package com.orderconsole.store.migration;

/**
 * The order-id rule of {@link com.orderconsole.domain.OrderId} as SQL, for the procedures' checks: 1 to 64 ASCII letters,
 * digits, '_' or '-', starting with a letter or digit. Written without an end anchor: a regular expression's {@code $}
 * also matches before a final line break (PCRE on MariaDB, ICU on MySQL), so {@code 'NL-2\n'} passed
 * {@code '^…$'}; here any character outside the alphabet, anywhere, fails the check, on both servers alike.
 */
final class IdSql {
    private IdSql() {
    }

    /**
     * @param expr an SQL expression of an ascii text (a column, a parameter, a cast JSON value)
     * @return a condition true only when {@code expr} is a well-formed order id (false or NULL otherwise)
     */
    static String wellFormed(String expr) {
        return "(CHAR_LENGTH(" + expr + ") BETWEEN 1 AND 64 AND " + expr + " REGEXP '^[A-Za-z0-9]' AND NOT (" + expr
                + " REGEXP '[^A-Za-z0-9_-]'))";
    }

    /** @return a condition true when {@code expr} is not NULL and not a well-formed order id */
    static String malformed(String expr) {
        return "(" + expr + " IS NOT NULL AND NOT IFNULL(" + wellFormed(expr) + ", 0))";
    }

    /** The procedures' refusal of an id, in words (at most 128 characters, MySQL's MESSAGE_TEXT). */
    static final String WORDS = "an order id is 1-64 ASCII letters, digits, _ or -, starting with a letter or digit (no space, "
            + "line break or NUL)";
}
