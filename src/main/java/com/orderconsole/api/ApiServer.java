package com.orderconsole.api;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.orderconsole.app.ErrorDocument;
import com.orderconsole.app.Services;
import com.orderconsole.service.client.ApiClient;
import com.orderconsole.service.metrics.Readiness;
import io.javalin.Javalin;
import io.javalin.http.Context;
import io.javalin.http.HttpResponseException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * The HTTP API of {@code serve} (issue 32), on Javalin (Jetty 12): versioned JSON under {@code /v1}, the OpenAPI document
 * at {@code /v1/openapi.json}, and {@code /health/live} / {@code /health/ready}. Every request under /v1 but the document
 * carries a client's bearer token ({@code api-client add}); the client acts as {@code api:<name>} with its role.
 *
 * <p>A transition never waits on MySQL: it answers once Redis ran the script, and the move reaches MySQL through the
 * outbox. What needs MySQL (creation, a lookup, the feed) runs on a bounded pool and answers 503 in words after
 * {@link Settings#mysqlTimeout()} when MySQL does not answer, so a hung MySQL never holds the server's threads.
 */
public final class ApiServer implements AutoCloseable {
    private static final Logger log = LoggerFactory.getLogger(ApiServer.class);
    static final ObjectMapper JSON = new ObjectMapper();
    /** The request attribute holding the authenticated client. */
    static final String CLIENT = "apiClient";

    /** The buffer Javalin copies an answer through; answers are a few hundred bytes, a feed page a few hundred KB at most. */
    private static final int RESPONSE_COPY_BYTES = 4096;

    private final Javalin app;
    private final ThreadPoolExecutor mysqlWork;

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

    private ApiServer(Javalin app, ThreadPoolExecutor mysqlWork) {
        this.app = app;
        this.mysqlWork = mysqlWork;
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
        FeedRoute feed = new FeedRoute(services.newChangeFeed(settings.gapGrace()), settings, mysqlWork);
        byte[] openApi = openApiDocument();
        Javalin app = Javalin.create(config -> {
            config.startup.showJavalinBanner = false;
            config.jetty.host = settings.bind();
            config.jetty.port = settings.port();
            config.http.maxRequestSize = JsonBody.MAX_BYTES;
            // Javalin copies each answer through a buffer of this size, 32 KB by default: most of the API's allocation.
            config.http.responseBufferSize = RESPONSE_COPY_BYTES;
            config.jetty.threadPool = threadPool();
            config.http.asyncTimeout = Duration.ofSeconds(FeedRoute.MAX_WAIT_SECONDS + 30).toMillis();
            config.routes.before("/v1/*", ctx -> authenticate(services, ctx));
            config.routes.get("/v1/openapi.json", ctx -> ctx.contentType("application/json").result(openApi));
            config.routes.post("/v1/orders", orders::create);
            config.routes.post("/v1/orders/{id}/transitions", orders::transition);
            config.routes.get("/v1/orders/{id}", orders::show);
            config.routes.get("/v1/events", feed::events);
            config.routes.get("/health/live", ctx -> json(ctx, 200, Readiness.liveDocument()));
            config.routes.get("/health/ready", ctx -> {
                Readiness r = services.metrics().readiness();
                json(ctx, r.httpStatus(), r.document());
            });
            config.routes.exception(HttpResponseException.class, (e, ctx) -> answer(ctx, fromJavalin(e, ctx)));
            config.routes.exception(Exception.class, (e, ctx) -> answer(ctx, HttpMapping.problem(e)));
            config.routes.error(404, "*", ctx -> {
                if (ctx.result() == null || ctx.result().isEmpty() || !ctx.res().getContentType().startsWith("application/json")) {
                    answer(ctx, noSuchEndpoint(ctx));
                }
            });
            config.http.prefer405over404 = true; // a known path asked with another method (HEAD on a POST path too) is 405 with Allow, not 404
            config.routes.error(405, "*", ctx -> answer(ctx, methodNotAllowed(ctx)));
        });
        try {
            app.start();
        } catch (RuntimeException e) {
            mysqlWork.shutdownNow();
            throw new UncheckedIOException("cannot serve the API on " + settings.bind() + ":" + settings.port() + ": "
                    + com.orderconsole.domain.Failures.message(com.orderconsole.domain.Failures.root(e)), new IOException(e));
        }
        log.info("API listening on http://{}:{}/v1", settings.bind(), app.port()); // i18n-ok: log
        return new ApiServer(app, mysqlWork);
    }

    /**
     * Jetty's pool at Javalin's default size (8 to 250 threads), named so that a profile tells its threads apart.
     * A pool of 8 or 16 threads measured no better at 64 connections on two cores (BENCHMARKS.md, issue 32).
     */
    private static org.eclipse.jetty.util.thread.QueuedThreadPool threadPool() {
        org.eclipse.jetty.util.thread.QueuedThreadPool pool = new org.eclipse.jetty.util.thread.QueuedThreadPool(250, 8, 60_000);
        pool.setName("api-http");
        return pool;
    }

    /** The methods each path takes, for a 405's Allow header: the routes above, by the shape of their path. */
    static String allowed(String path) {
        if (path.equals("/v1/orders")) {
            return "POST";
        }
        if (path.startsWith("/v1/orders/")) {
            String rest = path.substring("/v1/orders/".length());
            if (rest.endsWith("/transitions") && rest.indexOf('/') == rest.length() - "/transitions".length()) {
                return "POST";
            }
            return rest.indexOf('/') < 0 ? "GET" : "";
        }
        return switch (path) {
            case "/v1/events", "/v1/openapi.json", "/health/live", "/health/ready" -> "GET";
            default -> "";
        };
    }

    /** @return the port listened on */
    public int port() {
        return app.port();
    }

    @Override
    public void close() {
        app.stop();
        mysqlWork.shutdownNow();
    }

    private static void authenticate(Services services, Context ctx) {
        if (ctx.path().equals("/v1/openapi.json")) {
            return;
        }
        String header = ctx.header("Authorization");
        if (header == null || !header.regionMatches(true, 0, "Bearer ", 0, 7)) {
            throw new ApiProblem(401, "unauthorized", "this API needs a client's token: Authorization: Bearer <token> "
                    + "(an admin prints one with api-client add)").header("WWW-Authenticate", "Bearer realm=\"order-console\"");
        }
        ApiClient client = services.apiClients().authenticate(header.substring(7).trim()).orElseThrow(() -> new ApiProblem(401,
                "unauthorized", "the token is not one of a client in force (unknown, or revoked); nothing was done")
                .header("WWW-Authenticate", "Bearer realm=\"order-console\", error=\"invalid_token\""));
        ctx.attribute(CLIENT, client);
    }

    private static ApiProblem noSuchEndpoint(Context ctx) {
        return new ApiProblem(404, "not_found", "no such endpoint: " + ctx.method() + " " + JsonBody.printable(ctx.path())
                + " (GET /v1/openapi.json lists them)");
    }

    private static ApiProblem methodNotAllowed(Context ctx) {
        String allow = allowed(ctx.path());
        return new ApiProblem(405, "method_not_allowed", ctx.method() + " is not allowed on " + JsonBody.printable(ctx.path())
                + (allow.isEmpty() ? "" : "; it takes " + allow) + " (GET /v1/openapi.json lists the operations)").header("Allow", allow);
    }

    private static ApiProblem fromJavalin(HttpResponseException e, Context ctx) {
        int status = e.getStatus();
        // Javalin's own 404 and 405 (no route; a route for another method) get words naming the endpoint, and Allow.
        if (e instanceof io.javalin.router.EndpointNotFound) {
            return noSuchEndpoint(ctx);
        }
        if (status == 405) {
            return methodNotAllowed(ctx);
        }
        if (status == 413) {
            return new ApiProblem(413, "too_large", "the body is larger than " + JsonBody.MAX_BYTES / 1024 + " KB; nothing was stored");
        }
        String kind = HttpMapping.KIND_STATUS.entrySet().stream().filter(k -> k.getValue() == status).map(Map.Entry::getKey)
                .findFirst().orElse("failed");
        return new ApiProblem(status, kind, JsonBody.printable(e.getMessage()));
    }

    /** Answers a problem in the one error shape. */
    static void answer(Context ctx, ApiProblem p) {
        Map<String, Object> doc = ErrorDocument.of(p.getMessage(), p.kind(), HttpMapping.exit(p.kind()));
        doc.putAll(p.extra());
        p.headers().forEach(ctx::header);
        json(ctx, p.status(), doc);
    }

    /** Answers a JSON document. */
    static void json(Context ctx, int status, Object doc) {
        try {
            ctx.status(status).contentType("application/json").result(JSON.writeValueAsBytes(doc));
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
            return CompletableFuture.failedFuture(new ApiProblem(503, "unavailable", "too many requests wait on MySQL now; "
                    + "try again in a few seconds").header("Retry-After", Integer.toString(HttpMapping.RETRY_AFTER_SECONDS)));
        }
    }
}
