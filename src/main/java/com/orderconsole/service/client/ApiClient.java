package com.orderconsole.service.client;

import com.orderconsole.domain.Operator;
import com.orderconsole.domain.Role;

/**
 * A service that calls the HTTP API.
 *
 * @param name its name, {@code [a-z][a-z0-9._-]{0,47}}; it acts as {@code api:<name>}
 * @param role support or ops
 * @param addedAtMs when it was registered, epoch ms
 * @param addedBy the admin who registered it
 * @param revokedAtMs when it was revoked, epoch ms, or null while in force
 */
public record ApiClient(String name, Role role, long addedAtMs, String addedBy, Long revokedAtMs) {
    /** @return true while its token is accepted */
    public boolean inForce() {
        return revokedAtMs == null;
    }

    /** @return who acts for it: {@code api:<name>} with its role, as the history and the audit log name it */
    public Operator operator() {
        return new Operator(ApiClients.ACTOR_PREFIX + name, role);
    }
}
