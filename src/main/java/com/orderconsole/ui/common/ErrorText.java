package com.orderconsole.ui.common;

import com.orderconsole.domain.Failures;
import com.orderconsole.app.Messages;

/** Turns failures into one line of words for the user: the service layer's messages, never a stack trace. */
public final class ErrorText {
    private static final int MAX = 300;

    private ErrorText() {
    }

    /**
     * @param what the action in words, e.g. "load orders"
     * @param failure what went wrong
     * @return e.g. "Could not load orders: Redis at 127.0.0.1:6379 did not answer ... within 2000 ms"
     */
    public static String couldNot(String what, Throwable failure) {
        return Messages.format("common.couldNot", what, describe(failure));
    }

    /**
     * @param failure what went wrong, possibly wrapped by futures or reflection
     * @return the first meaningful message, one line, at most 300 characters
     */
    public static String describe(Throwable failure) {
        Throwable t = Failures.unwrap(failure);
        // MyBatis wraps driver errors in a multi-line "### Error ..." report; the cause says it better.
        for (Throwable c = t; c != null; c = c.getCause() == c ? null : c.getCause()) {
            String m = c.getMessage();
            if (m != null && !m.isBlank() && !m.startsWith("###") && !m.startsWith("\n###")) {
                return shorten(m.strip().lines().findFirst().orElse(m));
            }
        }
        return Messages.format("common.unexpected", t.getClass().getSimpleName());
    }

    private static String shorten(String s) {
        return s.length() <= MAX ? s : s.substring(0, MAX - 1) + "…";
    }
}
