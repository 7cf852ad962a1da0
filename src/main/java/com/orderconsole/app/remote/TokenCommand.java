package com.orderconsole.app.remote;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.orderconsole.app.Messages;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Locale;
import java.util.Objects;
import java.util.concurrent.TimeUnit;

/**
 * An access token printed by a program, as kubectl's credential plugins do ({@code --token-command CMD}, or a profile's
 * {@code token-command}): for shops with their own sign-in tooling and for scripts. The command line runs through the
 * system shell ({@code /bin/sh -c}, on Windows {@code cmd.exe /c}), with the person's terminal as its input when there
 * is one; what it writes on stderr is passed on (a sign-in tool's prompts and errors), its stdout is the token: trimmed,
 * one token in RFC 6750's characters, or an OAuth token response ({@code {"access_token": ..., "expires_in": N}}).
 *
 * <p>The token is kept in memory and asked for again when serve refuses it, after sign-out, and shortly before a JWT's
 * {@code exp} (or the response's {@code expires_in}). A run that fails, times out or prints no token is a
 * {@link SignInRequiredException} in words naming the command; no message ever holds the token.
 */
public final class TokenCommand implements AccessTokens {
    /** How long one run may take: long enough for a sign-in tool that opens the browser and waits for the person. */
    public static final Duration TIMEOUT = Duration.ofMinutes(2);
    /** A token is asked for again this long before it expires, so no request leaves with one about to lapse. */
    static final Duration RENEW_BEFORE = Duration.ofSeconds(60);
    /** The most stdout read from one run. */
    private static final int MAX_OUTPUT = 64 * 1024;
    private static final ObjectMapper JSON = new ObjectMapper();

    private final String command;
    private final Duration timeout;
    private final PrintStream err;
    private final Clock clock;
    private String held;
    /** When the held token is asked for again; null: only when refused (an opaque token of unknown lifetime). */
    private Instant renewAt;
    private String refused;

    /**
     * @param command the command line, run by the system shell
     * @param err where the command's stderr is passed on
     */
    public TokenCommand(String command, PrintStream err) {
        this(command, TIMEOUT, err, Clock.systemUTC());
    }

    /**
     * @param command the command line, run by the system shell
     * @param timeout how long one run may take before it is stopped
     * @param err where the command's stderr is passed on
     * @param clock the time expiries are compared with
     * @throws IllegalArgumentException when the command line is blank
     */
    public TokenCommand(String command, Duration timeout, PrintStream err, Clock clock) {
        if (command == null || command.isBlank()) {
            throw new IllegalArgumentException(Messages.get("remote.token.command.blank"));
        }
        this.command = command.strip();
        this.timeout = Objects.requireNonNull(timeout, "timeout");
        this.err = Objects.requireNonNull(err, "err");
        this.clock = Objects.requireNonNull(clock, "clock");
    }

    @Override
    public synchronized String current() {
        if (held != null && (renewAt == null || clock.instant().isBefore(renewAt))) {
            return held;
        }
        held = null;
        Printed p = run();
        if (p.token().equals(refused)) {
            throw new SignInRequiredException(Messages.format("remote.token.command.sameRefused", command));
        }
        Instant expires = p.expiresIn() != null ? clock.instant().plus(p.expiresIn()) : BearerTokens.expiry(p.token());
        // A token already inside the renewal window is used until it expires, rather than running the command each call.
        renewAt = expires == null ? null : expires.minus(RENEW_BEFORE).isAfter(clock.instant()) ? expires.minus(RENEW_BEFORE) : expires;
        held = p.token();
        return held;
    }

    @Override
    public synchronized void rejected(String token) {
        if (token != null && token.equals(held)) {
            held = null;
            refused = token;
        }
    }

    @Override
    public synchronized void signOut() {
        held = null;
        renewAt = null;
    }

    /** A token as printed, with the lifetime an OAuth token response gave, if any. */
    private record Printed(String token, Duration expiresIn) {
    }

