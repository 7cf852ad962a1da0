package com.orderconsole.api.auth;

import java.util.LinkedHashMap;
import java.util.Map;

/**
 * A request whose credentials are not accepted: 400 (two Authorization headers), 401 (missing or invalid token), 403 (a
 * valid token whose person holds no console role), 429 (too many failed authentications from the address) or 503 (the
 * identity provider or MySQL did not answer), with the error's kind, its words and the headers to send.
 */
public final class AuthRefusal extends RuntimeException {
    private final int status;
    private final String kind;
    private final Map<String, String> headers = new LinkedHashMap<>();

    AuthRefusal(int status, String kind, String message) {
        super(message, null, false, false);
        this.status = status;
        this.kind = kind;
    }

    AuthRefusal header(String name, String value) {
        headers.put(name, value);
        return this;
    }

    /** @return the HTTP status */
    public int status() {
        return status;
    }

    /** @return the error's kind: usage, unauthorized, permission, rate_limited or unavailable */
    public String kind() {
        return kind;
    }

    /** @return the headers to answer with (WWW-Authenticate, Retry-After) */
    public Map<String, String> headers() {
        return headers;
    }
}
