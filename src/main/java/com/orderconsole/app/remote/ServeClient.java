package com.orderconsole.app.remote;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.MissingNode;

import java.io.IOException;
import java.net.ConnectException;
import java.net.URI;
import java.net.URLEncoder;
import java.net.http.HttpClient;
import java.net.http.HttpConnectTimeoutException;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.net.http.HttpTimeoutException;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.function.Consumer;

/**
 * The one HTTP client of remote mode: every call to serve's API goes through it. It sends the bearer token
 * {@link AccessTokens} holds, an {@code Idempotency-Key} on every POST (one per user action, the same on its retry),
 * answers a 401 by dropping the token and trying once more with a fresh one, and turns what goes wrong into words:
 * {@link ServeUnavailableException} for network trouble and 502/503/504, {@link ApiRefusal} for serve's error documents.
 * A request whose connection serve closed before answering (a restart) is sent once more on a new connection: a GET
 * changes nothing, and a POST carries the same key, so serve applies it at most once. Thread-safe.
 */
public final class ServeClient {
    /** How long a connection may take to open. */
    public static final Duration CONNECT_TIMEOUT = Duration.ofSeconds(5);
    /** How long an answer may take: above serve's own timeouts (5 s on MySQL, a transition's), so serve's 503 comes first. */
    public static final Duration REQUEST_TIMEOUT = Duration.ofSeconds(30);

    /** How long "answers again" and "restarted" stay the status after they happen, in milliseconds. */
    static final long NOTICE_MS = 30_000;

    private static final ObjectMapper JSON = new ObjectMapper();

    private final URI server;
    private final String base;
    private final AccessTokens tokens;
    private final Duration requestTimeout;
    private final HttpClient http;
    private final List<Consumer<ServeStatus>> listeners = new CopyOnWriteArrayList<>();
    private volatile ServeStatus status;
    private volatile long troubleSinceMs;

    /**
     * @param server serve's base address, e.g. http://serve.example:8080 (a path after the host is kept as a prefix)
     * @param tokens where the bearer token comes from
     */
    public ServeClient(URI server, AccessTokens tokens) {
        this(server, tokens, CONNECT_TIMEOUT, REQUEST_TIMEOUT);
    }

