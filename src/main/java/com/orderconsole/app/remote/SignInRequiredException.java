package com.orderconsole.app.remote;

/** No access token can be had without the person signing in again; the message says why, in words. */
public class SignInRequiredException extends RuntimeException {
    /** @param message what ended the session and what to do, in words */
    public SignInRequiredException(String message) {
        super(message);
    }

    /**
     * @param message what ended the session and what to do, in words
     * @param cause the failure behind it (kept for the log, never shown)
     */
    public SignInRequiredException(String message, Throwable cause) {
        super(message, cause);
    }
}
