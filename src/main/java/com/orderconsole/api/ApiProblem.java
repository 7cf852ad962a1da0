package com.orderconsole.api;

import com.orderconsole.app.ErrorKind;

import java.util.LinkedHashMap;
import java.util.Map;

/**
 * A request the API answers with an error: its HTTP status, the error's kind and words, and fields of its own (a rejected
 * transition's result) added to the one error shape. Its factories are the one place each common answer is built.
 */
final class ApiProblem extends RuntimeException {
    /** Seconds a client waits before trying again after a 503 (Redis being restored, a server not answering). */
    static final int RETRY_AFTER_SECONDS = 5;

    private final int status;
    private final ErrorKind kind;
    private final Map<String, Object> extra = new LinkedHashMap<>();
    private final Map<String, String> headers = new LinkedHashMap<>();

    /** A problem answered with its kind's own HTTP status. */
    ApiProblem(ErrorKind kind, String message) {
        this(kind.httpStatus(), kind, message);
    }

    /** A problem answered with another status than its kind's (what the HTTP server refuses: 408, 414, 431, 505). */
    ApiProblem(int status, ErrorKind kind, String message) {
        super(message, null, false, false);
        this.status = status;
        this.kind = kind;
    }

    /** Bad input (400): nothing was asked of a server, nothing stored. */
    static ApiProblem badInput(String message) {
        return new ApiProblem(ErrorKind.USAGE, message);
    }

    /** A resource that does not exist (404), e.g. an order or a bulk batch. */
    static ApiProblem notFound(String message) {
        return new ApiProblem(ErrorKind.NOT_FOUND, message);
    }

    /** A change refused because the state does not allow it now (409), e.g. cancelling a finished bulk batch. */
    static ApiProblem conflict(String message) {
        return new ApiProblem(ErrorKind.CONFLICT, message);
    }

    /**
     * The one 503: a server did not answer, or this serve cannot take the request now; the client may send it again after
     * {@link #RETRY_AFTER_SECONDS} (the {@code Retry-After} header says so).
     *
     * @param message what did not answer and what became of the request, in words
     */
    static ApiProblem unavailable(String message) {
        return unavailable(message, RETRY_AFTER_SECONDS);
    }

    /**
     * The one 503 with a wait of its own: {@code retryAfterSeconds} when the request may be sent again sooner than
     * {@link #RETRY_AFTER_SECONDS} (work MySQL rolled back whole for a lock conflict: nothing was stored, and a second try
     * soon after usually passes).
     *
     * @param message what did not answer and what became of the request, in words
     * @param retryAfterSeconds seconds the client waits, at least 1
     */
    static ApiProblem unavailable(String message, int retryAfterSeconds) {
        return new ApiProblem(ErrorKind.UNAVAILABLE, message).header("Retry-After", Integer.toString(retryAfterSeconds));
    }

    /** @return the answer to a request that came while this serve stops: nothing was done */
    static ApiProblem stopping() {
        return unavailable("this serve is stopping and did not take the request; nothing was done: send it again (another "
                + "serve behind the load balancer takes it)");
    }

    ApiProblem with(String field, Object value) {
        extra.put(field, value);
        return this;
    }

    ApiProblem header(String name, String value) {
        headers.put(name, value);
        return this;
    }

    int status() {
        return status;
    }

    ErrorKind kind() {
        return kind;
    }

    Map<String, Object> extra() {
        return extra;
    }

    Map<String, String> headers() {
        return headers;
    }
}
