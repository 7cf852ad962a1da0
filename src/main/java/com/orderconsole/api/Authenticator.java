package com.orderconsole.api;

import com.orderconsole.domain.Operator;

/**
 * Who makes a request under /v1: the one seam between the routes and how a caller proves who it is. Routes act as the
 * operator it yields, and the service layer's role checks decide what that operator may do; nothing in a request's body
 * names the actor.
 */
@FunctionalInterface
interface Authenticator {
    /**
     * @param call the request (its headers)
     * @return the operator the request acts as
     * @throws ApiProblem 401 in words when the credentials are missing or not in force, 400 when they are ambiguous
     */
    Operator authenticate(ApiCall call);

    /**
     * Whether {@link #authenticate} answers at once for these credentials, without I/O: only then does a route that runs
     * inline (a transition, on the thread that read the request) run there; otherwise the request goes to the pool (a
     * token seen for the first time may fetch an identity provider's keys).
     *
     * @param authorization the request's Authorization header, or null
     * @return true by default: an API client's token is checked in memory
     */
    default boolean answersAtOnce(String authorization) {
        return true;
    }
}
