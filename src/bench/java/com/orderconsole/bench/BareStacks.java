package com.orderconsole.bench;

import com.sun.net.httpserver.HttpServer;
import org.eclipse.jetty.io.Content;
import org.eclipse.jetty.server.Handler;
import org.eclipse.jetty.server.Request;
import org.eclipse.jetty.server.Response;
import org.eclipse.jetty.server.Server;
import org.eclipse.jetty.server.ServerConnector;
import org.eclipse.jetty.util.Callback;
import org.eclipse.jetty.util.thread.QueuedThreadPool;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.net.InetSocketAddress;
import java.nio.ByteBuffer;
import java.util.List;
import java.util.concurrent.SynchronousQueue;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * HTTP server stacks answering one POST route with a fixed JSON, nothing of ours in between: what each stack itself costs
 * per request, measured by {@link ApiScenario} with the same load client. Each reads the request's body (the API does)
 * and runs its handler on a pool of 8 to 250 threads named {@code api-http}, the API's. "jetty" is the API's own stack
 * (ApiServer); Javalin 7 on Jetty's servlet layer, measured here before the API left it, is in BENCHMARKS.md.
 */
final class BareStacks {
    /** The stacks, by the name {@code -Dbench.apiBare} takes. */
    static final List<String> NAMES = List.of("jetty", "jdk");

    private BareStacks() {
    }

    /** A started bare server. */
    interface Bare extends AutoCloseable {
        int port();

        /** In words, for the table. */
        String what();

        @Override
        void close();
    }

    static Bare start(String name, byte[] answer) {
        return switch (name) {
            case "jetty" -> jettyCore(answer);
            case "jdk" -> jdk(answer);
            default -> throw new IllegalArgumentException("bench.apiBare: no stack '" + name + "'; one of " + NAMES);
        };
    }

    private static QueuedThreadPool pool() {
        QueuedThreadPool pool = new QueuedThreadPool(250, 8, 60_000);
        pool.setName("api-http");
        return pool;
    }

    /** Jetty 12's core Handler API as ApiServer uses it: no servlet layer; the body read in full, then one write. */
    private static Bare jettyCore(byte[] answer) {
        Server server = new Server(pool());
        ServerConnector connector = new ServerConnector(server);
        connector.setHost("127.0.0.1");
        connector.setPort(0);
        server.addConnector(connector);
        server.setHandler(new Handler.Abstract() {
            @Override
            public boolean handle(Request request, Response response, Callback callback) {
                if (!"POST".equals(request.getMethod()) || !Request.getPathInContext(request).endsWith("/transitions")) {
                    return false; // Jetty's 404
                }
                try {
                    // read as ApiServer's routes read a body (JsonBody): a stream on the handler's thread, the declared length
                    Content.Source.asInputStream(request).readNBytes((int) Math.min(request.getLength(), 64 * 1024));
                } catch (IOException e) {
                    callback.failed(e);
                    return true;
                }
                response.setStatus(200);
                response.getHeaders().put("Content-Type", "application/json");
                response.write(true, ByteBuffer.wrap(answer), callback);
                return true;
            }
        });
        try {
            server.start();
        } catch (Exception e) {
            throw new IllegalStateException("bare Jetty did not start", e);
        }
        return new Bare() {
            public int port() {
                return connector.getLocalPort();
            }

            public String what() {
                return "Jetty 12 core Handler, no servlet layer";
            }

            public void close() {
                try {
                    server.stop();
                } catch (Exception e) {
                    throw new IllegalStateException(e);
                }
            }
        };
    }

    /** The JDK's com.sun.net.httpserver (one dispatcher thread parses, a pool runs handlers). */
    private static Bare jdk(byte[] answer) {
        HttpServer server;
        try {
            server = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 128);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        AtomicInteger n = new AtomicInteger();
        ThreadPoolExecutor pool = new ThreadPoolExecutor(8, 250, 60, TimeUnit.SECONDS, new SynchronousQueue<>(), r -> {
            Thread t = new Thread(r, "api-http-" + n.incrementAndGet());
            t.setDaemon(true);
            return t;
        });
        server.setExecutor(pool);
        server.createContext("/v1/orders/", exchange -> {
            try (InputStream in = exchange.getRequestBody()) {
                in.readAllBytes();
            }
            exchange.getResponseHeaders().set("Content-Type", "application/json");
            exchange.sendResponseHeaders(200, answer.length);
            exchange.getResponseBody().write(answer);
            exchange.close();
        });
        server.start();
        return new Bare() {
            public int port() {
                return server.getAddress().getPort();
            }

            public String what() {
                return "the JDK's com.sun.net.httpserver";
            }

            public void close() {
                server.stop(0);
                pool.shutdownNow();
            }
        };
    }
}
