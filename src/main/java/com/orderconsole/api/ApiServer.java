package com.orderconsole.api;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.orderconsole.app.ErrorDocument;
import com.orderconsole.app.Services;
import com.orderconsole.service.client.ApiClient;
import com.orderconsole.service.metrics.Readiness;
import org.eclipse.jetty.http.HttpMethod;
import org.eclipse.jetty.http.UriCompliance;
import org.eclipse.jetty.server.Handler;
import org.eclipse.jetty.server.HttpConfiguration;
import org.eclipse.jetty.server.HttpConnectionFactory;
import org.eclipse.jetty.server.Request;
import org.eclipse.jetty.server.Response;
import org.eclipse.jetty.server.Server;
import org.eclipse.jetty.server.ServerConnector;
import org.eclipse.jetty.server.handler.GracefulHandler;
import org.eclipse.jetty.util.Callback;
import org.eclipse.jetty.util.URIUtil;
import org.eclipse.jetty.util.thread.QueuedThreadPool;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.time.Duration;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * The HTTP API of {@code serve} (issue 32), on Jetty 12's core handler API: versioned JSON under {@code /v1}, the OpenAPI
 * document at {@code /v1/openapi.json}, and {@code /health/live} / {@code /health/ready}. Every request under /v1 but the
 * document carries a client's bearer token ({@code api-client add}); the client acts as {@code api:<name>} with its role.
 * A known path asked with another method is 405 with {@code Allow} (HEAD on a GET path is answered as GET, without the
 * body), an unknown path 404, both in the one error shape. No servlet layer and no routing library: the stack under
 * Javalin cost as much CPU per request as a whole transition (BENCHMARKS.md, issue 32), and seven routes need no more
 * than {@link Route}.
 *
 * <p>A transition never waits on MySQL: it answers once Redis ran the script, and the move reaches MySQL through the
 * outbox. What needs MySQL (creation, a lookup, the feed) runs on a bounded pool and answers 503 in words after
 * {@link Settings#mysqlTimeout()} when MySQL does not answer, so a hung MySQL never holds the server's threads: those
 * requests continue asynchronously and hold no thread while they wait (a feed's long poll neither).
 */
public final class ApiServer implements AutoCloseable {
    private static final Logger log = LoggerFactory.getLogger(ApiServer.class);
    static final ObjectMapper JSON = new ObjectMapper();
    /** Longest an asynchronous request may take before it is answered 503: the longest long poll and a margin. */
    static final long ASYNC_TIMEOUT_MS = Duration.ofSeconds(FeedRoute.MAX_WAIT_SECONDS + 30).toMillis();
    /**
     * Longest {@link #close} waits for the requests being handled to be answered: a transition waits at most its 5 s
     * timeout for Redis, and a long poll is answered at once when the feed's watcher closes.
     */
    static final Duration STOP_TIMEOUT = Duration.ofSeconds(6);

    private final Server server;
    private final ServerConnector connector;
    private final ThreadPoolExecutor mysqlWork;
    private final com.orderconsole.service.feed.FeedWatcher feedWatcher;

    /**
     * Where and how the API listens.
     *
     * @param bind the address, e.g. 127.0.0.1 (serve's default) or 0.0.0.0 behind a load balancer
     * @param port the TCP port, 0 for any free one
     * @param mysqlTimeout how long creation, lookups and the feed wait for MySQL before answering 503, e.g. 5 s
     * @param transitionTimeout how long a transition waits for Redis before answering 503
     * @param gapGrace the change feed's gap grace ({@code ChangeFeed.DEFAULT_GAP_GRACE})
     */
    public record Settings(String bind, int port, Duration mysqlTimeout, Duration transitionTimeout, Duration gapGrace) {
        /** serve's settings: 5 s for MySQL and for a transition, the feed's default grace. */
        public static Settings of(String bind, int port) {
            return new Settings(bind, port, Duration.ofSeconds(5), Duration.ofSeconds(5),
                    com.orderconsole.service.feed.ChangeFeed.DEFAULT_GAP_GRACE);
        }

        /** @return these settings with another feed gap grace */
        public Settings withGapGrace(Duration grace) {
            return new Settings(bind, port, mysqlTimeout, transitionTimeout, grace);
        }
    }

    private ApiServer(Server server, ServerConnector connector, ThreadPoolExecutor mysqlWork,
                      com.orderconsole.service.feed.FeedWatcher feedWatcher) {
        this.server = server;
        this.connector = connector;
        this.mysqlWork = mysqlWork;
        this.feedWatcher = feedWatcher;
    }

    /**
     * The API's routes, by the shape of their path; {@link #match} finds one and the {id} it names. Each lists the query
     * parameters it takes, and any other is refused: a typo ({@code aftr=}) was ignored and read the feed from its start.
     * The document and the health probes take whatever a tool adds (a cache-buster), so they list none to check.
     */
    enum Route {
        CREATE("POST", "/v1/orders", Set.of()),
        TRANSITION("POST", "/v1/orders/{id}/transitions", Set.of()),
        SHOW("GET", "/v1/orders/{id}", Set.of()),
        EVENTS("GET", "/v1/events", Set.of("after", "limit", "wait")),
        OPENAPI("GET", "/v1/openapi.json", null),
        LIVE("GET", "/health/live", null),
        READY("GET", "/health/ready", null);

        final String method;
        final String template;
        /** The query parameters taken; null when they are not checked. */
        final Set<String> params;

        Route(String method, String template, Set<String> params) {
            this.method = method;
            this.template = template;
            this.params = params;
        }

        /** @return the methods answered, for a 405's Allow: a GET path answers HEAD too (as GET, without the body) */
        String allow() {
            return method.equals("GET") ? "GET, HEAD" : method;
        }
    }

    /**
     * @param path the request's path as sent, without a trailing slash (one with ';' parameters is refused before the id
     *             is used: decoding drops them)
     * @param call where the decoded {id} is put (null: only the route is wanted)
     * @return the route of that path, or null when none has its shape
     */
    static Route match(String path, ApiCall call) {
        switch (path) {
            case "/v1/orders":
                return Route.CREATE;
            case "/v1/events":
                return Route.EVENTS;
            case "/v1/openapi.json":
                return Route.OPENAPI;
            case "/health/live":
                return Route.LIVE;
            case "/health/ready":
                return Route.READY;
            default:
                break;
        }
        if (!path.startsWith("/v1/orders/")) {
            return null;
        }
        String rest = path.substring("/v1/orders/".length());
        int slash = rest.indexOf('/');
        Route route = slash < 0 ? Route.SHOW : rest.substring(slash).equals("/transitions") ? Route.TRANSITION : null;
        String id = slash < 0 ? rest : rest.substring(0, slash);
        if (route == null || id.isEmpty()) {
            return null;
        }
        if (call != null) {
            call.id(URIUtil.decodePath(id));
        }
        return route;
    }

    /**
     * Starts the API and the refresh of the clients' credentials.
     *
     * @param services the service layer of a running engine
     * @param settings address, port, timeouts
     * @return the running server; close it to stop
     * @throws UncheckedIOException naming the address when it cannot be bound
     * @throws RuntimeException when the clients cannot be read from MySQL at start
     */
    public static ApiServer start(Services services, Settings settings) {
        services.apiClients().startRefreshing();
        AtomicInteger n = new AtomicInteger();
        // Work that waits on MySQL: bounded threads and queue, so a hung MySQL turns requests into 503s, not into a pile-up.
        ThreadPoolExecutor mysqlWork = new ThreadPoolExecutor(8, 8, 30, TimeUnit.SECONDS, new ArrayBlockingQueue<>(256), r -> {
            Thread t = new Thread(r, "api-mysql-" + n.incrementAndGet());
            t.setDaemon(true);
            return t;
        });
        OrderRoutes orders = new OrderRoutes(services, settings, mysqlWork);
        com.orderconsole.service.feed.ChangeFeed changeFeed = services.newChangeFeed(settings.gapGrace());
        com.orderconsole.service.feed.FeedWatcher feedWatcher = services.newFeedWatcher(changeFeed);
        FeedRoute feed = new FeedRoute(changeFeed, feedWatcher, settings, mysqlWork);
        byte[] openApi = openApiDocument();
        QueuedThreadPool pool = threadPool();
        Server server = new Server(pool);
        HttpConfiguration http = new HttpConfiguration();
        http.setSendServerVersion(false);
        // The routes take each id from the path as sent and check it in words (400 "is invalid"); Jetty's default refuses
        // an encoded control character itself, with an HTML page.
        http.setUriCompliance(UriCompliance.DEFAULT.with("order-console", UriCompliance.Violation.SUSPICIOUS_PATH_CHARACTERS));
        ServerConnector connector = new ServerConnector(server, new HttpConnectionFactory(http));
        connector.setHost(settings.bind());
        connector.setPort(settings.port());
        // A long poll sends nothing for up to its wait: the connection's idle timeout must outlast the longest request.
        connector.setIdleTimeout(ASYNC_TIMEOUT_MS);
        server.addConnector(connector);
        server.setErrorHandler(ApiServer::jettyError);
        // Graceful: on stop, the requests being handled are answered (a move Redis applied is never left unanswered, the
        // fresh-user tester's SIGTERM under load), new ones get 503 in words, and then the connections close.
        server.setStopTimeout(STOP_TIMEOUT.toMillis());
        server.setHandler(new GracefulHandler(requests(services, orders, feed, openApi, pool)));
        try {
            server.start();
        } catch (Exception e) {
            mysqlWork.shutdownNow();
            feedWatcher.close();
            stopQuietly(server);
            throw new UncheckedIOException("cannot serve the API on " + settings.bind() + ":" + settings.port() + ": "
                    + com.orderconsole.domain.Failures.message(com.orderconsole.domain.Failures.root(e)), new IOException(e));
        }
        log.info("API listening on http://{}:{}/v1", settings.bind(), connector.getLocalPort()); // i18n-ok: log
        return new ApiServer(server, connector, mysqlWork, feedWatcher);
    }

    /**
     * The handler of every request: it matches the route and runs it. Non-blocking: Jetty runs it on the thread that read
     * the request, without waking another. A transition never blocks there (it is answered when Redis' future completes, on
     * the thread that brings it); every other route may wait (a Redis read, the readiness check) and is passed to the pool.
     * Handing each request to a pool thread that then waited for Redis cost a third of the API's CPU per request
     * (BENCHMARKS.md, issue 32).
     */
    private static Handler requests(Services services, OrderRoutes orders, FeedRoute feed, byte[] openApi, QueuedThreadPool pool) {
        return new Handler.Abstract.NonBlocking() {
            @Override
            public boolean handle(Request request, Response response, Callback callback) {
                String path = request.getHttpURI().getPath();
                if (path == null || path.isEmpty()) {
                    path = "/";
                } else if (path.length() > 1 && path.endsWith("/")) {
                    path = path.substring(0, path.length() - 1); // a trailing slash names the same endpoint
                }
                ApiCall call = new ApiCall(request, response, callback, path);
                Runnable dispatch = () -> dispatch(call, services, orders, feed, openApi);
                boolean post = HttpMethod.POST.is(request.getMethod());
                long length = request.getLength();
                Runnable work = !post ? dispatch : length <= JsonBody.MAX_BYTES ? () -> call.readBody(dispatch)
                        : length <= JsonBody.DRAIN_MAX_BYTES ? () -> call.discardBody(dispatch) : dispatch;
                if (post && match(path, null) == Route.TRANSITION && request.getHeaders().get(IdempotencyFilter.HEADER) == null) {
                    work.run();
                } else {
                    pool.execute(work);
                }
                return true;
            }
        };
    }

    /**
     * What Jetty answers itself, before any route (a request it cannot parse, headers too large, a URI it refuses), in the
     * one error shape and our words ({@link JettyRefusal}) instead of its HTML page or its reason phrase.
     */
    private static boolean jettyError(Request request, Response response, Callback callback) {
        String path = request.getHttpURI() == null || request.getHttpURI().getPath() == null ? "/" : request.getHttpURI().getPath();
        ApiCall call = new ApiCall(request, response, callback, path);
        answer(call, JettyRefusal.of(request));
        call.send();
        return true;
    }

    /** @return the answer to a request that came while this serve stops: nothing was done */
    static ApiProblem stopping() {
        return new ApiProblem(503, "unavailable", "this serve is stopping and did not take the request; nothing was done: send "
                + "it again (another serve behind the load balancer takes it)").header("Retry-After", Integer.toString(HttpMapping.RETRY_AFTER_SECONDS));
    }

    /** Runs the route and answers, or answers its failure; a route gone asynchronous answers when its future completes. */
    private static void dispatch(ApiCall call, Services services, OrderRoutes orders, FeedRoute feed, byte[] openApi) {
        try {
            route(call, services, orders, feed, openApi);
        } catch (Exception e) {
            if (call.isAsync()) {
                return; // the route's future answers, once (ApiCall.send)
            }
            answer(call, HttpMapping.problem(e));
        }
        if (!call.isAsync()) {
            call.send();
        }
    }

    /** Authenticates what is under /v1 (the document aside), then runs the route of the path, or answers 404 / 405. */
    private static void route(ApiCall call, Services services, OrderRoutes orders, FeedRoute feed, byte[] openApi) throws IOException {
        Route route = match(call.path(), call);
        if (call.path().startsWith("/v1/") && route != Route.OPENAPI) {
            authenticate(services, call);
        }
        refusePathParameters(call);
        if (route == null) {
            throw noSuchEndpoint(call);
        }
        String method = call.method();
        if (!method.equals(route.method) && !(method.equals("HEAD") && route.method.equals("GET"))) {
            throw methodNotAllowed(call, route);
        }
        checkQuery(call, route);
        if (IdempotencyFilter.before(call, services.idempotency())) {
            return; // a kept answer
        }
        switch (route) {
            case CREATE -> orders.create(call);
            case TRANSITION -> orders.transition(call);
            case SHOW -> orders.show(call);
            case EVENTS -> feed.events(call);
            case OPENAPI -> call.result(200, openApi);
            case LIVE -> json(call, 200, Readiness.liveDocument());
            case READY -> {
                Readiness r = services.metrics().readiness();
                json(call, r.httpStatus(), r.document());
            }
        }
    }

    /**
     * Jetty's pool at the size Javalin gave it (8 to 250 threads), named so that a profile tells its threads apart.
     * A pool of 8 or 16 threads measured no better at 64 connections on two cores (BENCHMARKS.md, issue 32).
     */
    private static QueuedThreadPool threadPool() {
        QueuedThreadPool pool = new QueuedThreadPool(250, 8, 60_000);
        pool.setName("api-http");
        return pool;
    }

    /** @return the port listened on */
    public int port() {
        return connector.getLocalPort();
    }

    /** @return the watcher that wakes the feed's long polls (tests count its reads) */
    com.orderconsole.service.feed.FeedWatcher feedWatcher() {
        return feedWatcher;
    }

    /**
     * Stops listening, answers the requests being handled (long polls at once, with the page they have; the rest as they
     * finish, for at most {@link #STOP_TIMEOUT}), answers 503 to those that come meanwhile, then closes the connections.
     */
    @Override
    public void close() {
        feedWatcher.close();
        stopQuietly(server);
        mysqlWork.shutdownNow();
    }

    private static void stopQuietly(Server server) {
        try {
            server.stop();
        } catch (Exception e) {
            log.warn("stopping the API: {}", com.orderconsole.domain.Failures.message(e)); // i18n-ok: log
        }
    }

    private static void authenticate(Services services, ApiCall call) {
        int given = call.headerCount("Authorization");
        if (given > 1) {
            // Which one would count is a guess a proxy and this server could make differently: refuse, do not pick.
            throw ApiProblem.badInput("the request has " + given + " Authorization headers; send one, Authorization: Bearer "
                    + "<token>; nothing was done");
        }
        String header = call.header("Authorization");
        if (header == null || !header.regionMatches(true, 0, "Bearer ", 0, 7)) {
            throw new ApiProblem(401, "unauthorized", "this API needs a client's token: Authorization: Bearer <token> "
                    + "(an admin prints one with api-client add)").header("WWW-Authenticate", "Bearer realm=\"order-console\"");
        }
        ApiClient client = services.apiClients().authenticate(header.substring(7).trim()).orElseThrow(() -> new ApiProblem(401,
                "unauthorized", "the token is not one of a client in force (unknown, or revoked); nothing was done")
                .header("WWW-Authenticate", "Bearer realm=\"order-console\", error=\"invalid_token\""));
        call.client(client);
    }

    /** Refuses a query parameter the route does not take, or one given twice, before anything is done. */
    private static void checkQuery(ApiCall call, Route route) {
        if (route.params == null) {
            return;
        }
        String operation = route.method + " " + route.template;
        List<String> taken = route.params.stream().sorted().toList();
        for (String name : call.queryNames()) {
            if (!route.params.contains(name)) {
                throw ApiProblem.badInput("unknown query parameter " + JsonBody.printable(name) + " (" + operation
                        + (taken.isEmpty() ? " takes no query parameters" : " takes " + String.join(", ", taken)) + "); nothing was done");
            }
            if (call.queryValues(name) > 1) {
                throw ApiProblem.badInput("query parameter " + name + " is given twice; give it once (" + operation + ")");
            }
        }
    }

    /**
     * Refuses ';' parameters anywhere in the path: the id would be decoded without them ({@code mx-1;junk=zz} acting on
     * mx-1), so a proxy or WAF keyed on the path would see another id than the one acted on (the fresh-user tester's
     * finding 9). No route takes them.
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

    private static ApiProblem noSuchEndpoint(ApiCall call) {
        return new ApiProblem(404, "not_found", "no such endpoint: " + call.method() + " " + JsonBody.printable(call.path())
                + " (GET /v1/openapi.json lists them)");
    }

    private static ApiProblem methodNotAllowed(ApiCall call, Route route) {
        return new ApiProblem(405, "method_not_allowed", call.method() + " is not allowed on " + JsonBody.printable(call.path())
                + "; it takes " + route.allow() + " (GET /v1/openapi.json lists the operations)").header("Allow", route.allow());
    }

    /** Answers a problem in the one error shape. */
    static void answer(ApiCall call, ApiProblem p) {
        java.util.Map<String, Object> doc = ErrorDocument.of(p.getMessage(), p.kind(), HttpMapping.exit(p.kind()));
        doc.putAll(p.extra());
        p.headers().forEach(call::responseHeader);
        json(call, p.status(), doc);
    }

    /** Answers a JSON document. */
    static void json(ApiCall call, int status, Object doc) {
        try {
            call.result(status, JSON.writeValueAsBytes(doc));
        } catch (JsonProcessingException e) {
            throw new IllegalStateException("cannot write JSON: " + e.getOriginalMessage(), e); // i18n-ok: a defect
        }
    }

    private static byte[] openApiDocument() {
        try (InputStream in = ApiServer.class.getResourceAsStream("/api/openapi.json")) {
            if (in == null) {
                throw new IllegalStateException("the OpenAPI document is missing from the build"); // i18n-ok: a defect
            }
            return in.readAllBytes();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** @return the time since {@code t0} ({@link System#nanoTime}) in words, e.g. "2.0 s": what a 503 says it waited */
    static String waited(long t0) {
        return String.format(java.util.Locale.ROOT, "%.1f s", (System.nanoTime() - t0) / 1e9);
    }

    /** Runs MySQL-bound work on the bounded pool, failing with a timeout after {@code timeout}. */
    static <T> CompletableFuture<T> onMysql(ThreadPoolExecutor pool, Duration timeout, java.util.function.Supplier<T> work) {
        try {
            return CompletableFuture.supplyAsync(work, pool).orTimeout(timeout.toMillis(), TimeUnit.MILLISECONDS);
        } catch (java.util.concurrent.RejectedExecutionException e) {
            return CompletableFuture.failedFuture(new ApiProblem(503, "unavailable", "too many requests wait on MySQL now: this "
                    + "one was refused before it started, so nothing was done and nothing was stored; send it again in "
                    + HttpMapping.RETRY_AFTER_SECONDS + " s").header("Retry-After", Integer.toString(HttpMapping.RETRY_AFTER_SECONDS)));
        }
    }
}
