package com.orderconsole.app.remote;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.MissingNode;

/**
 * serve answered a request with an error document ({@code {"error": {"message", "kind"}, "exit"}}) other than a 503:
 * the request was refused for what it asked (not found, beyond the role, rejected, bad input). Each remote capability
 * maps it to the exception or result the in-process service gives for the same refusal; its message is serve's words.
 */
public class ApiRefusal extends RuntimeException {
    private final int status;
    private final String kind;
    private final transient JsonNode document;

    /**
     * @param status the HTTP status, e.g. 404
     * @param kind the error document's kind, e.g. "not_found" (app.ErrorKind's word), "failed" when serve sent none
     * @param message serve's words
     * @param document the whole answer (fields beyond the error, e.g. a rejected transition's "transition"); a missing
     *     node when the body was not JSON
     */
    public ApiRefusal(int status, String kind, String message, JsonNode document) {
        super(message, null, false, false);
        this.status = status;
        this.kind = kind;
        this.document = document == null ? MissingNode.getInstance() : document;
    }

    /** @return the HTTP status serve answered */
    public int status() {
        return status;
    }

    /** @return the error's kind as serve names it, e.g. "not_found", "permission", "rejected", "usage" */
    public String kind() {
        return kind;
    }

    /** @return the whole error document serve answered (missing node when it was not JSON) */
    public JsonNode document() {
        return document;
    }
}
