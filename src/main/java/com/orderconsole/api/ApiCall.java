package com.orderconsole.api;

import com.orderconsole.app.ErrorKind;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.orderconsole.app.ErrorDocument;
import com.orderconsole.domain.Operator;
import org.eclipse.jetty.http.HttpHeader;
import org.eclipse.jetty.io.Content;
import org.eclipse.jetty.server.Request;
import org.eclipse.jetty.server.Response;
import org.eclipse.jetty.util.Callback;
import org.eclipse.jetty.util.Fields;
import org.eclipse.jetty.util.Promise;
import org.eclipse.jetty.util.thread.Invocable;

import java.nio.ByteBuffer;
import java.time.Duration;
import java.util.HashMap;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.Supplier;

/**
 * One request on its way through the API, over Jetty's core request, response and completion callback: what a route
 * reads (path, id, query, headers, body) and the answer it sets. The answer is written once, when the route returns or,
 * for a route that continues asynchronously ({@link #future}), when its future completes; no thread waits meanwhile.
 */
final class ApiCall {
    /** Writes the answers' JSON. */
    static final ObjectMapper JSON = new ObjectMapper();
    /** Longest an asynchronous request may take before it is answered 503: the longest long poll and a margin. */
    static final long ASYNC_TIMEOUT_MS = Duration.ofSeconds(FeedRoute.MAX_WAIT_SECONDS + 30).toMillis();

    private final Request request;
    private final Response response;
    private final Callback callback;
    private final String path;
    private final AtomicBoolean sent = new AtomicBoolean();
    private final Map<String, String> params = new HashMap<>(2);
    private Operator operator;
    private int status = 200;
    private byte[] body;
    private String contentType = "application/json";
    private boolean async;
    private byte[] bodyBytes;
    private Throwable bodyFailure;
    private Fields query;
    private java.util.function.BiConsumer<Integer, byte[]> keeper;
    private java.util.concurrent.Executor keeperOn;

    ApiCall(Request request, Response response, Callback callback, String path) {
        this.request = request;
        this.response = response;
        this.callback = callback;
        this.path = path;
    }

    String method() {
        return request.getMethod();
    }

    /** @return the request's path as sent (still percent-encoded), without a trailing slash */
    String path() {
        return path;
    }

    /** @return the {id} segment of the route, decoded */
    String id() {
        return params.get("id");
    }

    /** @return a {name} segment of the route, decoded, or null when the route has none of that name */
    String param(String name) {
        return params.get(name);
    }

    void param(String name, String value) {
        params.put(name, value);
    }

    String header(String name) {
        return request.getHeaders().get(name);
    }

    /** @return how many times a header is given */
    int headerCount(String name) {
        return request.getHeaders().getValuesList(name).size();
    }

    String contentType() {
        return request.getHeaders().get(HttpHeader.CONTENT_TYPE);
    }

    /**
     * Reads the body, up to {@link JsonBody#MAX_BYTES}, without holding a thread while it arrives, then runs {@code next}:
     * at once when the body came with the headers, else on one of Jetty's threads when its last byte does. A client that
     * stalls halfway holds no thread: a few hundred stalled bodies would otherwise hold every one of them.
     */
    void readBody(Runnable next) {
        Content.Source.asByteArrayAsync(request, JsonBody.MAX_BYTES, Promise.Invocable.from(Invocable.InvocationType.BLOCKING,
                (bytes, failure) -> {
                    bodyBytes = bytes;
                    bodyFailure = failure;
                    next.run();
                }));
    }

    /**
     * Reads and drops a body declared over {@link JsonBody#MAX_BYTES} (up to {@link JsonBody#DRAIN_MAX_BYTES}), keeping
     * none of it, then runs {@code next} (which answers 413): a connection closed while a body is still arriving is reset,
     * and the client loses the answer with it (ApiTest's 70 KB body, once: "header parser received no bytes").
     */
    void discardBody(Runnable next) {
        Content.Source.consumeAll(request, Callback.from(Invocable.InvocationType.BLOCKING, next, failure -> next.run()));
    }

    /**
     * @return the body {@link #readBody} read
     * @throws ApiProblem 413 when it is over {@link JsonBody#MAX_BYTES}, 408 when it stopped arriving for the connection's
     *     idle timeout, 400 when the connection ended before it did
     */
    byte[] body() {
        if (request.getLength() > JsonBody.MAX_BYTES || bodyFailure instanceof IllegalStateException) {
            throw new ApiProblem(ErrorKind.TOO_LARGE, "the body is larger than " + JsonBody.MAX_BYTES / 1024 + " KB; nothing was stored");
        }
        if (bodyFailure == null) {
            return bodyBytes == null ? new byte[0] : bodyBytes;
        }
        for (Throwable t = bodyFailure; t != null; t = t.getCause()) {
            if (t instanceof java.util.concurrent.TimeoutException) {
                throw new ApiProblem(408, ErrorKind.USAGE, "the body stopped arriving: nothing came for "
                        + ASYNC_TIMEOUT_MS / 1000 + " s; nothing was stored");
            }
        }
        throw ApiProblem.badInput("the body ended early: the connection closed before "
                + (request.getLength() >= 0 ? "the " + request.getLength() + " bytes its Content-Length declares" : "its last chunk")
                + " arrived; nothing was stored");
    }

    /**
     * @return the value of a query parameter, or null when it is not given
     * @throws ApiProblem 400 in words when the query string is not percent-encoded UTF-8 (Jetty's own words were
     *     "400: Bad query")
     */
    String queryParam(String name) {
        Fields.Field f = query().get(name);
        return f == null ? null : f.getValue();
    }

