package com.orderconsole.api;

import com.fasterxml.jackson.databind.JsonNode;
import com.orderconsole.app.Engine;
import com.orderconsole.app.Services;
import com.orderconsole.domain.Role;

import java.net.http.HttpResponse;
import java.time.Duration;

/**
 * A real serve for tests outside this package: on fresh embedded test servers ({@link ApiHarness}), or serve's API on an
 * engine a test already runs ({@link #on}), so a page's test can drive the same stores in-process and through serve. It
 * takes a person's stand-in token ({@link #person}).
 */
public final class ServeFixture implements AutoCloseable {
    private final ApiHarness h;
    private final ApiServer api;

    /** Serve on fresh embedded test servers, with its own engine. */
    public ServeFixture() {
        this.h = ApiHarness.fresh();
        this.api = h.api;
    }

    private ServeFixture(ApiServer api) {
        this.h = null;
        this.api = api;
    }

    /**
     * @param services the engine's services serve's API runs (its follower and sweeper as the test drives them)
     * @return serve's API on a free loopback port, acting as whoever a {@link #person} token names
     */
    public static ServeFixture on(Services services) {
        return new ServeFixture(ApiServer.start(services, ApiServer.Settings.of("127.0.0.1", 0).withGapGrace(Duration.ofSeconds(2)),
                call -> {
                    String[] p = ClientTokens.bearer(call).split(":");
                    if (p.length != 3 || !p[0].equals("person")) {
                        throw new ApiProblem(com.orderconsole.app.ErrorKind.UNAUTHORIZED, "not a test person's token");
                    }
                    return new com.orderconsole.domain.Operator(p[1], Role.valueOf(p[2].toUpperCase(java.util.Locale.ROOT)));
                }));
    }

    /** @return e.g. http://127.0.0.1:40123 */
    public String base() {
        return "http://127.0.0.1:" + api.port();
    }

    /** @return the engine serve runs on (fresh serve only): the local services of the same stores */
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
        if (h != null) {
            h.close();
        } else {
            api.close();
        }
    }
}
