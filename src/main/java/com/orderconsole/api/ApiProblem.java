package com.orderconsole.api;

import java.util.LinkedHashMap;
import java.util.Map;

/**
 * A request the API answers with an error: its HTTP status, the error's kind and words, and fields of its own (a rejected
 * transition's result) added to the one error shape.
 */
final class ApiProblem extends RuntimeException {
    private final int status;
    private final String kind;
    private final Map<String, Object> extra = new LinkedHashMap<>();
    private final Map<String, String> headers = new LinkedHashMap<>();

    ApiProblem(int status, String kind, String message) {
        super(message, null, false, false);
        this.status = status;
        this.kind = kind;
    }

    /** Bad input (400): nothing was asked of a server, nothing stored. */
    static ApiProblem badInput(String message) {
        return new ApiProblem(400, "usage", message);
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

    String kind() {
        return kind;
    }

    Map<String, Object> extra() {
        return extra;
    }

    Map<String, String> headers() {
        return headers;
    }
}
