package com.orderconsole.service.identity;

import com.orderconsole.domain.Operator;
import com.orderconsole.domain.Role;

/**
 * A person whose access token {@code serve} verified.
 *
 * @param issuer the identity provider that vouched for them ({@code iss})
 * @param subject their stable id at that provider ({@code sub})
 * @param shownAs how the history names them: {@code preferred_username}, else {@code email}, else {@code sub}
 * @param client the OAuth client that carried the token ({@code azp}, else {@code client_id})
 * @param role the highest console role their groups map to
 * @param expiresAtMs the token's {@code exp}, epoch milliseconds
 */
public record Person(String issuer, String subject, String shownAs, String client, Role role, long expiresAtMs) {
    /** How a person's actor name begins in the history and the audit log: {@code sso:alice@example.com via console}. */
    public static final String ACTOR_PREFIX = "sso:";

    /** @return the actor written into every history and audit row: {@code sso:<shown as> via <client>} */
    public String actor() {
        return actorOf(shownAs, client);
    }

    /** @return who acts: the actor name with the person's role */
    public Operator operator() {
        return new Operator(actor(), role);
    }

    static String actorOf(String shownAs, String client) {
        return ACTOR_PREFIX + shownAs + " via " + client;
    }
}
