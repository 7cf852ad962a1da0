package com.orderconsole.app.remote;

import java.net.URI;
import java.util.OptionalInt;

/**
 * serve did not answer a request, or answered that it cannot take it now: the words name serve's address and what
 * happened (connection refused, no answer in time, 503 with its wait, the connection closed by a serve that restarted).
 * Network trouble, never a refusal of the request itself: the same request may be sent again later.
 */
public class ServeUnavailableException extends RuntimeException {
    /** What happened on the way to serve. */
    public enum Reason {
        /** Nothing listens at the address (serve stopped, or the address is wrong). */
        REFUSED,
        /** The host name does not resolve, or no route leads to it. */
        UNREACHABLE,
        /** No connection or no answer within the timeout. */
        TIMED_OUT,
        /** serve answered 503: it cannot take the request now (a store not answering, stopping); see Retry-After. */
        BUSY,
        /** A proxy or load balancer in front answered 502 or 504: no serve behind it answered. */
        BAD_GATEWAY,
        /** serve closed the connection before answering, twice: it restarted or stopped meanwhile. */
        CLOSED
    }

    private final URI server;
    private final Reason reason;
    private final Integer retryAfterSeconds;

    /**
     * @param server serve's base address, e.g. http://serve.example:8080
     * @param reason what happened
     * @param retryAfterSeconds seconds serve asked to wait (a 503's Retry-After), or null when it did not say
     * @param message the whole sentence, naming {@code server} and what became of the request
     * @param cause the transport's failure (kept for the log, never shown)
     */
    public ServeUnavailableException(URI server, Reason reason, Integer retryAfterSeconds, String message, Throwable cause) {
        super(message, cause);
        this.server = server;
        this.reason = reason;
        this.retryAfterSeconds = retryAfterSeconds;
    }

    /** @return serve's base address */
    public URI server() {
        return server;
    }

    /** @return what happened */
    public Reason reason() {
        return reason;
    }

    /** @return the seconds serve asked to wait before the next try (503 with Retry-After), else empty */
    public OptionalInt retryAfterSeconds() {
        return retryAfterSeconds == null ? OptionalInt.empty() : OptionalInt.of(retryAfterSeconds);
    }
}