    /** @return the names of the query parameters given, in no particular order */
    java.util.Set<String> queryNames() {
        return query().getNames();
    }

    /** @return how many times a query parameter is given */
    int queryValues(String name) {
        Fields.Field f = query().get(name);
        return f == null ? 0 : f.getValues().size();
    }

    private Fields query() {
        if (query == null) {
            try {
                query = Request.extractQueryParameters(request);
            } catch (RuntimeException e) {
                throw ApiProblem.badInput("the query string is not valid: each name and value is UTF-8 text, percent-encoded "
                        + "('%' followed by two hex digits); nothing was done");
            }
        }
        return query;
    }

    /**
     * @return who the request acts as (an API client or a person), set by the API's {@link Authenticator} (null on a route
     *     without credentials)
     */
    Operator operator() {
        return operator;
    }

    void operator(Operator operator) {
        this.operator = operator;
    }

    /** @return the address the request came from (the proxy's, behind a load balancer) */
    String remoteAddress() {
        return Request.getRemoteAddr(request);
    }

    /** Sets a header of the answer. */
    void responseHeader(String name, String value) {
        response.getHeaders().put(name, value);
    }

    /** Writes a body to a stream; it may fail with an I/O error. */
    @FunctionalInterface
    interface BodyWriter {
        void write(java.io.OutputStream out) throws java.io.IOException;
    }

    /**
     * Answers with a body written as it is produced (an export), instead of one set with {@link #result}: the status and
     * type go first, so a failure midway ends the body early and the connection with it (a client sees a truncated body,
     * never a complete-looking one). Blocking: only on a pool thread.
     *
     * @param status e.g. 200
     * @param type the body's type, e.g. "text/csv; charset=utf-8"
     * @param body writes the body
     */
    void stream(int status, String type, BodyWriter body) {
        if (!sent.compareAndSet(false, true)) {
            return;
        }
        response.setStatus(status);
        response.getHeaders().put(HttpHeader.CONTENT_TYPE, type);
        try (java.io.OutputStream out = Content.Sink.asOutputStream(response)) {
            body.write(out);
        } catch (java.io.IOException | RuntimeException e) {
            callback.failed(e);
            return;
        }
        callback.succeeded();
    }

    /** Sets the answer: a JSON document. */
    void json(int status, Object doc) {
        try {
            result(status, JSON.writeValueAsBytes(doc));
        } catch (JsonProcessingException e) {
            throw new IllegalStateException("cannot write JSON: " + e.getOriginalMessage(), e); // i18n-ok: a defect
        }
    }

    /** Sets the answer: a problem in the one error shape, with its headers. */
    void answer(ApiProblem p) {
        Map<String, Object> doc = ErrorDocument.of(p.getMessage(), p.kind());
        doc.putAll(p.extra());
        p.headers().forEach(this::responseHeader);
        json(p.status(), doc);
    }

    /** Sets the answer: a JSON document already written to bytes. */
    synchronized void result(int status, byte[] json) {
        this.status = status;
        this.body = json;
        this.contentType = "application/json";
    }

    /** Sets the answer: a body of another type, e.g. "text/csv; charset=utf-8". */
    synchronized void result(int status, byte[] bytes, String type) {
        result(status, bytes);
        this.contentType = type;
    }

    /**
     * Continues the request asynchronously: the route's future sets the answer ({@link #result}) before it completes;
     * one that fails, or takes longer than {@link #ASYNC_TIMEOUT_MS}, is answered as the failure's problem.
     */
    void future(Supplier<CompletableFuture<?>> work) {
        bounded(() -> work.get().orTimeout(ASYNC_TIMEOUT_MS, TimeUnit.MILLISECONDS));
    }

    /**
     * Like {@link #future}, for work bounded by a timeout of its own and answering itself: no second timer per request.
     */
    void bounded(Supplier<CompletableFuture<?>> work) {
        async = true;
        CompletableFuture<?> f;
        try {
            f = work.get();
        } catch (RuntimeException e) {
            f = CompletableFuture.failedFuture(e);
        }
        f.whenComplete((v, e) -> {
            if (e != null && !hasResult()) {
                answer(HttpMapping.problem(e));
            }
            send();
        });
    }

    boolean isAsync() {
        return async;
    }

    private synchronized boolean hasResult() {
        return body != null;
    }

    /**
     * Has the answer, once set, given to {@code keeper} on {@code on} before it is written (the idempotency key's answer is
     * stored before the client can send the key again).
     */
    synchronized void keepAnswer(java.util.function.BiConsumer<Integer, byte[]> keeper, java.util.concurrent.Executor on) {
        this.keeper = keeper;
        this.keeperOn = on;
    }

    /** Writes the answer set, once; Jetty completes the request when the write is done. */
    void send() {
        if (!sent.compareAndSet(false, true)) {
            return;
        }
        int s;
        byte[] b;
        String type;
        java.util.function.BiConsumer<Integer, byte[]> k;
        synchronized (this) {
            s = status;
            b = body == null ? new byte[0] : body;
            type = contentType;
            k = keeper;
        }
        if (k != null) {
            CompletableFuture.runAsync(() -> k.accept(s, b), keeperOn).whenComplete((v, e) -> write(s, b, type));
        } else {
            write(s, b, type);
        }
    }

    private void write(int s, byte[] b, String type) {
        response.setStatus(s);
        response.getHeaders().put(HttpHeader.CONTENT_TYPE, type);
        // One write of the whole answer, its length known: Jetty sends it with Content-Length and no copy (HEAD: no body).
        response.write(true, ByteBuffer.wrap(b), callback);
    }
}
