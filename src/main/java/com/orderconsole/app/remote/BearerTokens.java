package com.orderconsole.app.remote;

import com.nimbusds.jwt.JWTParser;

import java.text.ParseException;
import java.time.Instant;
import java.util.Date;
import java.util.regex.Pattern;

/**
 * What the remote token sources check of a token before sending it: its characters (an HTTP header carries it) and,
 * for a JWT, when it expires. The signature is never checked here: serve does that; this side only decides when to
 * fetch a new one.
 */
final class BearerTokens {
    /** RFC 6750's b64token: letters, digits and {@code -._~+/}, then any {@code =}. */
    private static final Pattern B64TOKEN = Pattern.compile("[A-Za-z0-9\\-._~+/]+=*");
    /** Longer than any provider's access token; a source printing more printed something else. */
    static final int MAX_LENGTH = 16 * 1024;

    private BearerTokens() {
    }

    /** @return true when {@code token} can be sent as a bearer token (RFC 6750's characters, at most 16 KiB) */
    static boolean wellFormed(String token) {
        return token.length() <= MAX_LENGTH && B64TOKEN.matcher(token).matches();
    }

    /**
     * @param token a bearer token, a JWT or opaque
     * @return the JWT's expiry ({@code exp}), read without checking the signature; null for an opaque token or a JWT
     *     without one
     */
    static Instant expiry(String token) {
        if (token.chars().filter(c -> c == '.').count() != 2) {
            return null;
        }
        try {
            Date exp = JWTParser.parse(token).getJWTClaimsSet().getExpirationTime();
            return exp == null ? null : exp.toInstant();
        } catch (ParseException | RuntimeException e) {
            return null; // not a JWT after all: treated as opaque, serve judges it
        }
    }
}
