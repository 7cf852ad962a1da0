package com.orderconsole.service.metrics;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.sun.net.httpserver.HttpExchange;
import io.prometheus.metrics.exporter.httpserver.HTTPServer;
import io.prometheus.metrics.model.registry.PrometheusRegistry;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.io.IOException;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.function.Supplier;

/**
 * The scrape endpoint, on the loopback interface unless told another address ({@code serve --metrics-bind}: a
 * Prometheus on another host, or a container's own interface): {@code /metrics} in the Prometheus text format (OpenMetrics and gzip when the
 * scraper asks), served by the Prometheus client's own exporter, {@code /health/live} and {@code /health/ready}
 * ({@link Readiness}, as on the API port), and {@code /health}: 200 when the latest readings of
 * Redis and MySQL are fresh and OK, 503 otherwise, with a JSON body giving the reasons. Neither waits on a server:
 * both show the background sampler's latest reading. Two daemon threads, so a slow client does not hold the other.
 */
final class MetricsEndpoint {
    private static final Logger log = LoggerFactory.getLogger(MetricsEndpoint.class);
    private static final ObjectMapper JSON = new ObjectMapper();

    private final HTTPServer server;

    private MetricsEndpoint(HTTPServer server) {
        this.server = server;
    }

    /** As {@link #start(InetAddress, int, PrometheusRegistry, Supplier, Supplier)} on the loopback address. */
    static MetricsEndpoint start(int port, PrometheusRegistry registry, Supplier<Reading> reading, Supplier<List<Alert.Kind>> incidents) {
        return start(InetAddress.getLoopbackAddress(), port, registry, reading, incidents);
    }

    /**
     * @param bind the address to listen on (loopback by default; 0.0.0.0 for every interface)
     * @param port TCP port, 0 for any free one
     * @param registry the meters served at /metrics
     * @param reading the latest reading, for /health (must not wait on a server)
     * @param incidents the alert incidents open now, listed in /health
     * @throws UncheckedIOException when the port cannot be bound, naming it
     */
    static MetricsEndpoint start(InetAddress bind, int port, PrometheusRegistry registry, Supplier<Reading> reading,
                                 Supplier<List<Alert.Kind>> incidents) {
        ExecutorService executor = Executors.newFixedThreadPool(2, r -> {
            Thread t = new Thread(r, "metrics-endpoint");
            t.setDaemon(true);
            return t;
        });
        HTTPServer server;
        try {
            server = HTTPServer.builder().inetAddress(bind).port(port).registry(registry)
                    .executorService(executor).registerHealthHandler(false)
                    .defaultHandler(ex -> route(ex, reading, incidents)).buildAndStart();
        } catch (IOException e) {
            executor.shutdownNow();
            throw new UncheckedIOException("cannot serve metrics on " + hostPort(bind, port) + ": " + e.getMessage(), e);
        }
        log.info("serving metrics at http://{}/metrics and health at /health", hostPort(bind, server.getPort()));
        if (!bind.isLoopbackAddress()) {
            log.warn("the metrics endpoint listens on {}, beyond this host: /metrics and /health show counts and server state, "
                    + "no order data; limit who may reach the port", bind.getHostAddress());
        }
        return new MetricsEndpoint(server);
    }

    /** Every path but /metrics: /health, else 404 saying where things are. */
    private static void route(HttpExchange ex, Supplier<Reading> reading, Supplier<List<Alert.Kind>> incidents) throws IOException {
        try {
            String path = ex.getRequestURI().getPath();
            if ("/health/live".equals(path)) {
                reply(ex, 200, "application/json", JSON.writeValueAsString(Readiness.liveDocument()) + "\n");
                return;
            }
            if ("/health/ready".equals(path)) {
                Readiness ready = Readiness.of(reading.get());
                reply(ex, ready.httpStatus(), "application/json", JSON.writeValueAsString(ready.document()) + "\n");
                return;
            }
            if (!"/health".equals(path)) {
                reply(ex, 404, "text/plain; charset=utf-8", "metrics are at /metrics, health at /health, /health/live and /health/ready\n");
                return;
            }
            Reading r = reading.get();
            ObjectNode body = JSON.createObjectNode();
            body.put("status", r.ok() ? "ok" : "failing");
            body.put("redis", r.redisOk() ? "ok" : "failing");
            body.put("mysql", r.mysqlOk() ? "ok" : "failing");
            if (r.syncKnown()) {
                body.put("syncLagSeconds", r.syncLagMs() / 1000.0);
                body.put("syncBacklog", r.syncBacklog());
            }
            ArrayNode reasons = body.putArray("reasons");
            r.problems().forEach(reasons::add);
            ArrayNode open = body.putArray("incidents");
            // A store that does not answer is an incident of its own (serve logs it as REDIS_DOWN or MYSQL_DOWN), judged
            // from the same reading as the fields above; the figure incidents follow.
            if (!r.redisOk()) {
                open.add("redis_down");
            }
            if (!r.mysqlOk()) {
                open.add("mysql_down");
            }
            incidents.get().forEach(k -> open.add(k.name().toLowerCase(Locale.ROOT)));
            reply(ex, r.ok() ? 200 : 503, "application/json", JSON.writeValueAsString(body) + "\n");
        } finally {
            ex.close();
        }
    }

    private static void reply(HttpExchange ex, int status, String type, String text) throws IOException {
        byte[] bytes = text.getBytes(StandardCharsets.UTF_8);
        ex.getResponseHeaders().set("Content-Type", type);
        boolean head = "HEAD".equals(ex.getRequestMethod());
        ex.sendResponseHeaders(status, head ? -1 : bytes.length);
        if (!head) {
            try (OutputStream out = ex.getResponseBody()) {
                out.write(bytes);
            }
        }
    }

    /** @return "host:port" as a URL writes it (an IPv6 address in brackets) */
    static String hostPort(InetAddress bind, int port) {
        String host = bind.getHostAddress();
        return (host.contains(":") ? "[" + host + "]" : host) + ":" + port;
    }

    /** @return the port listened on */
    int port() {
        return server.getPort();
    }

    /** Stops at once (a scrape in progress is cut). */
    void stop() {
        server.close();
        log.info("stopped serving metrics");
    }
}
