package com.orderconsole.api;

import com.orderconsole.app.ErrorKind;
import com.orderconsole.domain.Operator;
import com.orderconsole.service.client.ApiClients;

/**
 * Authentication by an API client's opaque token ({@code Authorization: Bearer <token>}, {@code api-client add}): the
 * request acts as {@code api:<name>} with the client's role. When this serve cannot tell whether the client is still in
 * force (neither MySQL nor Redis answered for longer than the revocation bound), the request is 503, never let through.
 */
final class ClientTokens implements Authenticator {
    private final ApiClients clients;

    ClientTokens(ApiClients clients) {
        this.clients = clients;
    }

    @Override
    public Operator authenticate(ApiCall call) {
        java.util.Optional<com.orderconsole.service.client.ApiClient> found;
        try {
            found = clients.authenticate(bearer(call));
        } catch (ApiClients.UnverifiableException e) {
            throw ApiProblem.unavailable(e.getMessage());
        }
        return found.orElseThrow(() -> new ApiProblem(ErrorKind.UNAUTHORIZED, "the token is not "
                        + "one of a client in force (unknown, or revoked); nothing was done")
                .header("WWW-Authenticate", "Bearer realm=\"order-console\", error=\"invalid_token\"")).operator();
    }

    /**
     * @return the bearer token of the one Authorization header
     * @throws ApiProblem 400 when the header is given more than once (which one counts is a guess a proxy and this server
     *     could make differently), 401 when there is no bearer token
     */
    static String bearer(ApiCall call) {
        int given = call.headerCount("Authorization");
        if (given > 1) {
            throw ApiProblem.badInput("the request has " + given + " Authorization headers; send one, Authorization: Bearer "
                    + "<token>; nothing was done");
        }
        String header = call.header("Authorization");
        if (header == null || !header.regionMatches(true, 0, "Bearer ", 0, 7)) {
            throw new ApiProblem(ErrorKind.UNAUTHORIZED, "this API needs a client's token: Authorization: Bearer <token> "
                    + "(an admin prints one with api-client add)").header("WWW-Authenticate", "Bearer realm=\"order-console\"");
        }
        return header.substring(7).trim();
    }
}
