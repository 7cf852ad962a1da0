package com.orderconsole.soak;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.Locale;
import java.util.stream.Stream;

/** Small helpers shared by the soak's classes. */
final class Soak {
    private Soak() {
    }

    /** Sleeps, keeping the interrupt flag when interrupted (callers check their own deadlines). */
    static void sleep(long ms) {
        if (ms <= 0) {
            return;
        }
        try {
            Thread.sleep(ms);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    /** Deletes a file or directory tree; absent is fine. */
    static void deleteTree(Path p) {
        if (!Files.exists(p)) {
            return;
        }
        try (Stream<Path> s = Files.walk(p)) {
            for (Path x : s.sorted(Comparator.reverseOrder()).toList()) {
                Files.deleteIfExists(x);
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** @return milliseconds as seconds with one decimal, e.g. "12.3 s" */
    static String secs(long ms) {
        return String.format(Locale.ROOT, "%.1f s", ms / 1000.0);
    }
}
