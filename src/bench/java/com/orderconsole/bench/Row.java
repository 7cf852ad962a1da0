package com.orderconsole.bench;

/**
 * One line of the results table.
 *
 * @param figure what was measured
 * @param value the number, already formatted
 * @param unit its unit (ops/s, ms, s, MB, bytes, ...)
 * @param target the goal in words, or "" when the figure is informational
 * @param ratio the ratio the target is judged on, formatted, or ""
 * @param verdict PASS, MISS, or "" when there is no target
 */
public record Row(String figure, String value, String unit, String target, String ratio, String verdict) {

    /** An informational figure without a target. */
    public static Row info(String figure, String value, String unit) {
        return new Row(figure, value, unit, "", "", "");
    }

    /** A figure judged against a target. */
    public static Row judged(String figure, String value, String unit, String target, String ratio, boolean pass) {
        return new Row(figure, value, unit, target, ratio, pass ? "PASS" : "MISS");
    }
}
