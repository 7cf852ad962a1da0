package com.orderconsole.api;

import com.orderconsole.app.ErrorKind;
import com.orderconsole.service.idempotency.IdempotencyKeys;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;
import java.util.concurrent.Executor;
import java.util.concurrent.SynchronousQueue;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;

/**
 * {@code Idempotency-Key} on every POST: the first answer to a client's key is kept in MySQL (at least 24 h, on any serve;
 * {@link IdempotencyKeys}) and a repeat of the same request (method, path, body) with the same key gets it again, marked
 * {@code Idempotent-Replayed: true}, without running anything; the same key with another request is 422 in words; a
 * repeat while the first runs is 409 with Retry-After. An answer that says to try again (5xx) is not kept.
 */
final class IdempotencyFilter {
    static final String HEADER = "Idempotency-Key";
    /** Longest key taken, in characters (printable ASCII, no space). */
    static final int MAX_KEY = 255;
    private static final Logger log = LoggerFactory.getLogger(IdempotencyFilter.class);
    /** Keeps answers off the thread that brings them (a transition's answer comes on Redis' thread). */
    private static final Executor KEEPING = new ThreadPoolExecutor(0, 16, 30, TimeUnit.SECONDS, new SynchronousQueue<>(), r -> {
        Thread t = new Thread(r, "api-idempotency");
        t.setDaemon(true);
        return t;
    }, new ThreadPoolExecutor.CallerRunsPolicy());

    private IdempotencyFilter() {
    }

    /**
     * Before a POST's route runs (the client authenticated, the route and method known).
     *
     * @return true when the call is answered already (a kept answer replayed); false to run the route
     * @throws ApiProblem 400 for a key not taken, 422 for a key used with another request, 409 while it runs
     */
    static boolean before(ApiCall call, IdempotencyKeys keys) {
        if (!call.method().equals("POST") || call.headerCount(HEADER) == 0) {
            return false;
        }
        if (call.headerCount(HEADER) > 1) {
            throw ApiProblem.badInput("the request has " + call.headerCount(HEADER) + " Idempotency-Key headers; send one; nothing was done");
        }
        String key = call.header(HEADER);
        if (key.isEmpty() || key.length() > MAX_KEY || !key.chars().allMatch(c -> c > 0x20 && c < 0x7f)) {
            throw ApiProblem.badInput("the Idempotency-Key must be 1 to " + MAX_KEY + " printable ASCII characters without spaces "
                    + "(e.g. a UUID); nothing was done");
        }
        byte[] body;
        try {
            body = call.body();
        } catch (ApiProblem p) {
            return false; // the route answers the body's problem, and nothing is kept for it
        }
        String client = call.operator().name();
        IdempotencyKeys.Outcome o = keys.begin(client, key, fingerprint(call, body));
        if (o instanceof IdempotencyKeys.Replay r) {
            call.responseHeader("Idempotent-Replayed", "true");
            call.result(r.status(), r.body());
            return true;
        }
        if (o instanceof IdempotencyKeys.OtherRequest) {
            throw new ApiProblem(ErrorKind.KEY_REUSED, "Idempotency-Key '" + key + "' was used before with another request (method, path "
                    + "or body differ); a key names one request: use a new key for a new request; nothing was done");
        }
        if (o instanceof IdempotencyKeys.Running) {
            throw ApiProblem.conflict("a request with Idempotency-Key '" + key + "' is being answered now; send it again "
                    + "in a moment to get its answer; nothing was done").header("Retry-After", "1");
        }
        call.keepAnswer((status, answer) -> {
            try {
                if (status < 500) {
                    keys.answered(client, key, status, answer);
                } else {
                    keys.released(client, key);
                }
            } catch (RuntimeException e) {
                // The answer still goes out; the key stays marked running and is taken over after IdempotencyKeys.STALE_AFTER.
                log.warn("the answer to Idempotency-Key of client {} could not be kept in MySQL: {}", client,
                        com.orderconsole.domain.Failures.message(e));
            }
        }, KEEPING);
        return false;
    }

    /** @return the hex SHA-256 of the method, the path as sent and the body */
    private static String fingerprint(ApiCall call, byte[] body) {
        try {
            MessageDigest d = MessageDigest.getInstance("SHA-256");
            d.update((call.method() + " " + call.path() + "\n").getBytes(StandardCharsets.UTF_8));
            d.update(body);
            return HexFormat.of().formatHex(d.digest());
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException(e); // i18n-ok: every JVM has SHA-256
        }
    }
}
