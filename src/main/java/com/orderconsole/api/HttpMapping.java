package com.orderconsole.api;

import com.orderconsole.app.ErrorDocument;
import com.orderconsole.app.ErrorKind;
import com.orderconsole.domain.Failures;
import com.orderconsole.domain.ResultCode;

import java.util.EnumMap;
import java.util.Map;

/**
 * The one mapping of outcomes to HTTP statuses (docs/integrator-guide.md, "Answers and errors", and the OpenAPI document list the
 * same): a transition's result code, and an error's kind ({@link ErrorDocument#kindOf}, shared with the CLI's --json).
 */
final class HttpMapping {
    private static final org.slf4j.Logger log = org.slf4j.LoggerFactory.getLogger(HttpMapping.class);

    /** Result code → HTTP status. Applied and a repeat (-4) are answers; the rest are errors. */
    static final Map<ResultCode, Integer> RESULT_STATUS = new EnumMap<>(Map.of(
            ResultCode.APPLIED, 200,
            ResultCode.ALREADY_IN_STATUS, 200,
            ResultCode.NOT_ALLOWED, 409,
            ResultCode.TERMINAL, 409,
            ResultCode.VERSION_CONFLICT, 409,
            ResultCode.MALFORMED, 422,
            ResultCode.RESTORING, 503,
            ResultCode.STATE_MISSING, 404,
            ResultCode.RULES_MISSING, 503));

    private HttpMapping() {
    }

    /** @return the HTTP status of a transition's result code */
    static int status(ResultCode code) {
        return RESULT_STATUS.get(code);
    }

    /**
     * @param failure what a service call threw
     * @return the problem to answer: bad input 400, unknown order 404, beyond the role 403, a server not answering or
     *     MySQL rolling the work back 503 (with Retry-After), anything else 500, logged with an error id the answer gives
     *     ({@code errorId}); always in words
     */
    static ApiProblem problem(Throwable failure) {
        Throwable f = Failures.unwrap(failure);
        if (f instanceof ApiProblem p) {
            return p;
        }
        ErrorKind kind = ErrorDocument.kindOf(f, f instanceof IllegalArgumentException ? ErrorKind.USAGE : ErrorKind.FAILED);
        String words = Failures.message(f);
        if (f instanceof java.util.concurrent.TimeoutException) {
            words = "a server did not answer in time";
        }
        if (kind == ErrorKind.UNAVAILABLE) {
            return ApiProblem.unavailable(words);
        }
        if (kind.httpStatus() == 500) {
            // Not a condition a client can wait out (those are 503): a defect. The id ties the answer to serve's log line.
            String id = java.util.UUID.randomUUID().toString().substring(0, 13);
            log.error("API answered 500, error id {}: {}", id, words, f); // i18n-ok: log
            return new ApiProblem(kind, words + " (error id " + id + ", in serve's log)").with("errorId", id);
        }
        return new ApiProblem(kind, words);
    }
}
