package com.orderconsole.cli;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Locale;
import java.util.concurrent.TimeUnit;

/**
 * Whether this process's stderr is a terminal: progress lines are drawn there only then, so {@code 2>log} keeps them
 * out of a log and {@code >file} still shows them. Java 17 has no isatty for one stream ({@code System.console()} asks
 * about stdin and stdout), so the answer comes from the operating system.
 */
final class StderrTerminal {
    private StderrTerminal() {
    }

    /** @return true when file descriptor 2 is a terminal; false when it is a file, a pipe, or cannot be told */
    static boolean check() {
        String os = System.getProperty("os.name", "").toLowerCase(Locale.ROOT);
        if (os.contains("win")) {
            // No descriptor to ask here: a console for stdin and stdout is the best sign there is.
            return System.console() != null;
        }
        try {
            // Linux: the descriptor's link names the device, /dev/pts/N or /dev/ttyN for a terminal.
            String target = Files.readSymbolicLink(Path.of("/proc/self/fd/2")).toString();
            return target.startsWith("/dev/pts/") || target.startsWith("/dev/tty") || target.equals("/dev/console");
        } catch (IOException | UnsupportedOperationException | SecurityException e) {
            // no /proc (macOS, BSD): the shell's test -t 2, run with this process's stderr
        }
        try {
            Process p = new ProcessBuilder("sh", "-c", "test -t 2").redirectError(ProcessBuilder.Redirect.INHERIT)
                    .redirectOutput(ProcessBuilder.Redirect.DISCARD).start();
            return p.waitFor(5, TimeUnit.SECONDS) && p.exitValue() == 0;
        } catch (IOException e) {
            return false;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return false;
        }
    }
}
