package com.orderconsole.api;

import com.orderconsole.app.Services;
import com.orderconsole.domain.Environment;
import com.orderconsole.service.feed.ChangeFeed;
import com.orderconsole.service.feed.FeedWatcher;
import com.orderconsole.service.identity.OidcVerifier;
import org.eclipse.jetty.http.UriCompliance;
import org.eclipse.jetty.server.HttpConfiguration;
import org.eclipse.jetty.server.HttpConnectionFactory;
import org.eclipse.jetty.server.Server;
import org.eclipse.jetty.server.ServerConnector;
import org.eclipse.jetty.server.handler.GracefulHandler;
import org.eclipse.jetty.util.thread.QueuedThreadPool;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.time.Duration;

/**
 * The HTTP API of {@code serve}, on Jetty 12's core handler API: versioned JSON under {@code /v1}, the OpenAPI document at
 * {@code /v1/openapi.json}, and {@code /health/live} / {@code /health/ready}. This class composes it: the Jetty server,
 * the {@link RequestHandler} over the {@link ApiRoutes}, the {@link Authenticator} and the {@link MysqlWork} pool. Every
 * request under /v1 but the document carries a bearer token: an API client's ({@code api-client add}; it acts as
 * {@code api:<name>} with its role) or, with OIDC configured, a person's access token (they act under their own name). No
 * servlet layer and no routing library: the stack under a framework cost as much CPU per request as a whole transition.
 *
 * <p>A transition never waits on MySQL: it answers once Redis ran the script, and the move reaches MySQL through the
 * outbox. What needs MySQL runs on a bounded pool and answers 503 in words after {@link Settings#mysqlTimeout()} when
 * MySQL does not answer, so a hung MySQL never holds the server's threads.
 */
public final class ApiServer implements AutoCloseable {
    private static final Logger log = LoggerFactory.getLogger(ApiServer.class);
    /**
     * Longest {@link #close} waits for the requests being handled to be answered: a transition waits at most its 5 s
     * timeout for Redis, and a long poll is answered at once when the feed's watcher closes.
     */
    static final Duration STOP_TIMEOUT = Duration.ofSeconds(6);

    private final Server server;
    private final ServerConnector connector;
    private final MysqlWork mysql;
    private final FeedWatcher feedWatcher;
    private final ApiRoutes routes;

    /**
     * Where and how the API listens.
     *
     * @param bind the address, e.g. 127.0.0.1 (serve's default) or 0.0.0.0 behind a load balancer
     * @param port the TCP port, 0 for any free one
     * @param mysqlTimeout how long what waits on MySQL (creation, lookups, the feed, lists) waits before answering 503, e.g. 5 s
     * @param transitionTimeout how long a transition waits for Redis before answering 503
     * @param gapGrace the change feed's gap grace ({@code ChangeFeed.DEFAULT_GAP_GRACE})
     * @param environment where serve works: on production the guarded operations need their reason and confirmed count
     *                    in the request ({@link ApiGuard})
     */
    public record Settings(String bind, int port, Duration mysqlTimeout, Duration transitionTimeout, Duration gapGrace,
                           Environment environment) {
        /** Local settings: 5 s for MySQL and for a transition, the feed's default grace, a local environment. */
        public static Settings of(String bind, int port) {
            return new Settings(bind, port, Duration.ofSeconds(5), Duration.ofSeconds(5), ChangeFeed.DEFAULT_GAP_GRACE,
                    Environment.LOCAL);
        }

        /** @return these settings with another feed gap grace */
        public Settings withGapGrace(Duration grace) {
            return new Settings(bind, port, mysqlTimeout, transitionTimeout, grace, environment);
        }

        /** @return these settings for another environment (serve passes its profile's) */
        public Settings withEnvironment(Environment where) {
            return new Settings(bind, port, mysqlTimeout, transitionTimeout, gapGrace, where);
        }
    }

    private ApiServer(Server server, ServerConnector connector, MysqlWork mysql, FeedWatcher feedWatcher, ApiRoutes routes) {
        this.routes = routes;
        this.server = server;
        this.connector = connector;
        this.mysql = mysql;
        this.feedWatcher = feedWatcher;
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
        return start(services, settings, (OidcVerifier) null);
    }

    /**
     * Starts the API taking API clients' tokens and, when {@code oidc} is given, people's OIDC access tokens
     * ({@link BearerTokens}), with the limit on failed authentications per address in front.
     *
     * @param oidc the check of people's tokens (its keys are read now, a failure logged), or null for clients' tokens only
     * @see #start(Services, Settings)
     */
    public static ApiServer start(Services services, Settings settings, OidcVerifier oidc) {
        if (oidc != null) {
            oidc.warmUp();
        }
        return start(services, settings, new BearerTokens(services.apiClients(), oidc, services.people(),
                FailureLimiter.standard()));
    }

    /**
     * Starts the API with another way to tell who a request acts as.
     *
     * @param authenticator yields the operator of each request under /v1 (serve's: {@link BearerTokens})
     */
    static ApiServer start(Services services, Settings settings, Authenticator authenticator) {
        services.apiClients().startRefreshing();
        MysqlWork mysql = new MysqlWork(settings.mysqlTimeout());
        ChangeFeed changeFeed = services.newChangeFeed(settings.gapGrace());
        FeedWatcher feedWatcher = services.newFeedWatcher(changeFeed);
        ApiRoutes routes = new ApiRoutes(services, settings, mysql, changeFeed, feedWatcher);
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
        connector.setIdleTimeout(ApiCall.ASYNC_TIMEOUT_MS);
        server.addConnector(connector);
        server.setErrorHandler(JettyRefusal::answer);
        // Graceful: on stop, the requests being handled are answered (a move Redis applied is never left unanswered), new
        // ones get 503 in words, and then the connections close.
        server.setStopTimeout(STOP_TIMEOUT.toMillis());
        server.setHandler(new GracefulHandler(new RequestHandler(routes.table(), authenticator, services.idempotency(), pool)));
        try {
            server.start();
        } catch (Exception e) {
            mysql.close();
            feedWatcher.close();
            routes.close();
            stopQuietly(server);
            throw new UncheckedIOException("cannot serve the API on " + settings.bind() + ":" + settings.port() + ": "
                    + com.orderconsole.domain.Failures.message(com.orderconsole.domain.Failures.root(e)), new IOException(e));
        }
        log.info("API listening on http://{}:{}/v1", settings.bind(), connector.getLocalPort()); // i18n-ok: log
        return new ApiServer(server, connector, mysql, feedWatcher, routes);
    }

    /**
     * Jetty's pool at 8 to 250 threads, named so that a profile tells its threads apart. A pool of 8 or 16 threads
     * measured no better at 64 connections on two cores.
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
    FeedWatcher feedWatcher() {
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
        mysql.close();
        routes.close();
    }

    private static void stopQuietly(Server server) {
        try {
            server.stop();
        } catch (Exception e) {
            log.warn("stopping the API: {}", com.orderconsole.domain.Failures.message(e)); // i18n-ok: log
        }
    }
}
