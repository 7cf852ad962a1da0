package com.orderconsole.service;

import java.util.concurrent.ConcurrentHashMap;

/**
 * Keeps repeated log lines to one per interval and key (e.g. "Redis down" every second becomes one
 * line a minute saying how many were held back). Thread-safe.
 */
public final class LogLimiter {
    private final long intervalMs;
    private final ConcurrentHashMap<String, long[]> byKey = new ConcurrentHashMap<>();

    /** @param intervalMs at most one line per key in this many milliseconds */
    public LogLimiter(long intervalMs) {
        this.intervalMs = intervalMs;
    }

    /**
     * Counts one occurrence.
     *
     * @param key what repeats, e.g. "sweeper tick failed"
     * @return -1 to stay quiet; otherwise log now, and the number is how many occurrences were held back since
     *     the last line
     */
    public long occurrence(String key) {
        long now = System.currentTimeMillis();
        long[] st = byKey.computeIfAbsent(key, k -> new long[]{Long.MIN_VALUE, 0});
        synchronized (st) {
            if (st[0] != Long.MIN_VALUE && now - st[0] < intervalMs) {
                st[1]++;
                return -1;
            }
            long held = st[1];
            st[0] = now;
            st[1] = 0;
            return held;
        }
    }

    /** @return " (N more like it in the last S s)" for a held-back count, "" for none */
    public String more(long held) {
        return held <= 0 ? "" : " (" + held + " more like it in the last " + intervalMs / 1000 + " s)";
    }
}
