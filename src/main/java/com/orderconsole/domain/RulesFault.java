package com.orderconsole.domain;

import java.util.List;

/**
 * One fault of a rules document, in a form each front end can put in words in its own language.
 *
 * @param key text key of the fault, e.g. {@code rules.fault.selfLoop} (the bundles hold its words)
 * @param args the values the text names (statuses, edges, the offending input), already as text
 * @param english the fault in English, for logs and exception messages
 * @param subject the status the fault is about, or null (used to find it in the document)
 * @param target for a fault about one edge, its target status, else null
 * @param line 1-based line in the document where the fault is, 0 when it has no single place
 * @param column 1-based column of that line, 0 when {@code line} is 0
 */
public record RulesFault(String key, List<String> args, String english, OrderStatus subject, OrderStatus target,
                         int line, int column) {
    public RulesFault {
        args = List.copyOf(args);
    }

    /** A fault without a place yet. */
    public static RulesFault of(String key, String english, OrderStatus subject, OrderStatus target, String... args) {
        return new RulesFault(key, List.of(args), english, subject, target, 0, 0);
    }

    /** @return this fault placed at a line and column (1-based) */
    public RulesFault at(int atLine, int atColumn) {
        return new RulesFault(key, args, english, subject, target, atLine, atColumn);
    }

    /** @return true when the fault has a line and column */
    public boolean placed() {
        return line > 0;
    }

    /** @return the English text with its place, e.g. "line 3, column 5: self-loop on PAID" */
    @Override
    public String toString() {
        return placed() ? "line " + line + ", column " + column + ": " + english : english;
    }
}
