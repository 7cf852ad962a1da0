package com.orderconsole.app;

import com.orderconsole.domain.PermissionDeniedException;
import com.orderconsole.service.order.OrderNotFoundException;

import java.util.LinkedHashMap;
import java.util.Map;

/**
 * The one shape of a failure as a JSON document, for the CLI's {@code --json} and the HTTP API alike:
 * {@code {"error": {"message": "...", "kind": "..."}, "exit": N}}. The error is an object, so no script takes it for a
 * result; {@code exit} is the command line's exit code for the same failure (the API's answers carry it too, so one
 * script reads both).
 */
public final class ErrorDocument {
    /** Exit code of any failure that is not one of the others (a server down, an order not found, a permission refused). */
    public static final int EXIT_FAILED = 1;
    /** Exit code of wrong input: nothing was asked of a server. */
    public static final int EXIT_USAGE = 2;
    /** Exit code of a transition the script rejected. */
    public static final int EXIT_REJECTED = 3;
    /** Exit code of a reconciliation that found disagreements. */
    public static final int EXIT_DRIFT = 4;
    /** Exit code of a change on production whose count was not confirmed: nothing was changed. */
    public static final int EXIT_NOT_CONFIRMED = 5;
    /** Exit code of an import whose file had no good row. */
    public static final int EXIT_NO_GOOD_ROW = 6;

    private ErrorDocument() {
    }

    /**
     * @param message the failure in words
     * @param kind e.g. "usage", "not_found", "permission", "rejected", "unavailable"
     * @param exit the command line's exit code for it
     * @return a document to which a caller may add fields of its own (e.g. a rules file's faults)
     */
    public static Map<String, Object> of(String message, String kind, int exit) {
        Map<String, Object> error = new LinkedHashMap<>();
        error.put("message", message);
        error.put("kind", kind);
        Map<String, Object> doc = new LinkedHashMap<>();
        doc.put("error", error);
        doc.put("exit", exit);
        return doc;
    }

    /**
     * @param message the failure in words
     * @param kind what kind of failure: its word and exit code go into the document
     * @return a document to which a caller may add fields of its own
     */
    public static Map<String, Object> of(String message, ErrorKind kind) {
        return of(message, kind.word(), kind.exit());
    }

    /**
     * @param failure what a command or a request failed with
     * @return true when the failure is one after which nothing of the work is stored for certain: MySQL rolled it back
     *     whole each time it was tried (its words say so), so sending it again is safe
     */
    public static boolean nothingStored(Throwable failure) {
        return failure instanceof com.orderconsole.store.DatabaseBusyException;
    }

    /**
     * @param failure what a command or a request failed with
     * @param otherwise the kind when the failure is none of the named ones
     * @return UNAVAILABLE for serve not answering (remote mode), UNAUTHORIZED for a sign-in needed, serve's own kind for
     *     its refusal, NOT_FOUND for an unknown order, PERMISSION for a role that does not allow it, UNAVAILABLE for Redis or
     *     MySQL not answering (in time) or MySQL rolling the work back for lock conflicts each time it was tried,
     *     MALFORMED_RECORD for an order whose Redis record cannot be read, NOT_CONFIRMED for a change on production not
     *     confirmed, else {@code otherwise}
     */
    public static ErrorKind kindOf(Throwable failure, ErrorKind otherwise) {
        // Remote mode: serve's answers keep the kinds serve gave them, so a command over serve exits as it would locally.
        if (failure instanceof com.orderconsole.app.remote.ServeUnavailableException) {
            return ErrorKind.UNAVAILABLE;
        }
        if (failure instanceof com.orderconsole.app.remote.SignInRequiredException) {
            return ErrorKind.UNAUTHORIZED;
        }
        if (failure instanceof com.orderconsole.app.remote.ApiRefusal r) {
            for (ErrorKind k : ErrorKind.values()) {
                if (k.word().equals(r.kind())) {
                    return k;
                }
            }
            return otherwise;
        }
        if (failure instanceof com.orderconsole.redis.RedisUnavailableException
                || failure instanceof com.orderconsole.store.DatabaseUnavailableException
                || failure instanceof com.orderconsole.store.DatabaseBusyException
                || failure instanceof java.util.concurrent.TimeoutException) {
            return ErrorKind.UNAVAILABLE;
        }
        if (failure instanceof OrderNotFoundException) {
            return ErrorKind.NOT_FOUND;
        }
        if (failure instanceof com.orderconsole.redis.MalformedOrderException) {
            return ErrorKind.MALFORMED_RECORD; // the kind a move on that record answers (-6), for a read of it too
        }
        if (failure instanceof PermissionDeniedException) {
            return ErrorKind.PERMISSION;
        }
        if (failure instanceof NotConfirmedException) {
            return ErrorKind.NOT_CONFIRMED;
        }
        return otherwise;
    }
}
