package com.orderconsole.api;

import java.time.Duration;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.LongSupplier;

/**
 * Failed authentications per source address: after {@link #limit} failures within one {@link #window}, that address's
 * requests whose token is not already known good are refused until the window ends (429 with Retry-After), so guessing
 * tokens costs an attacker a window per few guesses and serve no work. A token already verified still passes: a person or
 * service behind the same proxy is not locked out by someone else's failures.
 */
final class FailureLimiter {
    /** Failures allowed per address and window unless told otherwise. */
    static final int DEFAULT_LIMIT = 20;
    /** The window unless told otherwise. */
    static final Duration DEFAULT_WINDOW = Duration.ofMinutes(1);
    /** Most addresses tracked; beyond it, windows that ended are dropped, and if none has, all. */
    static final int MAX_ADDRESSES = 100_000;

    private final int limit;
    private final Duration window;
    private final LongSupplier clockMs;
    private final ConcurrentHashMap<String, Window> byAddress = new ConcurrentHashMap<>();

    private record Window(long startMs, int failures) {
    }

    /**
     * @param limit failures allowed per address in a window, ≥ 1
     * @param window the window's length
     */
    FailureLimiter(int limit, Duration window) {
        this(limit, window, System::currentTimeMillis);
    }

    FailureLimiter(int limit, Duration window, LongSupplier clockMs) {
        if (limit < 1 || window.isNegative() || window.isZero()) {
            throw new IllegalArgumentException("the failure limit must be at least 1 in a positive window");
        }
        this.limit = limit;
        this.window = window;
        this.clockMs = clockMs;
    }

    /** @return the default: 20 failures per address per minute */
    static FailureLimiter standard() {
        return new FailureLimiter(DEFAULT_LIMIT, DEFAULT_WINDOW);
    }

    /**
     * @param address the request's source address
     * @return seconds until the address may try again (≥ 1), or 0 when it may now
     */
    long blockedForSeconds(String address) {
        Window w = byAddress.get(address);
        long now = clockMs.getAsLong();
        if (w == null || w.failures < limit || now - w.startMs >= window.toMillis()) {
            return 0;
        }
        return Math.max(1, (w.startMs + window.toMillis() - now + 999) / 1000);
    }

    /** Counts a failed authentication from {@code address}. */
    void failed(String address) {
        long now = clockMs.getAsLong();
        if (byAddress.size() >= MAX_ADDRESSES) {
            byAddress.values().removeIf(w -> now - w.startMs >= window.toMillis());
            if (byAddress.size() >= MAX_ADDRESSES) {
                byAddress.clear();
            }
        }
        byAddress.compute(address, (a, w) -> w == null || now - w.startMs >= window.toMillis() ? new Window(now, 1)
                : new Window(w.startMs, w.failures + 1));
    }

    /** @return failures allowed per window */
    int limit() {
        return limit;
    }

    /** @return the window */
    Duration window() {
        return window;
    }
}
