package com.orderconsole.service.identity;

/**
 * An access token {@code serve} does not accept, in words that name why and never quote the token.
 */
public final class TokenRefusedException extends RuntimeException {
    /** Why, as the API answers it. */
    public enum Kind {
        /** Not a valid token of the configured issuer for this API (401). */
        INVALID,
        /** A valid token whose person holds no console role (403). */
        NO_ROLE,
        /** The token could not be checked now: the identity provider or MySQL did not answer (503). */
        UNAVAILABLE
    }

    private final Kind kind;

    public TokenRefusedException(Kind kind, String message) {
        super(message, null, false, false);
        this.kind = kind;
    }

    /** @return why it was refused */
    public Kind kind() {
        return kind;
    }
}