    private Printed run() {
        Process process;
        try {
            ProcessBuilder pb = new ProcessBuilder(shell(command));
            // A sign-in tool may ask the person something; without a terminal it gets no input rather than this one's.
            pb.redirectInput(System.console() != null ? ProcessBuilder.Redirect.INHERIT : ProcessBuilder.Redirect.from(nullDevice()));
            process = pb.start();
        } catch (IOException e) {
            throw new SignInRequiredException(Messages.format("remote.token.command.notStarted", command, e.getMessage()), e);
        }
        ByteArrayOutputStream stdout = new ByteArrayOutputStream();
        Thread out = pump(process.getInputStream(), stdout, MAX_OUTPUT + 1, "token-command-out");
        Thread errPump = pump(process.getErrorStream(), err, Long.MAX_VALUE, "token-command-err");
        try {
            if (!process.waitFor(timeout.toMillis(), TimeUnit.MILLISECONDS)) {
                process.descendants().forEach(ProcessHandle::destroyForcibly);
                process.destroyForcibly();
                throw new SignInRequiredException(Messages.format("remote.token.command.timeout", command, timeout.toMillis() / 1000.0));
            }
            out.join(timeout.toMillis());
            errPump.join(1000);
        } catch (InterruptedException e) {
            process.descendants().forEach(ProcessHandle::destroyForcibly);
            process.destroyForcibly();
            Thread.currentThread().interrupt();
            throw new SignInRequiredException(Messages.format("remote.token.command.interrupted", command), e);
        }
        err.flush();
        int exit = process.exitValue();
        if (exit != 0) {
            throw new SignInRequiredException(Messages.format(exit == 127 ? "remote.token.command.notFound"
                    : "remote.token.command.failed", command, exit));
        }
        if (stdout.size() > MAX_OUTPUT) {
            throw new SignInRequiredException(Messages.format("remote.token.command.tooLong", command, MAX_OUTPUT / 1024));
        }
        return parse(stdout.toString(StandardCharsets.UTF_8).strip());
    }

    private Printed parse(String printed) {
        if (printed.isEmpty()) {
            throw new SignInRequiredException(Messages.format("remote.token.command.empty", command));
        }
        String token = printed;
        Duration expiresIn = null;
        if (printed.startsWith("{")) {
            JsonNode doc;
            try {
                doc = JSON.readTree(printed);
            } catch (IOException e) {
                throw new SignInRequiredException(Messages.format("remote.token.command.badJson", command));
            }
            JsonNode t = doc.get("access_token");
            if (t == null || !t.isTextual()) {
                throw new SignInRequiredException(Messages.format("remote.token.command.noAccessToken", command));
            }
            token = t.asText().strip();
            JsonNode e = doc.get("expires_in");
            expiresIn = e != null && e.canConvertToLong() && e.asLong() > 0 ? Duration.ofSeconds(e.asLong()) : null;
        }
        if (printed.lines().count() > 1 && !printed.startsWith("{")) {
            throw new SignInRequiredException(Messages.format("remote.token.command.lines", command, printed.lines().count()));
        }
        if (token.isEmpty() || !BearerTokens.wellFormed(token)) {
            throw new SignInRequiredException(Messages.format("remote.token.command.malformed", command));
        }
        return new Printed(token, expiresIn);
    }

    private static List<String> shell(String command) {
        return windows() ? List.of("cmd.exe", "/c", command) : List.of("/bin/sh", "-c", command);
    }

    private static java.io.File nullDevice() {
        return new java.io.File(windows() ? "NUL" : "/dev/null");
    }

    private static boolean windows() {
        return System.getProperty("os.name", "").toLowerCase(Locale.ROOT).startsWith("windows");
    }

    /** Copies a stream on a daemon thread, keeping at most {@code max} bytes and draining the rest. */
    private static Thread pump(InputStream in, java.io.OutputStream to, long max, String name) {
        Thread t = new Thread(() -> {
            byte[] buf = new byte[4096];
            long kept = 0;
            try (in) {
                for (int n; (n = in.read(buf)) >= 0; ) {
                    int keep = (int) Math.max(0, Math.min(n, max - kept));
                    if (keep > 0) {
                        to.write(buf, 0, keep);
                        to.flush();
                        kept += keep;
                    }
                }
            } catch (IOException e) {
                // the command ended or was stopped: what it wrote so far is what there is
            }
        }, name);
        t.setDaemon(true);
        t.start();
        return t;
    }
}
