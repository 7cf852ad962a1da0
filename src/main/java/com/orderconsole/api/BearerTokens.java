package com.orderconsole.api;

import com.orderconsole.app.ErrorKind;
import com.orderconsole.domain.Operator;
import com.orderconsole.service.client.ApiClients;
import com.orderconsole.service.identity.OidcVerifier;
import com.orderconsole.service.identity.Person;
import com.orderconsole.service.identity.SignedInPeople;
import com.orderconsole.service.identity.TokenRefusedException;

import java.util.Optional;

/**
 * serve's {@link Authenticator}: an API client's opaque token ({@code oc_…}, {@link ClientTokens}) acts as
 * {@code api:<name>} with the client's role; with OIDC configured, any other bearer token is a person's access token,
 * checked by {@link OidcVerifier}, and the person acts as {@link Person#actor()} with the role their groups map to,
 * recorded in MySQL on first sight ({@link SignedInPeople}) so the follower accepts their moves. Nothing a request body
 * says about the actor is used.
 *
 * <p>The {@link FailureLimiter} stands in front: an address past its failed authentications is answered 429 before its
 * token is checked, unless the token is already known good (a client in force, a person verified before), so a service
 * or a person behind the same proxy is not locked out by someone else's guesses.
 */
final class BearerTokens implements Authenticator {
    private final ClientTokens clients;
    private final OidcVerifier oidc;
    private final SignedInPeople people;
    private final FailureLimiter limiter;

    /**
     * @param clients the API clients in force
     * @param oidc the people's token check, or null when serve takes API clients' tokens only
     * @param people where persons are recorded on first sight (used only with {@code oidc})
     * @param limiter failed authentications per address
     */
    BearerTokens(ApiClients clients, OidcVerifier oidc, SignedInPeople people, FailureLimiter limiter) {
        this.clients = new ClientTokens(clients);
        this.oidc = oidc;
        this.people = people;
        this.limiter = limiter;
    }

    /**
     * @return true for an API client's token, and for a person's token verified before whose person this serve recorded;
     *     false for a person's token seen for the first time (checking it may fetch the provider's keys or write MySQL)
     */
    @Override
    public boolean answersAtOnce(String authorization) {
        String token = ClientTokens.token(authorization);
        if (token == null || oidc == null || token.startsWith(ApiClients.TOKEN_PREFIX)) {
            return true;
        }
        Person p = oidc.cached(token);
        return p != null && people.recorded(p);
    }

    /**
     * @throws ApiProblem 400 for two Authorization headers; 401 missing or invalid; 403 a person whose groups map to no
     *     console role; 429 (rate_limited, Retry-After) too many failures from the address; 503 (Retry-After) when the
     *     identity provider or MySQL did not answer; all in words that never quote the token
     */
    @Override
    public Operator authenticate(ApiCall call) {
        String token = ClientTokens.bearer(call, oidc == null
                ? "this API needs a client's token: Authorization: Bearer <token> (an admin prints one with api-client add)"
                : "this API needs a bearer token: a person's access token from the identity provider, or a client's "
                + "token (an admin prints one with api-client add)");
        String address = call.remoteAddress();
        if (oidc == null || token.startsWith(ApiClients.TOKEN_PREFIX)) {
            Optional<Operator> client = clients.find(token);
            if (client.isPresent()) {
                return client.get();
            }
            refuseIfBlocked(address);
            throw failed(address, ClientTokens.notInForce());
        }
        Person known = oidc.cached(token);
        if (known == null) {
            refuseIfBlocked(address);
        }
        try {
            Person p = known != null ? known : oidc.verify(token);
            people.record(p);
            return p.operator();
        } catch (TokenRefusedException e) {
            throw switch (e.kind()) {
                case INVALID -> failed(address, ClientTokens.invalidToken(e.getMessage() + "; nothing was done"));
                case NO_ROLE -> new ApiProblem(ErrorKind.PERMISSION, e.getMessage() + "; nothing was done");
                case UNAVAILABLE -> ApiProblem.unavailable(e.getMessage() + "; nothing was done");
            };
        }
    }

    private void refuseIfBlocked(String address) {
        long wait = limiter.blockedForSeconds(address);
        if (wait > 0) {
            throw new ApiProblem(ErrorKind.RATE_LIMITED, "too many failed authentications from " + address + " ("
                    + limiter.limit() + " within " + limiter.window().toSeconds() + " s): this request was not checked and "
                    + "nothing was done; try again in " + wait + " s with a valid token")
                    .header("Retry-After", Long.toString(wait));
        }
    }

    private ApiProblem failed(String address, ApiProblem refusal) {
        limiter.failed(address);
        return refusal;
    }
}
