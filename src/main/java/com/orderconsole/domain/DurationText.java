package com.orderconsole.domain;

import java.time.Duration;
import java.time.format.DateTimeParseException;
import java.util.Locale;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The one grammar for a duration a person types, wherever they type it (CLI options, console fields, the rules
 * document): one or more parts {@code <digits><unit>}, spaces allowed around them, units {@code ms}, {@code s} /
 * {@code sec}, {@code m} / {@code min}, {@code h}, {@code d} and their Chinese words (秒, 分 / 分钟, 小时, 天), case
 * ignored, e.g. "90s", "30 min", "1h30m", "500ms", "14d", "2 小时"; or ISO-8601 ("PT30M", "P1D"). Before this class
 * the CLI, the console and the rules document each had a grammar of their own, so "1h 30min" was accepted by the
 * console and refused by the CLI.
 *
 * <p>Zero is a duration here; whether it is allowed is the caller's rule.
 */
public final class DurationText {
    private static final Pattern PART = Pattern.compile("\\s*(\\d+)\\s*(ms|sec|s|min|m|h|d|秒|分钟|分|小时|天)\\s*"); // i18n-ok: units read, not shown

    private DurationText() {
    }

    /**
     * @param text what was typed; null reads as empty
     * @return the duration it names, never negative
     * @throws IllegalArgumentException when the text follows neither form (the caller puts it in its own words)
     * @throws ArithmeticException when it is longer than a {@link Duration} can hold
     */
    public static Duration parse(String text) {
        String t = text == null ? "" : text.strip().toLowerCase(Locale.ROOT);
        if (t.startsWith("p")) {
            try {
                Duration iso = Duration.parse(t.toUpperCase(Locale.ROOT));
                if (iso.isNegative()) {
                    throw new IllegalArgumentException("negative duration: " + text);
                }
                return iso;
            } catch (DateTimeParseException e) {
                throw new IllegalArgumentException("not an ISO-8601 duration: " + text);
            }
        }
        Matcher m = PART.matcher(t);
        Duration d = Duration.ZERO;
        int at = 0;
        while (at < t.length() && m.find(at) && m.start() == at) {
            long n;
            try {
                n = Long.parseLong(m.group(1));
            } catch (NumberFormatException e) {
                throw new ArithmeticException("too long: " + text);
            }
            d = d.plus(switch (m.group(2)) {
                case "ms" -> Duration.ofMillis(n);
                case "s", "sec", "秒" -> Duration.ofSeconds(n); // i18n-ok: units read, not shown
                case "m", "min", "分", "分钟" -> Duration.ofMinutes(n); // i18n-ok: units read, not shown
                case "h", "小时" -> Duration.ofHours(n); // i18n-ok: units read, not shown
                default -> Duration.ofDays(n);
            });
            at = m.end();
        }
        if (t.isEmpty() || at != t.length()) {
            throw new IllegalArgumentException("not a duration: " + text);
        }
        return d;
    }
}
