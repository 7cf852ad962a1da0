package com.orderconsole.api;

import com.fasterxml.jackson.databind.JsonNode;
import com.orderconsole.app.Engine;
import com.orderconsole.domain.Role;

import java.net.http.HttpResponse;

/**
 * A real serve on fresh embedded test servers ({@link ApiHarness}), for tests outside this package: its base URL, its
 * engine (the in-process services the same stores answer) and plain JSON calls with a person's stand-in token.
 */
public final class ServeFixture implements AutoCloseable {
    private final ApiHarness h = ApiHarness.fresh();

    /** @return e.g. http://127.0.0.1:40123 */
    public String base() {
        return h.base();
    }

    /** @return the engine serve runs on: the local services of the same stores */
    public Engine engine() {
        return h.engine;
    }

    /** @return a token serve takes as that person with that role */
    public static String person(String name, Role role) {
        return ApiHarness.person(name, role);
    }

    /** @return the answer's JSON; fails the test unless the status is {@code expect} */
    public JsonNode get(String token, String path, int expect) throws Exception {
        return checked(h.get(token, path), expect);
    }

    /** @return the answer's JSON; fails the test unless the status is {@code expect} */
    public JsonNode post(String token, String path, String body, int expect) throws Exception {
        return checked(h.post(token, path, body), expect);
    }

    private static JsonNode checked(HttpResponse<String> r, int expect) throws Exception {
        if (r.statusCode() != expect) {
            throw new AssertionError("expected " + expect + " from " + r.uri() + ", got " + r.statusCode() + ": " + r.body());
        }
        return ApiHarness.json(r);
    }

    @Override
    public void close() {
        h.close();
    }
}
