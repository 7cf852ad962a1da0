package com.orderconsole.app;

import java.util.Locale;

/**
 * Every kind of failure the command line and the HTTP API report, in one place: the word a script reads as
 * {@code error.kind} in either's error document ({@link ErrorDocument}), the HTTP status the API answers it with, and the
 * command line's exit code for it.
 */
public enum ErrorKind {
    /** Wrong input: nothing was asked of a server, nothing stored. */
    USAGE(400, ErrorDocument.EXIT_USAGE),
    /** Missing or invalid credentials (the API). */
    UNAUTHORIZED(401, ErrorDocument.EXIT_FAILED),
    /** Beyond the caller's role. */
    PERMISSION(403, ErrorDocument.EXIT_FAILED),
    /** An unknown order, endpoint, run or letter. */
    NOT_FOUND(404, ErrorDocument.EXIT_FAILED),
    /** Another method on a known path (the API). */
    METHOD_NOT_ALLOWED(405, ErrorDocument.EXIT_FAILED),
    /** The state does not allow it now (a creation with another body, a run still going, rules changed meanwhile). */
    CONFLICT(409, ErrorDocument.EXIT_FAILED),
    /** A transition the script rejected. */
    REJECTED(409, ErrorDocument.EXIT_REJECTED),
    /** A body over the limit (the API). */
    TOO_LARGE(413, ErrorDocument.EXIT_USAGE),
    /** A body that is not JSON (the API). */
    UNSUPPORTED_MEDIA_TYPE(415, ErrorDocument.EXIT_USAGE),
    /** An order whose Redis record cannot be read. */
    MALFORMED_RECORD(422, ErrorDocument.EXIT_FAILED),
    /** An {@code Idempotency-Key} sent before with another request (the API): nothing was done. */
    KEY_REUSED(422, ErrorDocument.EXIT_FAILED),
    /** A change on production whose count was not confirmed: nothing was changed. */
    NOT_CONFIRMED(428, ErrorDocument.EXIT_NOT_CONFIRMED),
    /** Too many failed authentications from the caller's address (the API): nothing was checked; try after Retry-After. */
    RATE_LIMITED(429, ErrorDocument.EXIT_FAILED),
    /** A rules document with faults (the command line; the API answers it as usage). */
    INVALID_RULES(400, ErrorDocument.EXIT_FAILED),
    /** {@code reconcile} found disagreements (the command line). */
    DRIFT(500, ErrorDocument.EXIT_DRIFT),
    /** {@code import}: the file had no good row (the command line). */
    NO_GOOD_ROW(400, ErrorDocument.EXIT_NO_GOOD_ROW),
    /** Any other failure. */
    FAILED(500, ErrorDocument.EXIT_FAILED),
    /** Redis or MySQL did not answer (in time), or the server cannot take the request now: send it again later. */
    UNAVAILABLE(503, ErrorDocument.EXIT_FAILED);

    private final int httpStatus;
    private final int exit;

    ErrorKind(int httpStatus, int exit) {
        this.httpStatus = httpStatus;
        this.exit = exit;
    }

    /** @return the word scripts read as {@code error.kind}, e.g. "not_found" */
    public String word() {
        return name().toLowerCase(Locale.ROOT);
    }

    /** @return the HTTP status the API answers this kind with */
    public int httpStatus() {
        return httpStatus;
    }

    /** @return the command line's exit code for this kind: 2 bad input, 3 rejected, 4 drift, 5 not confirmed, 6 no good row, else 1 */
    public int exit() {
        return exit;
    }
}
