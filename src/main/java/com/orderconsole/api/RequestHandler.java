package com.orderconsole.api;

import com.orderconsole.app.ErrorKind;
import com.orderconsole.service.idempotency.IdempotencyKeys;
import org.eclipse.jetty.http.HttpMethod;
import org.eclipse.jetty.server.Handler;
import org.eclipse.jetty.server.Request;
import org.eclipse.jetty.server.Response;
import org.eclipse.jetty.util.Callback;

import java.util.List;
import java.util.concurrent.Executor;

/**
 * The handler of every request: it finds the route, authenticates what is under /v1, checks the method and the query,
 * runs the route and answers its failure in the one error shape. A known path asked with another method is 405 with
 * {@code Allow}, an unknown path 404. Every POST passes the {@link IdempotencyFilter} after authentication and before
 * its route: a repeat of a request with the same {@code Idempotency-Key} gets the first answer and runs nothing.
 *
 * <p>Non-blocking: Jetty runs it on the thread that read the request, without waking another. A route marked inline (a
 * transition) runs there and never blocks (it is answered when Redis' future completes, on the thread that brings it);
 * every other route may wait (a Redis read, the readiness check) and is handed to the pool. Handing each transition to a
 * pool thread that then waited for Redis cost a third of the API's CPU per request. A POST carrying an
 * {@code Idempotency-Key} is handed to the pool too: its filter asks MySQL first.
 */
final class RequestHandler extends Handler.Abstract.NonBlocking {
    private final RouteTable routes;
    private final Authenticator authenticator;
    private final IdempotencyKeys idempotency;
    private final Executor pool;

    /**
     * @param routes every route
     * @param authenticator checks the credentials of what is under /v1
     * @param idempotency where the answers to POSTs with an {@code Idempotency-Key} are kept
     * @param pool runs every route not marked inline
     */
    RequestHandler(RouteTable routes, Authenticator authenticator, IdempotencyKeys idempotency, Executor pool) {
        this.routes = routes;
        this.authenticator = authenticator;
        this.idempotency = idempotency;
        this.pool = pool;
    }

    @Override
    public boolean handle(Request request, Response response, Callback callback) {
        String path = request.getHttpURI().getPath();
        if (path == null || path.isEmpty()) {
            path = "/";
        } else if (path.length() > 1 && path.endsWith("/")) {
            path = path.substring(0, path.length() - 1); // a trailing slash names the same endpoint
        }
        ApiCall call = new ApiCall(request, response, callback, path);
        RouteTable.Endpoint endpoint = routes.match(path, call);
        Runnable dispatch = () -> dispatch(call, endpoint);
        boolean post = HttpMethod.POST.is(request.getMethod());
        boolean withBody = post || HttpMethod.PUT.is(request.getMethod());
        long length = request.getLength();
        Runnable work = !withBody ? dispatch : length <= JsonBody.MAX_BYTES ? () -> call.readBody(dispatch)
                : length <= JsonBody.DRAIN_MAX_BYTES ? () -> call.discardBody(dispatch) : dispatch;
        Route route = endpoint == null ? null : endpoint.route(request.getMethod());
        if (post && route != null && route.inline() && request.getHeaders().get(IdempotencyFilter.HEADER) == null
                && authenticator.answersAtOnce(request.getHeaders().get("Authorization"))) {
            work.run();
        } else {
            pool.execute(work);
        }
        return true;
    }

    /** Runs the route and answers, or answers its failure; a route gone asynchronous answers when its future completes. */
    private void dispatch(ApiCall call, RouteTable.Endpoint endpoint) {
        try {
            run(call, endpoint);
        } catch (Exception e) {
            if (call.isAsync()) {
                return; // the route's future answers, once (ApiCall.send)
            }
            call.answer(HttpMapping.problem(e));
        }
        if (!call.isAsync()) {
            call.send();
        }
    }

    private void run(ApiCall call, RouteTable.Endpoint endpoint) throws Exception {
        Route route = endpoint == null ? null : endpoint.route(call.method());
        if (call.path().startsWith("/v1/") && (endpoint == null || !endpoint.open())) {
            call.operator(authenticator.authenticate(call));
        }
        refusePathParameters(call);
        if (endpoint == null) {
            throw new ApiProblem(ErrorKind.NOT_FOUND, "no such endpoint: " + call.method() + " " + JsonBody.printable(call.path())
                    + " (GET /v1/openapi.json lists them)");
        }
        if (route == null) {
            throw new ApiProblem(ErrorKind.METHOD_NOT_ALLOWED, call.method() + " is not allowed on " + JsonBody.printable(call.path())
                    + "; it takes " + endpoint.allow() + " (GET /v1/openapi.json lists the operations)")
                    .header("Allow", endpoint.allow());
        }
        checkQuery(call, route);
        if (IdempotencyFilter.before(call, idempotency)) {
            return; // the kept answer of the same request
        }
        route.handler().handle(call);
    }

    /** Refuses a query parameter the route does not take, or one given twice, before anything is done. */
    private static void checkQuery(ApiCall call, Route route) {
        if (route.params() == null) {
            return;
        }
        List<String> taken = route.params().stream().sorted().toList();
        for (String name : call.queryNames()) {
            if (!route.params().contains(name)) {
                throw ApiProblem.badInput("unknown query parameter " + JsonBody.printable(name) + " (" + route.operation()
                        + (taken.isEmpty() ? " takes no query parameters" : " takes " + String.join(", ", taken)) + "); nothing was done");
            }
            if (call.queryValues(name) > 1) {
                throw ApiProblem.badInput("query parameter " + name + " is given twice; give it once (" + route.operation() + ")");
            }
        }
    }

    /**
     * Refuses ';' parameters anywhere in the path: the id would be decoded without them ({@code mx-1;junk=zz} acting on
     * mx-1), so a proxy or WAF keyed on the path would see another id than the one acted on. No route takes them.
     */
    private static void refusePathParameters(ApiCall call) {
        String path = call.path();
        int semi = path.indexOf(';');
        if (semi < 0) {
            return;
        }
        int end = path.indexOf('/', semi);
        String params = path.substring(semi, end < 0 ? path.length() : end);
        throw ApiProblem.badInput("the path " + JsonBody.printable(path) + " has path parameters ('" + JsonBody.printable(params)
                + "'), which this API does not take: send the path without ';' and what follows it; nothing was done");
    }
}
