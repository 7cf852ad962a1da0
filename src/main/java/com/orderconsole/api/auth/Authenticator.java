package com.orderconsole.api.auth;

import com.orderconsole.domain.Operator;
import com.orderconsole.service.client.ApiClient;
import com.orderconsole.service.client.ApiClients;
import com.orderconsole.service.identity.OidcVerifier;
import com.orderconsole.service.identity.Person;
import com.orderconsole.service.identity.SignedInPeople;
import com.orderconsole.service.identity.TokenRefusedException;

import java.util.Optional;

/**
 * Who acts in a request: called once per request under /v1 with its Authorization header. An API client's opaque token
 * ({@code oc_…}) acts as {@code api:<name>} with the client's role; with OIDC configured, any other bearer token is a
 * person's access token, checked by {@link OidcVerifier}, and the person acts as {@link Person#actor()} with the role their
 * groups map to, recorded in MySQL on first sight ({@link SignedInPeople}) so the follower accepts their moves. Nothing a
 * request body says about the actor is used. Failed authentications count against the source address
 * ({@link FailureLimiter}).
 */
public final class Authenticator {
    private static final String REALM = "Bearer realm=\"order-console\"";

    private final ApiClients clients;
    private final OidcVerifier oidc;
    private final SignedInPeople people;
    private final FailureLimiter limiter;

    /**
     * @param clients the API clients in force
     * @param oidc the people's token check, or null when serve takes API clients' tokens only
     * @param people where persons are recorded on first sight (used only with {@code oidc})
     * @param limiter failed authentications per address
     */
    public Authenticator(ApiClients clients, OidcVerifier oidc, SignedInPeople people, FailureLimiter limiter) {
        this.clients = clients;
        this.oidc = oidc;
        this.people = people;
        this.limiter = limiter;
    }

    /**
     * @param authorization the request's Authorization header, or null
     * @return true when {@link #authenticate} answers without waiting on a server: an API client's token, or a person's
     *     token verified before whose person is recorded (else it may fetch the provider's keys or write MySQL)
     */
    public boolean answersAtOnce(String authorization) {
        String token = bearer(authorization);
        if (token == null || oidc == null || token.startsWith("oc_")) {
            return true;
        }
        Person p = oidc.cached(token);
        return p != null && people.recorded(p);
    }

    /**
     * @param headerCount how many Authorization headers the request has
     * @param authorization the (one) Authorization header, or null
     * @param address the request's source address, for the failure limit
     * @return who acts
     * @throws AuthRefusal in words: 400 for two headers, 401 missing or invalid, 403 no console role, 429 too many failures
     *     from the address, 503 when the identity provider or MySQL did not answer
     */
    public Operator authenticate(int headerCount, String authorization, String address) {
        if (headerCount > 1) {
            // Which one would count is a guess a proxy and this server could make differently: refuse, do not pick.
            throw new AuthRefusal(400, "usage", "the request has " + headerCount + " Authorization headers; send one, "
                    + "Authorization: Bearer <token>; nothing was done");
        }
        String token = bearer(authorization);
        if (token == null) {
            // Not counted as a failure: no credential was tried.
            throw new AuthRefusal(401, "unauthorized", oidc == null
                    ? "this API needs a client's token: Authorization: Bearer <token> (an admin prints one with api-client add)"
                    : "this API needs a bearer token: a person's access token from the identity provider, or a client's "
                    + "token (an admin prints one with api-client add)").header("WWW-Authenticate", REALM);
        }
        if (token.startsWith("oc_") || oidc == null) {
            Optional<ApiClient> client = clients.authenticate(token);
            if (client.isPresent()) {
                return client.get().operator();
            }
            refuseIfBlocked(address);
            throw fail(address, invalid("the token is not one of a client in force (unknown, or revoked); nothing was done"));
        }
        Person known = oidc.cached(token);
        if (known == null) {
            refuseIfBlocked(address);
        }
        Person p;
        try {
            p = known != null ? known : oidc.verify(token);
            people.record(p);
        } catch (TokenRefusedException e) {
            switch (e.kind()) {
                case INVALID -> throw fail(address, invalid(e.getMessage() + "; nothing was done"));
                case NO_ROLE -> throw new AuthRefusal(403, "permission", e.getMessage() + "; nothing was done");
                default -> throw new AuthRefusal(503, "unavailable", e.getMessage() + "; nothing was done")
                        .header("Retry-After", "2");
            }
        }
        return p.operator();
    }

    private void refuseIfBlocked(String address) {
        long wait = limiter.blockedForSeconds(address);
        if (wait > 0) {
            throw new AuthRefusal(429, "rate_limited", "too many failed authentications from " + address + " (" + limiter.limit()
                    + " within " + limiter.window().toSeconds() + " s): this request was not checked and nothing was done; "
                    + "try again in " + wait + " s with a valid token").header("Retry-After", Long.toString(wait));
        }
    }

    private AuthRefusal fail(String address, AuthRefusal r) {
        limiter.failed(address);
        return r;
    }

    private static AuthRefusal invalid(String words) {
        return new AuthRefusal(401, "unauthorized", words).header("WWW-Authenticate", REALM + ", error=\"invalid_token\"");
    }

    /** @return the token after "Bearer " (any letter case), trimmed; null when the header is absent or another scheme */
    private static String bearer(String header) {
        if (header == null || !header.regionMatches(true, 0, "Bearer ", 0, 7)) {
            return null;
        }
        String t = header.substring(7).trim();
        return t.isEmpty() ? null : t;
    }
}
