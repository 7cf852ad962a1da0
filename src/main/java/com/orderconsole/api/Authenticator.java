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
}
