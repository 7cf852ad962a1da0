package com.orderconsole.bench;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/** Collects {@link Row}s in run order and renders them as one Markdown table. */
public final class Table {
    private final List<Row> rows = new ArrayList<>();

    /** Adds a row and echoes it at once, so a long run shows progress. */
    public synchronized void add(Row r) {
        rows.add(r);
        System.out.printf(Locale.ROOT, "  -> %s: %s %s %s%n", r.figure(), r.value(), r.unit(),
                r.verdict().isEmpty() ? "" : "[" + r.verdict() + " " + r.target() + (r.ratio().isEmpty() ? "" : ", ratio " + r.ratio()) + "]");
    }

    /** @return the table in Markdown */
    public synchronized String markdown() {
        StringBuilder sb = new StringBuilder();
        sb.append("| figure | value | unit | target | ratio | result |\n");
        sb.append("|---|---:|---|---|---:|---|\n");
        for (Row r : rows) {
            sb.append("| ").append(r.figure()).append(" | ").append(r.value()).append(" | ").append(r.unit())
                    .append(" | ").append(r.target()).append(" | ").append(r.ratio()).append(" | ").append(r.verdict())
                    .append(" |\n");
        }
        return sb.toString();
    }

    /** Formats a number with thousands separators and {@code decimals} decimals. */
    public static String num(double v, int decimals) {
        return String.format(Locale.ROOT, "%,." + decimals + "f", v);
    }
}
