package com.orderconsole.bench;

import org.HdrHistogram.Histogram;

/**
 * What one load run did.
 *
 * @param done operations completed (replied to, successfully or not)
 * @param ok operations that did what they should (e.g. the transition was applied)
 * @param errors operations that failed (exception or error reply)
 * @param busy errors that were Redis BUSY replies (a script running too long)
 * @param firstError message of the first error, or null
 * @param elapsedNanos wall time from the first issue to the last reply, nanoseconds
 * @param latencyMicros per-operation latency histogram, microseconds
 */
public record LoadResult(long done, long ok, long errors, long busy, String firstError, long elapsedNanos,
                         Histogram latencyMicros) {

    /** @return completed operations per second */
    public double opsPerSecond() {
        return done / (elapsedNanos / 1e9);
    }

    /** @return latency at a percentile, milliseconds */
    public double ms(double percentile) {
        return latencyMicros.getValueAtPercentile(percentile) / 1000.0;
    }
}
