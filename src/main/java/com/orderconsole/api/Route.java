package com.orderconsole.api;

import java.io.IOException;
import java.util.Set;

/**
 * One operation of the API: its method, its path template ({@code /v1/orders/{id}}: a {@code {name}} segment matches
 * any one non-empty segment, decoded into {@link ApiCall#param}), the query parameters it takes, and what runs it.
 *
 * @param method the HTTP method, e.g. "GET"
 * @param template the path template
 * @param params the query parameters taken (any other is refused in words); null when they are not checked (the
 *               document and the health probes take whatever a tool adds, e.g. a cache-buster)
 * @param inline true when the handler never blocks (it answers when a future completes), so it runs on the thread that
 *               read the request instead of being handed to the pool
 * @param open true when the route needs no credentials although it is under /v1 (the OpenAPI document)
 * @param handler what runs the operation
 */
record Route(String method, String template, Set<String> params, boolean inline, boolean open, Handler handler) {
    /** What runs an operation: it sets the answer on the call, or throws an {@link ApiProblem} (any other failure is mapped). */
    @FunctionalInterface
    interface Handler {
        void handle(ApiCall call) throws IOException;
    }

    /** @return a GET route taking the given query parameters */
    static Route get(String template, Handler handler, String... params) {
        return new Route("GET", template, Set.of(params), false, false, handler);
    }

    /** @return a POST route taking the given query parameters */
    static Route post(String template, Handler handler, String... params) {
        return new Route("POST", template, Set.of(params), false, false, handler);
    }

    /** @return this route with any query parameter allowed */
    Route anyParams() {
        return new Route(method, template, null, inline, open, handler);
    }

    /** @return this route run on the request's own thread: its handler never blocks */
    Route runInline() {
        return new Route(method, template, params, true, open, handler);
    }

    /** @return this route answered without credentials */
    Route withoutCredentials() {
        return new Route(method, template, params, inline, true, handler);
    }

    /** @return "GET /v1/orders/{id}": how the operation is named in words */
    String operation() {
        return method + " " + template;
    }
}
