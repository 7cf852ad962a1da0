package com.orderconsole.service.metrics;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.io.IOException;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.function.Supplier;

/**
 * The Prometheus scrape endpoint: {@code GET /metrics} on the loopback interface only (a monitoring
 * agent on the same host, or a tunnel, reads it; nothing is exposed to the network). The JDK's own
 * HTTP server, one daemon thread.
 */
final class MetricsEndpoint {
    private static final Logger log = LoggerFactory.getLogger(MetricsEndpoint.class);
    /** Content type of the Prometheus text exposition format. */
    static final String CONTENT_TYPE = "text/plain; version=0.0.4; charset=utf-8";

    private final HttpServer server;
    private final ExecutorService executor;

    private MetricsEndpoint(HttpServer server, ExecutorService executor) {
        this.server = server;
        this.executor = executor;
    }

    /**
     * @param port TCP port on 127.0.0.1, 0 for any free one
     * @param body the text served at /metrics
     * @throws UncheckedIOException when the port cannot be bound, naming it
     */
    static MetricsEndpoint start(int port, Supplier<String> body) {
        HttpServer server;
        try {
            server = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), port), 16);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot serve metrics on 127.0.0.1:" + port + ": " + e.getMessage(), e);
        }
        ExecutorService executor = Executors.newSingleThreadExecutor(r -> {
            Thread t = new Thread(r, "metrics-endpoint");
            t.setDaemon(true);
            return t;
        });
        server.setExecutor(executor);
        server.createContext("/metrics", ex -> answer(ex, body));
        server.createContext("/", ex -> reply(ex, 404, "text/plain; charset=utf-8", "metrics are at /metrics\n"));
        server.start();
        log.info("serving metrics at http://127.0.0.1:{}/metrics", server.getAddress().getPort());
        return new MetricsEndpoint(server, executor);
    }

    private static void answer(HttpExchange ex, Supplier<String> body) throws IOException {
        if (!"GET".equals(ex.getRequestMethod()) && !"HEAD".equals(ex.getRequestMethod())) {
            reply(ex, 405, "text/plain; charset=utf-8", "GET only\n");
            return;
        }
        String text;
        try {
            text = body.get();
        } catch (RuntimeException e) {
            reply(ex, 500, "text/plain; charset=utf-8", "cannot read metrics: " + e.getMessage() + "\n");
            return;
        }
        reply(ex, 200, CONTENT_TYPE, text);
    }

    private static void reply(HttpExchange ex, int status, String type, String text) throws IOException {
        byte[] bytes = text.getBytes(StandardCharsets.UTF_8);
        ex.getResponseHeaders().set("Content-Type", type);
        boolean head = "HEAD".equals(ex.getRequestMethod());
        ex.sendResponseHeaders(status, head ? -1 : bytes.length);
        try (OutputStream out = ex.getResponseBody()) {
            if (!head) {
                out.write(bytes);
            }
        }
    }

    /** @return the port listened on */
    int port() {
        return server.getAddress().getPort();
    }

    /** Stops at once (a scrape in progress is cut). */
    void stop() {
        server.stop(0);
        executor.shutdownNow();
        log.info("stopped serving metrics");
    }
}
