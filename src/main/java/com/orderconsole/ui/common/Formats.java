package com.orderconsole.ui.common;

import com.orderconsole.app.Messages;
import com.orderconsole.domain.DurationText;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneId;
import java.time.format.DateTimeFormatter;
import java.util.Locale;

/**
 * Text for times and durations as the console shows them: in the machine's time zone, which every
 * date-time names (the CLI prints UTC, so a time without its zone would be ambiguous).
 */
public final class Formats {
    // Year-month-day and a 24-hour clock read the same in English and Chinese (and sort as text); the units
    // of durations and the words around them come from the bundle.
    private static final DateTimeFormatter DATE_TIME = DateTimeFormatter.ofPattern("yyyy-MM-dd HH:mm:ss z", Locale.ROOT); // i18n-ok: a date pattern
    private static final DateTimeFormatter SHORT = DateTimeFormatter.ofPattern("yyyy-MM-dd HH:mm", Locale.ROOT); // i18n-ok: a date pattern
    private static final DateTimeFormatter DATE = DateTimeFormatter.ofPattern("yyyy-MM-dd", Locale.ROOT);
    private static final DateTimeFormatter TIME = DateTimeFormatter.ofPattern("HH:mm:ss", Locale.ROOT);
    private static final DateTimeFormatter ZONE = DateTimeFormatter.ofPattern("z", Locale.ROOT);

    /** Units a person may type: English, and the Chinese ones the console shows in Chinese. */

    private Formats() {
    }

    /** @param epochMs epoch milliseconds, or null @return local date and time with the zone, e.g. "2026-12-01 14:03:05 CET", "" for null */
    public static String dateTime(Long epochMs) {
        return epochMs == null ? "" : DATE_TIME.format(Instant.ofEpochMilli(epochMs).atZone(ZoneId.systemDefault()));
    }

    /** @param epochMs epoch milliseconds, or null @return local date and minute with the year, for narrow columns, "" for null */
    public static String shortDateTime(Long epochMs) {
        return epochMs == null ? "" : SHORT.format(Instant.ofEpochMilli(epochMs).atZone(ZoneId.systemDefault()));
    }

    /** @param epochMs epoch milliseconds, or null @return local day, e.g. "2017-10-02", "" for null */
    public static String date(Long epochMs) {
        return epochMs == null ? "" : DATE.format(Instant.ofEpochMilli(epochMs).atZone(ZoneId.systemDefault()));
    }

    /** @return the machine's time zone as the console names it, e.g. "CET", "UTC" (for column headers) */
    public static String zone() {
        return ZONE.format(Instant.now().atZone(ZoneId.systemDefault()));
    }

    /** @param epochMs epoch milliseconds, or null @return local time of day, "" for null (say the zone nearby, see {@link #zone()}) */
    public static String time(Long epochMs) {
        return epochMs == null ? "" : TIME.format(Instant.ofEpochMilli(epochMs).atZone(ZoneId.systemDefault()));
    }

    /**
     * @param ms a length of time in milliseconds (negative treated as its absolute value)
     * @return the two largest units, e.g. "3 d 4 h", "12 min 5 s", "40 s"
     */
    public static String duration(long ms) {
        long s = Math.abs(ms) / 1000;
        long d = s / 86_400;
        long h = s % 86_400 / 3600;
        long m = s % 3600 / 60;
        long sec = s % 60;
        if (d > 0) {
            return h > 0 ? two(unit("d", d), unit("h", h)) : unit("d", d);
        }
        if (h > 0) {
            return m > 0 ? two(unit("h", h), unit("min", m)) : unit("h", h);
        }
        if (m > 0) {
            return sec > 0 ? two(unit("min", m), unit("s", sec)) : unit("min", m);
        }
        return unit("s", sec);
    }

    /** @return e.g. "3 d" in English, "3天" in Chinese */
    private static String unit(String unit, long n) {
        return Messages.format("common.unit." + unit, n);
    }

    private static String two(String larger, String smaller) {
        return Messages.format("common.unit.two", larger, smaller);
    }

    /**
     * @param ms a length of time in milliseconds, for narrow columns
     * @return the largest unit only, e.g. "3524 d", "5 h", "12 min", "40 s"
     */
    public static String age(long ms) {
        long s = Math.abs(ms) / 1000;
        if (s >= 86_400) {
            return unit("d", s / 86_400);
        }
        if (s >= 3600) {
            return unit("h", s / 3600);
        }
        return s >= 60 ? unit("min", s / 60) : unit("s", s);
    }

    /**
     * @param ms how long something took, milliseconds
     * @return "850 ms" below a second, else as {@link #duration(long)}
     */
    public static String elapsed(long ms) {
        return ms < 1000 ? unit("ms", ms) : duration(ms);
    }

    /** @return e.g. "30 min", "2 h", "14 d" for thresholds */
    public static String duration(Duration d) {
        return duration(d.toMillis());
    }

    /**
     * @param dueAtMs a deadline, epoch ms
     * @param nowMs the current time, epoch ms
     * @return "in 4 min 10 s" or "overdue by 3 s"
     */
    public static String dueIn(long dueAtMs, long nowMs) {
        return dueIn(dueAtMs - nowMs);
    }

    /**
     * @param leftMs time left until a deadline, ms; negative once it passed
     * @return "in 4 min 10 s" or "overdue by 3 s"
     */
    public static String dueIn(long leftMs) {
        return leftMs >= 0 ? Messages.format("common.dueIn", duration(leftMs)) : Messages.format("common.overdueBy", duration(-leftMs));
    }

    /**
     * Parses a duration typed by a person.
     *
     * @param text in the product's one grammar ({@link DurationText}), e.g. "30 min", "2h", "14d", "1h 30min", "90 s"
     * @return the duration
     * @throws IllegalArgumentException in words when the text is not a positive duration
     */
    public static Duration parseDuration(String text) {
        Duration d;
        try {
            d = DurationText.parse(text);
        } catch (IllegalArgumentException | ArithmeticException e) {
            throw new IllegalArgumentException(Messages.format("common.notADuration", text));
        }
        if (d.isZero()) {
            throw new IllegalArgumentException(Messages.format("common.notADuration", text));
        }
        return d;
    }
}
