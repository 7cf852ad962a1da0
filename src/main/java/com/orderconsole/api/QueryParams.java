package com.orderconsole.api;

import com.orderconsole.domain.OrderStatus;

import java.time.Instant;
import java.time.LocalDate;
import java.time.ZoneOffset;
import java.time.format.DateTimeParseException;
import java.util.EnumSet;
import java.util.Locale;
import java.util.Set;

/**
 * A request's query parameters read as what they mean, each refused in words (400, naming the parameter and what it
 * takes) before any server is asked.
 */
final class QueryParams {
    private final ApiCall call;

    QueryParams(ApiCall call) {
        this.call = call;
    }

    /** @return the text of a parameter, or null when it is absent or empty */
    String text(String name) {
        String v = call.queryParam(name);
        return v == null || v.isEmpty() ? null : v;
    }

    /** @return a whole number from {@code min} to {@code max}, or {@code otherwise} when absent */
    int number(String name, int otherwise, int min, int max) {
        return number(text(name), name, otherwise, min, max);
    }

    static int number(String text, String name, int otherwise, int min, int max) {
        if (text == null || text.isEmpty()) {
            return otherwise;
        }
        try {
            int n = Integer.parseInt(text);
            if (n >= min && n <= max) {
                return n;
            }
        } catch (NumberFormatException e) {
            // the same words below
        }
        throw ApiProblem.badInput(name + " must be a whole number from " + min + " to " + max + ", not '" + JsonBody.printable(text) + "'");
    }

    /** @return true for "true", false for "false" or absent */
    boolean flag(String name) {
        String v = text(name);
        if (v == null || v.equals("false")) {
            return false;
        }
        if (v.equals("true")) {
            return true;
        }
        throw ApiProblem.badInput(name + " must be true or false, not '" + JsonBody.printable(v) + "'");
    }

    /**
     * @param endOfDay for a date alone: true reads it as the end of that day (an inclusive "to"), false as its start
     * @return epoch ms of an ISO-8601 instant ("2026-03-01T12:00:00Z") or a UTC date ("2026-03-01"), or null when absent
     */
    Long time(String name, boolean endOfDay) {
        String v = text(name);
        if (v == null) {
            return null;
        }
        try {
            if (v.length() == 10) {
                LocalDate day = LocalDate.parse(v);
                return (endOfDay ? day.plusDays(1) : day).atStartOfDay(ZoneOffset.UTC).toInstant().toEpochMilli();
            }
            return Instant.parse(v).toEpochMilli();
        } catch (DateTimeParseException | ArithmeticException e) {
            throw ApiProblem.badInput(name + " must be an instant such as 2026-03-01T12:00:00Z or a UTC date such as 2026-03-01, not '"
                    + JsonBody.printable(v) + "'");
        }
    }

    /** @return the statuses of a comma-separated list of names or numbers ("PAID,SHIPPED", "2,3"); empty when absent */
    Set<OrderStatus> statuses(String name) {
        String v = text(name);
        Set<OrderStatus> out = EnumSet.noneOf(OrderStatus.class);
        if (v == null) {
            return out;
        }
        for (String one : v.split(",", -1)) {
            out.add(status(name, one));
        }
        return out;
    }

    static OrderStatus status(String name, String text) {
        try {
            if (!text.isEmpty() && text.chars().allMatch(Character::isDigit) && text.length() < 3) {
                return OrderStatus.ofCode(Integer.parseInt(text));
            }
            return OrderStatus.parse(text);
        } catch (IllegalArgumentException e) {
            throw ApiProblem.badInput(name + ": " + e.getMessage());
        }
    }

    /** @return one of {@code choices} (given in lower case), or {@code otherwise} when absent */
    String choice(String name, String otherwise, String... choices) {
        String v = text(name);
        if (v == null) {
            return otherwise;
        }
        for (String c : choices) {
            if (c.equals(v.toLowerCase(Locale.ROOT))) {
                return c;
            }
        }
        throw ApiProblem.badInput(name + " must be one of " + String.join(", ", choices) + ", not '" + JsonBody.printable(v) + "'");
    }
}
