package com.orderconsole.api;

import com.orderconsole.app.ErrorDocument;
import com.orderconsole.domain.Failures;
import com.orderconsole.domain.ResultCode;

import java.util.EnumMap;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * The one mapping of outcomes to HTTP statuses (README, "Connecting your order service", and the OpenAPI document list the
 * same): a transition's result code, and an error's kind ({@link ErrorDocument#kindOf}, shared with the CLI's --json).
 */
final class HttpMapping {
    private static final org.slf4j.Logger log = org.slf4j.LoggerFactory.getLogger(HttpMapping.class);
    /** Seconds a client waits before trying again after a 503 (Redis being restored, a server not answering). */
    static final int RETRY_AFTER_SECONDS = 5;

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

    /** Error kind → HTTP status. */
    static final Map<String, Integer> KIND_STATUS = kinds();

    private HttpMapping() {
    }

    private static Map<String, Integer> kinds() {
        Map<String, Integer> m = new LinkedHashMap<>();
        m.put("usage", 400);
        m.put("unauthorized", 401);
        m.put("permission", 403);
        m.put("not_found", 404);
        m.put("method_not_allowed", 405);
        m.put("conflict", 409);
        m.put("rejected", 409);
        m.put("too_large", 413);
        m.put("unsupported_media_type", 415);
        m.put("malformed_record", 422);
        m.put("key_reused", 422);
        m.put("failed", 500);
        m.put("unavailable", 503);
        return Map.copyOf(m);
    }

    /** @return the HTTP status of a transition's result code */
    static int status(ResultCode code) {
        return RESULT_STATUS.get(code);
    }

    /** @return the HTTP status of an error kind (500 for one not listed) */
    static int status(String kind) {
        return KIND_STATUS.getOrDefault(kind, 500);
    }

    /** @return the CLI's exit code for an error of that kind: 2 bad input, 3 a rejected move, else 1 */
    static int exit(String kind) {
        return switch (kind) {
            case "usage", "too_large", "unsupported_media_type" -> ErrorDocument.EXIT_USAGE;
            case "rejected" -> ErrorDocument.EXIT_REJECTED;
            default -> ErrorDocument.EXIT_FAILED;
        };
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
        String kind = ErrorDocument.kindOf(f, f instanceof IllegalArgumentException ? "usage" : "failed");
        String words = Failures.message(f);
        if (f instanceof java.util.concurrent.TimeoutException) {
            words = "a server did not answer in time";
        }
        ApiProblem p = new ApiProblem(status(kind), kind, words);
        if ("unavailable".equals(kind)) {
            p.header("Retry-After", Integer.toString(RETRY_AFTER_SECONDS));
        }
        if (p.status() == 500) {
            // Not a condition a client can wait out (those are 503): a defect. The id ties the answer to serve's log line.
            String id = java.util.UUID.randomUUID().toString().substring(0, 13);
            log.error("API answered 500, error id {}: {}", id, words, f); // i18n-ok: log
            p = new ApiProblem(500, kind, words + " (error id " + id + ", in serve's log)").with("errorId", id);
        }
        return p;
    }
}