    /**
     * @param server serve's base address
     * @param tokens where the bearer token comes from
     * @param connectTimeout how long a connection may take to open
     * @param requestTimeout how long an answer may take
     * @throws IllegalArgumentException when the address is not http(s)://host[:port][/path]
     */
    public ServeClient(URI server, AccessTokens tokens, Duration connectTimeout, Duration requestTimeout) {
        if (server == null || server.getHost() == null || !("http".equals(server.getScheme()) || "https".equals(server.getScheme()))) {
            throw new IllegalArgumentException("serve's address '" + server + "' is not http(s)://host[:port]");
        }
        String s = server.toString();
        this.base = s.endsWith("/") ? s.substring(0, s.length() - 1) : s;
        this.server = URI.create(base);
        this.tokens = tokens;
        this.requestTimeout = requestTimeout;
        // HTTP/1.1: serve speaks it; no h2c upgrade attempt on every new connection.
        this.http = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).connectTimeout(connectTimeout)
                .followRedirects(HttpClient.Redirect.NEVER).build();
        this.status = new ServeStatus(ServeStatus.State.ANSWERING, "", System.currentTimeMillis());
    }

    /** @return serve's base address, without a trailing slash */
    public URI server() {
        return server;
    }

    /** @return the token source this client sends from */
    public AccessTokens tokens() {
        return tokens;
    }

    /** @return the JSON mapper the client reads and writes with */
    public static ObjectMapper json() {
        return JSON;
    }

    /** @return a new Idempotency-Key: one per user action, reused when that action is sent again */
    public static String newKey() {
        return UUID.randomUUID().toString();
    }

    /**
     * @param path an absolute path, e.g. "/v1/orders"
     * @param nameValues query parameters as name, value pairs; a null value leaves its name out, a value is sent as
     *     its toString(), percent-encoded
     * @return the path with its query, e.g. "/v1/orders?status=PAID&limit=100"
     */
    public static String path(String path, Object... nameValues) {
        StringBuilder b = new StringBuilder(path);
        char sep = path.indexOf('?') < 0 ? '?' : '&';
        for (int i = 0; i + 1 < nameValues.length; i += 2) {
            if (nameValues[i + 1] == null) {
                continue;
            }
            b.append(sep).append(encode(nameValues[i].toString())).append('=').append(encode(nameValues[i + 1].toString()));
            sep = '&';
        }
        return b.toString();
    }

    /** @return {@code text} percent-encoded as one path segment or query value */
    public static String encode(String text) {
        return URLEncoder.encode(text, StandardCharsets.UTF_8).replace("+", "%20");
    }

    /** @return serve's latest status as seen by this client */
    public ServeStatus status() {
        return status;
    }

    /** @param listener told each time the status changes (on the thread that made the request) */
    public void onStatus(Consumer<ServeStatus> listener) {
        listeners.add(listener);
    }

    /**
     * @param pathAndQuery e.g. "/v1/orders/o-1" or a {@link #path} result
     * @return the answer's JSON
     * @throws ServeUnavailableException no answer, or 502/503/504, in words
     * @throws ApiRefusal serve refused the request (its error document)
     * @throws SignInRequiredException no token can be had, or serve refused a fresh one too
     */
    public JsonNode get(String pathAndQuery) {
        return parse(send("GET", pathAndQuery, null, null).body());
    }

    /**
     * @param pathAndQuery e.g. "/v1/audit/export?actor=x"
     * @return the answer's body as text (a CSV export)
     * @throws ServeUnavailableException, ApiRefusal, SignInRequiredException as {@link #get}
     */
    public String getText(String pathAndQuery) {
        return new String(send("GET", pathAndQuery, null, null).body(), StandardCharsets.UTF_8);
    }

    /**
     * POSTs one user action with a key of its own; use {@link #post(String, Object, String)} when the action may be sent
     * again (the same key then).
     *
     * @param path e.g. "/v1/orders/o-1/transitions"
     * @param body written as JSON (a Map, a JsonNode, a record)
     * @return the answer's JSON
     * @throws ServeUnavailableException, ApiRefusal, SignInRequiredException as {@link #get}
     */
    public JsonNode post(String path, Object body) {
        return post(path, body, newKey());
    }

    /**
     * @param path e.g. "/v1/orders/o-1/transitions"
     * @param body written as JSON
     * @param idempotencyKey the action's key: serve answers the same key with the same answer and applies it at most once
     * @return the answer's JSON
     * @throws ServeUnavailableException, ApiRefusal, SignInRequiredException as {@link #get}
     */
    public JsonNode post(String path, Object body, String idempotencyKey) {
        return parse(send("POST", path, write(body), idempotencyKey).body());
    }

    /**
     * @param path e.g. "/v1/rules"
     * @param body written as JSON
     * @return the answer's JSON
     * @throws ServeUnavailableException, ApiRefusal, SignInRequiredException as {@link #get}
     */
    public JsonNode put(String path, Object body) {
        return parse(send("PUT", path, write(body), null).body());
    }

    private static byte[] write(Object body) {
        try {
            return JSON.writeValueAsBytes(body == null ? java.util.Map.of() : body);
        } catch (JsonProcessingException e) {
            throw new IllegalArgumentException("cannot write the request as JSON: " + e.getOriginalMessage(), e);
        }
    }

    private JsonNode parse(byte[] body) {
        if (body.length == 0) {
            return MissingNode.getInstance();
        }
        try {
            return JSON.readTree(body);
        } catch (IOException e) {
            throw new ApiRefusal(200, "failed", "serve at " + base + " answered with a body that is not JSON", null);
        }
    }

    /**
     * Sends one request: the 401 retry and the closed-connection retry here, each at most once.
     *
     * @param key the Idempotency-Key (POST), or null
     */
    private HttpResponse<byte[]> send(String method, String pathAndQuery, byte[] body, String key) {
        String bearer = tokens.current();
        HttpResponse<byte[]> r = exchange(method, pathAndQuery, body, key, bearer);
        if (r.statusCode() == 401) {
            tokens.rejected(bearer);
            String fresh = tokens.current();
            r = exchange(method, pathAndQuery, body, key, fresh);
            if (r.statusCode() == 401) {
                tokens.rejected(fresh);
                String words = "serve at " + base + " refused the access token (" + errorWords(r) + "); sign in again";
                changed(ServeStatus.State.SIGN_IN_NEEDED, words);
                throw new SignInRequiredException(words);
            }
        }
        int s = r.statusCode();
        if (s == 502 || s == 504) {
            throw unavailable(ServeUnavailableException.Reason.BAD_GATEWAY, null, "the proxy in front of serve at " + base
                    + " answered " + s + ": no serve behind it answered" + whatBecame(method), null);
        }
        if (s == 503) {
            Integer wait = r.headers().firstValue("Retry-After").map(ServeClient::seconds).orElse(null);
            throw unavailable(ServeUnavailableException.Reason.BUSY, wait, "serve at " + base + " cannot take the request now: "
                    + errorWords(r) + (wait == null ? "" : " (it asks to try again in " + wait + " s)"), null);
        }
        if (s >= 400) {
            answered();
            JsonNode doc = errorDocument(r);
            throw new ApiRefusal(s, doc.path("error").path("kind").asText("failed"), errorWords(r), doc);
        }
        answered();
        return r;
    }

    private HttpResponse<byte[]> exchange(String method, String pathAndQuery, byte[] body, String key, String bearer) {
        boolean retried = false;
        while (true) {
            HttpRequest.Builder b = HttpRequest.newBuilder(URI.create(base + pathAndQuery)).timeout(requestTimeout)
                    .header("Authorization", "Bearer " + bearer).header("Accept", "application/json");
            if (body != null) {
                b.header("Content-Type", "application/json").method(method, HttpRequest.BodyPublishers.ofByteArray(body));
            } else {
                b.method(method, HttpRequest.BodyPublishers.noBody());
            }
            if (key != null) {
                b.header("Idempotency-Key", key);
            }
            try {
                HttpResponse<byte[]> r = http.send(b.build(), HttpResponse.BodyHandlers.ofByteArray());
                if (retried) {
                    changed(ServeStatus.State.RESTARTED, "serve at " + base + " closed a connection before answering and "
                            + "answered on a new one: it restarted, or another serve took over");
                }
                return r;
            } catch (HttpConnectTimeoutException e) {
                throw unavailable(ServeUnavailableException.Reason.TIMED_OUT, null, "serve at " + base
                        + " did not accept a connection within " + seconds(CONNECT_TIMEOUT) + "; nothing was sent", e);
            } catch (HttpTimeoutException e) {
                throw unavailable(ServeUnavailableException.Reason.TIMED_OUT, null, "serve at " + base + " did not answer within "
                        + seconds(requestTimeout) + whatBecameUnknown(method, key), e);
            } catch (ConnectException e) {
                throw unavailable(ServeUnavailableException.Reason.REFUSED, null, "serve at " + base + " refused the connection "
                        + "(it is not running there, or the address is wrong); nothing was sent", e);
            } catch (java.nio.channels.UnresolvedAddressException e) {
                throw unavailable(ServeUnavailableException.Reason.UNREACHABLE, null, "serve's host " + server.getHost()
                        + " is not known (no such name); nothing was sent", e);
            } catch (IOException e) {
                if (unresolved(e)) {
                    throw unavailable(ServeUnavailableException.Reason.UNREACHABLE, null, "serve's host " + server.getHost()
                            + " cannot be reached (" + e.getClass().getSimpleName() + "); nothing was sent", e);
                }
                // A kept-alive connection serve closed (a restart): once more on a new one, safe by method or key.
                if (!retried && (key != null || "GET".equals(method))) {
                    retried = true;
                    continue;
                }
                throw unavailable(ServeUnavailableException.Reason.CLOSED, null, "serve at " + base
                        + " closed the connection before answering (it restarted or stopped)" + whatBecameUnknown(method, key), e);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw unavailable(ServeUnavailableException.Reason.TIMED_OUT, null, "the request to serve at " + base
                        + " was interrupted" + whatBecameUnknown(method, key), e);
            }
        }
    }

    private static boolean unresolved(IOException e) {
        for (Throwable t = e; t != null; t = t.getCause()) {
            if (t instanceof java.nio.channels.UnresolvedAddressException || t instanceof java.net.UnknownHostException
                    || t instanceof java.net.NoRouteToHostException) {
                return true;
            }
        }
        return false;
    }

    private static String whatBecame(String method) {
        return "GET".equals(method) ? "" : "; nothing was done";
    }

    private static String whatBecameUnknown(String method, String key) {
        if ("GET".equals(method)) {
            return "";
        }
        return key != null ? "; the change may or may not have been applied: sending the same action again is safe (serve "
                + "applies its Idempotency-Key once)" : "; the change may or may not have been applied: look before sending it again";
    }

    private ServeUnavailableException unavailable(ServeUnavailableException.Reason reason, Integer wait, String words, Throwable cause) {
        if (status.answering()) {
            troubleSinceMs = System.currentTimeMillis();
        }
        changed(ServeStatus.State.UNAVAILABLE, words);
        return new ServeUnavailableException(server, reason, wait, words, cause);
    }

    /**
     * serve answered: after trouble, say it answers again. That notice stays for {@link #NOTICE_MS}, so a status bar
     * polling every few seconds shows it, then the status is plain answering again.
     */
    private void answered() {
        ServeStatus now = status;
        long t = System.currentTimeMillis();
        if (now.state() == ServeStatus.State.UNAVAILABLE || now.state() == ServeStatus.State.SIGN_IN_NEEDED) {
            long down = Math.max(0, t - troubleSinceMs);
            changed(ServeStatus.State.RECOVERED, "serve at " + base + " answers again (it did not for "
                    + Math.max(1, down / 1000) + " s)");
        } else if (!now.words().isEmpty() && now.answering() && t - now.atMs() > NOTICE_MS) {
            changed(ServeStatus.State.ANSWERING, "");
        }
    }

    private synchronized void changed(ServeStatus.State state, String words) {
        ServeStatus before = status;
        if (before.state() == state && before.words().equals(words)) {
            return;
        }
        ServeStatus now = new ServeStatus(state, words, System.currentTimeMillis());
        status = now;
        for (Consumer<ServeStatus> l : listeners) {
            l.accept(now);
        }
    }

    private static JsonNode errorDocument(HttpResponse<byte[]> r) {
        try {
            JsonNode doc = JSON.readTree(r.body());
            return doc == null ? MissingNode.getInstance() : doc;
        } catch (IOException e) {
            return MissingNode.getInstance();
        }
    }

    private String errorWords(HttpResponse<byte[]> r) {
        String m = errorDocument(r).path("error").path("message").asText("");
        return m.isBlank() ? "HTTP " + r.statusCode() + " without an error document" : m;
    }

    private static Integer seconds(String retryAfter) {
        try {
            return Math.max(0, Integer.parseInt(retryAfter.trim()));
        } catch (NumberFormatException e) {
            return null; // an HTTP date: serve sends seconds; a proxy's date is not worth parsing here
        }
    }

    private static String seconds(Duration d) {
        return d.toMillis() % 1000 == 0 ? d.toSeconds() + " s" : d.toMillis() + " ms";
    }
}
