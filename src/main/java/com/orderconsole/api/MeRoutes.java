package com.orderconsole.api;

import com.orderconsole.domain.Operator;
import com.orderconsole.service.identity.Person;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * {@code GET /v1/me}: who the bearer token acts as, as the console's band shows it and as the history stamps it: the
 * actor ({@code sso:alice via console-web} for a person, {@code api:payments} for an API client), the name alone, the
 * role, and the OAuth client that carried a person's token. Answered from memory: no server is asked.
 */
final class MeRoutes {
    /** What {@code via} says of an API client's token: it is the client's own, carried by no OAuth client. */
    static final String API_CLIENT = "api-client";

    List<Route> routes() {
        return List.of(Route.get("/v1/me", call -> call.json(200, document(Objects.requireNonNull(call.operator())))));
    }

    /**
     * @param who the request's operator
     * @return {"actor", "name", "role", "via"}: a person's actor {@code sso:<name> via <client>} is split into its name and
     *     client; an API client's {@code api:<name>} has via "api-client"; any other actor is its own name, via null
     */
    static Map<String, Object> document(Operator who) {
        String actor = who.name();
        String name = actor;
        String via = null;
        int at = actor.lastIndexOf(" via ");
        if (actor.startsWith(Person.ACTOR_PREFIX) && at > Person.ACTOR_PREFIX.length()) {
            name = actor.substring(Person.ACTOR_PREFIX.length(), at);
            via = actor.substring(at + " via ".length());
        } else if (actor.startsWith("api:")) {
            name = actor.substring("api:".length());
            via = API_CLIENT;
        }
        Map<String, Object> doc = new LinkedHashMap<>();
        doc.put("actor", actor);
        doc.put("name", name);
        doc.put("role", who.role().label());
        doc.put("via", via);
        return doc;
    }
}
