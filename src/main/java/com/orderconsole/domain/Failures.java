package com.orderconsole.domain;

import java.lang.reflect.InvocationTargetException;
import java.util.concurrent.CompletionException;
import java.util.concurrent.ExecutionException;

/**
 * The one way the product looks through a failure's wrappers: futures ({@link CompletionException},
 * {@link ExecutionException}) and reflection ({@link InvocationTargetException}) wrap the failure that says what went
 * wrong, and a driver's chain of causes ends in the one that names the network or server problem.
 */
public final class Failures {
    private Failures() {
    }

    /** @return the failure inside any future or reflection wrappers; {@code t} itself when it is none */
    public static Throwable unwrap(Throwable t) {
        Throwable u = t;
        while ((u instanceof CompletionException || u instanceof ExecutionException || u instanceof InvocationTargetException)
                && u.getCause() != null && u.getCause() != u) {
            u = u.getCause();
        }
        return u;
    }

    /** @return the last cause of the chain (a cause that is its own cause ends it) */
    public static Throwable root(Throwable t) {
        Throwable r = t;
        while (r.getCause() != null && r.getCause() != r) {
            r = r.getCause();
        }
        return r;
    }

    /** @return the message of {@code t}, or its class's simple name when it has none */
    public static String message(Throwable t) {
        return t.getMessage() == null || t.getMessage().isBlank() ? t.getClass().getSimpleName() : t.getMessage();
    }
}
