package com.orderconsole.api;

import com.orderconsole.app.ErrorKind;
import com.orderconsole.domain.Operator;
import com.orderconsole.service.client.ApiClient;
import com.orderconsole.service.client.ApiClients;

import java.util.Optional;

/**
 * Authentication by an API client's opaque token ({@code Authorization: Bearer <token>}, {@code api-client add}): the
 * request acts as {@code api:<name>} with the client's role. When this serve cannot tell whether the client is still in
 * force (neither MySQL nor Redis answered for longer than the revocation bound), the request is 503, never let through.
 */
final class ClientTokens implements Authenticator {
    /** The realm every 401 names in {@code WWW-Authenticate}. */
    static final String REALM = "Bearer realm=\"order-console\"";

    private final ApiClients clients;

    ClientTokens(ApiClients clients) {
        this.clients = clients;
    }

    @Override
    public Operator authenticate(ApiCall call) {
        return find(bearer(call)).orElseThrow(ClientTokens::notInForce);
    }

    /**
     * @param token a bearer token's text
     * @return the operator of the client in force whose token it is; empty for any other text
     * @throws ApiProblem 503 when this serve cannot tell whether the client is still in force (neither MySQL nor Redis
     *     answered for longer than the revocation bound): never let through on a stale copy
     */
    Optional<Operator> find(String token) {
        try {
            return clients.authenticate(token).map(ApiClient::operator);
        } catch (ApiClients.UnverifiableException e) {
            throw ApiProblem.unavailable(e.getMessage());
        }
    }

    /** @return the 401 of a token that is no client's in force */
    static ApiProblem notInForce() {
        return invalidToken("the token is not one of a client in force (unknown, or revoked); nothing was done");
    }

    /** @return a 401 for a token that was given and is not valid, in {@code words} (which never quote the token) */
    static ApiProblem invalidToken(String words) {
        return new ApiProblem(ErrorKind.UNAUTHORIZED, words).header("WWW-Authenticate", REALM + ", error=\"invalid_token\"");
    }

    /**
     * @return the bearer token of the one Authorization header
     * @throws ApiProblem 400 when the header is given more than once (which one counts is a guess a proxy and this server
     *     could make differently), 401 when there is no bearer token
     */
    static String bearer(ApiCall call) {
        return bearer(call, "this API needs a client's token: Authorization: Bearer <token> (an admin prints one with "
                + "api-client add)");
    }

    /**
     * @param missing the words of the 401 when there is no bearer token (what kinds of token this serve takes)
     * @see #bearer(ApiCall)
     */
    static String bearer(ApiCall call, String missing) {
        int given = call.headerCount("Authorization");
        if (given > 1) {
            throw ApiProblem.badInput("the request has " + given + " Authorization headers; send one, Authorization: Bearer "
                    + "<token>; nothing was done");
        }
        String token = token(call.header("Authorization"));
        if (token == null) {
            // Not a failed authentication: no credential was tried.
            throw new ApiProblem(ErrorKind.UNAUTHORIZED, missing).header("WWW-Authenticate", REALM);
        }
        return token;
    }

    /** @return the token after "Bearer " (any letter case), trimmed; null when the header is absent, empty or another scheme */
    static String token(String header) {
        if (header == null || !header.regionMatches(true, 0, "Bearer ", 0, 7)) {
            return null;
        }
        String t = header.substring(7).trim();
        return t.isEmpty() ? null : t;
    }
}
