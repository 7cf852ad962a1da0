package com.orderconsole.service.idempotency;

import com.orderconsole.store.Database;
import com.orderconsole.store.IdempotencyStore;

import java.time.Duration;

/**
 * The first answer to each client's {@code Idempotency-Key}, kept in MySQL (V48) so a repeat reaches any serve and
 * outlives restarts: the same key with the same request (method, path and body) is answered the kept answer; the same
 * key with another request is refused; a repeat while the first try runs is told so. An answer that says to try again
 * (5xx) is not kept: the key is released and the next try runs.
 */
public final class IdempotencyKeys {
    /** A try still marked running after this long is taken over (its serve stopped before it answered). */
    public static final Duration STALE_AFTER = Duration.ofMinutes(2);

    private final Database db;

    /** @param db MySQL */
    public IdempotencyKeys(Database db) {
        this.db = db;
    }

    /** What {@link #begin} found. */
    public sealed interface Outcome permits Run, Replay, OtherRequest, Running {
    }

    /** The key is this request's: run it, then {@link #answered} or {@link #released}. */
    public record Run() implements Outcome {
    }

    /**
     * The key was answered before, for the same request.
     *
     * @param status the HTTP status kept
     * @param body the answer's body kept
     */
    public record Replay(int status, byte[] body) implements Outcome {
    }

    /** The key was used with another request (method, path or body). */
    public record OtherRequest() implements Outcome {
    }

    /** A try with this key is running now. */
    public record Running() implements Outcome {
    }

    /**
     * Takes the key for a request, or finds its earlier answer. Statements in auto-commit: each commits at once.
     *
     * @param client who sent it, as the history names the caller (e.g. {@code api:checkout}; 1-64 characters)
     * @param key the Idempotency-Key as sent
     * @param requestSha256 the hex SHA-256 of the request (method, path and body)
     * @return what to do
     * @throws com.orderconsole.store.DatabaseUnavailableException when MySQL cannot be reached
     */
    public Outcome begin(String client, String key, String requestSha256) {
        return db.read(t -> {
            IdempotencyStore s = t.idempotency();
            long now = System.currentTimeMillis();
            if (s.reserve(client, key, requestSha256, now)) {
                return new Run();
            }
            IdempotencyStore.Kept kept = s.find(client, key);
            if (kept == null) {
                return new Running(); // taken and released meanwhile: rare; the client sends it again
            }
            if (!kept.requestSha256().equals(requestSha256)) {
                return new OtherRequest();
            }
            if (kept.state() == 1) {
                return new Replay(kept.status(), kept.body());
            }
            if (s.takeOver(client, key, requestSha256, now, now - STALE_AFTER.toMillis())) {
                return new Run();
            }
            return new Running();
        });
    }

    /** Keeps the answer of the request that ran with the key (status below 500). */
    public void answered(String client, String key, int status, byte[] body) {
        db.read(t -> {
            t.idempotency().answered(client, key, status, body, System.currentTimeMillis());
            return null;
        });
    }

    /** Releases the key: the request that ran with it was answered 5xx, and a repeat runs again. */
    public void released(String client, String key) {
        db.read(t -> {
            t.idempotency().released(client, key);
            return null;
        });
    }
}
